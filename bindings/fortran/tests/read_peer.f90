!> read_peer URL: reads a whole int16 array of rank 1 to 3 (as zarr-python and
!> zarrita.js wrote them in ../shared/peer-data) into a Fortran array and
!> prints its Fortran shape and its elements in Fortran memory order:
!>
!>   shape N1 [N2 [N3]]
!>   values V1 V2 ...
!>
!> check_peer_reads.py compares them with the peers' reading in the manifest.
program read_peer
  use, intrinsic :: iso_fortran_env, only: int16, int64
  use zarr
  implicit none

  type(zarr_array) :: array
  character(len=4096) :: url
  integer(int16), allocatable :: a1(:), a2(:, :), a3(:, :, :)
  integer(int64), allocatable :: n(:)

  call get_command_argument(1, url)
  call zarr_open(array, trim(url))
  if (zarr_data_type(array) /= 'int16') error stop 'read_peer reads int16 arrays only'
  n = zarr_shape(array)  ! Fortran order: the Zarr shape reversed
  select case (size(n))
  case (1)
    allocate (a1(n(1)))
    call zarr_read(array, a1)
    call print_array(n, int(a1, int64))
  case (2)
    allocate (a2(n(1), n(2)))
    call zarr_read(array, a2)
    call print_array(n, int(reshape(a2, [size(a2)]), int64))
  case (3)
    allocate (a3(n(1), n(2), n(3)))
    call zarr_read(array, a3)
    call print_array(n, int(reshape(a3, [size(a3)]), int64))
  case default
    error stop 'read_peer reads arrays of rank 1 to 3 only'
  end select
  call zarr_close(array)

contains

  !> The values in memory (array element) order, which reshape keeps.
  subroutine print_array(fortran_shape, values)
    integer(int64), intent(in) :: fortran_shape(:), values(:)

    print '(a, *(1x, i0))', 'shape', fortran_shape
    print '(a, *(1x, i0))', 'values', values
  end subroutine print_array
end program read_peer
