!> libzarr from Fortran: create a chunked, compressed array on disk, write a
!> Fortran array, read part of it back into a section, and print what the
!> array is.
!>
!>   zarr_demo_fortran [PATH]      (default: ./demo_fortran.zarr; PATH must not exist yet)
!>
!> Build against an installed libzarr (the module comes as source, for your
!> compiler):
!>   gfortran $(pkg-config --variable=fortran_module zarr) demo.f90 \
!>            $(pkg-config --cflags --libs zarr) -o zarr_demo_fortran
program zarr_demo_fortran
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use zarr
  implicit none

  integer, parameter :: nlon = 8, nlat = 6, ntime = 3
  type(zarr_array) :: array
  character(len=4096) :: path
  real(real64) :: temperature(nlon, nlat, ntime), back(nlon, nlat)
  character(len=:), allocatable :: attributes
  integer :: i, j, t

  path = 'demo_fortran.zarr'
  if (command_argument_count() > 0) call get_command_argument(1, path)

  ! Fortran's temperature(lon, lat, time) is the Zarr array [time, lat, lon]:
  ! the dimensions reversed, the memory unchanged (as in netCDF-Fortran).
  call zarr_create(array, trim(path), '{"shape": [3, 6, 8], "chunks": [1, 3, 4], "dtype": "<f8", ' // &
                   '"compressor": {"id": "zlib", "level": 5}, "fill_value": "NaN"}')
  call zarr_set_attributes(array, '{"units": "K", "dimensions": ["time", "lat", "lon"]}')
  do concurrent (i = 1:nlon, j = 1:nlat, t = 1:ntime)
    temperature(i, j, t) = 270.0_real64 + i + 0.1_real64 * j + 10 * t
  end do
  call zarr_write(array, temperature)
  call zarr_close(array)

  ! Reopen read-only and read time step 2: a 2-D slab of the 3-D array (start
  ! has one more entry than back has dimensions).
  call zarr_open(array, trim(path), 'r')
  call zarr_read(array, back, start=[1_int64, 1_int64, 2_int64])
  call zarr_get_attributes(array, attributes)

  print '(a, a)', 'array      : ', trim(path)
  print '(a, a)', 'data type  : ', zarr_data_type(array)
  print '(a, *(i0, :, ", "))', 'shape (Fortran order): ', zarr_shape(array)
  print '(a, a)', 'attributes : ', attributes
  print '(a)', 'time step 2, lat 1, every longitude:'
  print '(8f8.1)', back(:, 1)
  call zarr_close(array)

  if (all(back == temperature(:, :, 2))) then
    print '(a)', 'round trip OK'
  else
    print '(a)', 'round trip MISMATCH'
    error stop 1
  end if
end program zarr_demo_fortran
