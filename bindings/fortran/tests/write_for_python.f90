!> write_for_python DIR: writes Zarr v2 arrays of every element type, rank 1
!> to 4, a strided section and an offset block into DIR, for
!> check_python_reads.py to read with zarr-python. Element a(i, j, k, l) of
!> the Fortran array holds value(i + 10 j + 100 k + 1000 l) (the value per
!> type is in check_python_reads.py), so a reader that reverses the
!> dimensions wrongly sees other numbers.
program write_for_python
  use, intrinsic :: iso_c_binding, only: c_bool
  use, intrinsic :: iso_fortran_env, only: int8, int16, int32, int64, real32, real64
  use zarr
  implicit none

  integer, parameter :: n1 = 3, n2 = 4, n3 = 2, n4 = 5
  integer(int64) :: f(n1, n2, n3, n4)
  character(len=4096) :: dir
  integer :: i, j, k, l

  call get_command_argument(1, dir)
  f = reshape([((((i + 10 * j + 100 * k + 1000 * l, i = 1, n1), j = 1, n2), k = 1, n3), l = 1, n4)], &
              [n1, n2, n3, n4])

  call write_ranks('int8', '|i1', int(mod(f, 128_int64), int8))
  call write_ranks('int16', '<i2', int(f, int16))
  call write_ranks('int32', '<i4', int(f, int32))
  call write_ranks('int64', '<i8', f)
  call write_ranks('float32', '<f4', real(f, real32) + 0.5_real32)
  call write_ranks('float64', '<f8', real(f, real64) + 0.5_real64)
  call write_ranks('complex64', '<c8', cmplx(f, -f, real32))
  call write_ranks('complex128', '<c16', cmplx(f, -f, real64))
  call write_ranks('bool', '|b1', logical(mod(f, 3_int64) == 0, c_bool))
  call write_offset_block()

contains

  !> The array at rank 1 to 4 (leading sections, the other indices 1) and the
  !> strided section a(2, :, :, 1).
  subroutine write_ranks(name, dtype, a)
    character(len=*), intent(in) :: name, dtype
    class(*), intent(in), target :: a(:, :, :, :)

    call write_one(name // '_1d', dtype, a(:, 1, 1, 1))
    call write_one(name // '_2d', dtype, a(:, :, 1, 1))
    call write_one(name // '_3d', dtype, a(:, :, :, 1))
    call write_one(name // '_4d', dtype, a)
    call write_one(name // '_section', dtype, a(2, :, :, 1))
  end subroutine write_ranks

  subroutine write_one(name, dtype, a)
    character(len=*), intent(in) :: name, dtype
    class(*), intent(in), target :: a(..)
    type(zarr_array) :: array

    call zarr_create(array, trim(dir) // '/' // name, metadata(dtype, shape(a), 'null'))
    call zarr_write(array, a)
    call zarr_close(array)
  end subroutine write_one

  !> int32 a(1:3, 1:4, 1, 1) written at start (2, 3) of a Fortran 5 x 6
  !> array (Zarr shape [6, 5]) filled with -1.
  subroutine write_offset_block()
    type(zarr_array) :: array

    call zarr_create(array, trim(dir) // '/int32_offset', metadata('<i4', [5, 6], '-1'))
    call zarr_write(array, int(f(:, :, 1, 1), int32), start=[2_int64, 3_int64])
    call zarr_close(array)
  end subroutine write_offset_block

  !> A .zarray document: the Zarr shape is the Fortran shape reversed;
  !> chunks of 2 along every axis make every array span several chunks.
  function metadata(dtype, fortran_shape, fill_value) result(json)
    character(len=*), intent(in) :: dtype
    integer, intent(in) :: fortran_shape(:)
    character(len=*), intent(in) :: fill_value
    character(len=:), allocatable :: json, zarr_shape, chunks
    integer :: d

    zarr_shape = itoa(fortran_shape(size(fortran_shape)))
    chunks = '2'
    do d = size(fortran_shape) - 1, 1, -1
      zarr_shape = zarr_shape // ', ' // itoa(fortran_shape(d))
      chunks = chunks // ', 2'
    end do
    json = '{"shape": [' // zarr_shape // '], "chunks": [' // chunks // '], "dtype": "' // dtype // &
           '", "compressor": {"id": "zlib", "level": 1}, "fill_value": ' // fill_value // '}'
  end function metadata

  function itoa(n) result(text)
    integer, intent(in) :: n
    character(len=:), allocatable :: text
    character(len=12) :: buffer

    write (buffer, '(i0)') n
    text = trim(buffer)
  end function itoa
end program write_for_python
