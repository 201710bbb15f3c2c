!> libzarr for Fortran: open and create Zarr arrays, and read and write them
!> from Fortran arrays of any supported type and of rank 0 to 7.
!>
!> Dimension order (as netCDF-Fortran and Zarr.jl do it): a Fortran array's
!> dimensions are the Zarr shape REVERSED. A Fortran a(nx, ny, nz) is the Zarr
!> (and zarr-python, C) shape [nz, ny, nx], and a(i, j, k) is element
!> [k-1, j-1, i-1] there. Memory is then identical (Fortran's first index
!> varies fastest, Zarr's last), so arrays move without a copy; `start` is
!> 1-based and in Fortran order too. A start longer than the Fortran array's
!> rank reads or writes a slab: one element along each extra dimension.
!>
!> Arrays go to libzarr as their address plus one byte stride per dimension
!> (zarr_read_region_strided / zarr_write_region_strided), so non-contiguous
!> sections such as a(1:n:2, :) are read and written in place, without the
!> temporary copy a contiguous dummy argument would make.
!>
!> Element types: integer(int8/int16/int32/int64) (for intN and uintN arrays:
!> Fortran has no unsigned integers, the bits are kept), real(real32/real64),
!> complex(real32/real64) (complex64/complex128) and logical(c_bool) (bool:
!> one byte). Other types, and a type that does not match the array's, are
!> ZARR_ERR_INVALID_ARGUMENT; zarr_read_as and zarr_write_as convert between
!> the array's numeric type and the Fortran elements' instead
!> (zarr_read_region_as: a real(real64) array reads any numeric array).
!>
!> Errors: every procedure that can fail takes an optional `status`. With it,
!> status is ZARR_OK or a ZARR_ERR_* code and zarr_error_message() says why;
!> without it, a failure prints the message and stops the program.
module zarr
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: int8, int16, int32, int64, real32, real64, error_unit
  implicit none
  private

  public :: zarr_array
  public :: zarr_open, zarr_create, zarr_close, zarr_read, zarr_write, zarr_read_as, zarr_write_as
  public :: zarr_create_from_desc
  public :: zarr_read_step, zarr_write_step, zarr_read_points, zarr_write_points
  public :: zarr_ndim, zarr_shape, zarr_data_type, zarr_get_attributes, zarr_set_attributes
  public :: zarr_error_message, zarr_status_name

  ! Status codes, as in zarr.h (bindings/check_declarations.py keeps them equal).
  integer, parameter, public :: ZARR_OK = 0
  integer, parameter, public :: ZARR_ERR_INVALID_ARGUMENT = -1
  integer, parameter, public :: ZARR_ERR_NOT_FOUND = -2
  integer, parameter, public :: ZARR_ERR_EXISTS = -3
  integer, parameter, public :: ZARR_ERR_INVALID_METADATA = -4
  integer, parameter, public :: ZARR_ERR_UNSUPPORTED = -5
  integer, parameter, public :: ZARR_ERR_CODEC = -6
  integer, parameter, public :: ZARR_ERR_IO = -7
  integer, parameter, public :: ZARR_ERR_OUT_OF_BOUNDS = -8
  integer, parameter, public :: ZARR_ERR_READ_ONLY = -9
  integer, parameter, public :: ZARR_ERR_NO_MEMORY = -10
  integer, parameter, public :: ZARR_ERR_BUFFER_SIZE = -11
  integer, parameter, public :: ZARR_ERR_INTERNAL = -12
  integer, parameter, public :: ZARR_ERR_RANGE = -13

  !> An open array. Close it with zarr_close.
  type :: zarr_array
    private
    type(c_ptr) :: handle = c_null_ptr
  end type zarr_array

  !> A region as libzarr takes it: Zarr order, 0-based, byte strides.
  type :: region
    integer(c_int64_t), allocatable :: start(:), count(:), strides(:)
    type(c_ptr) :: base = c_null_ptr
    integer(c_size_t) :: nbytes = 0
    integer(c_int64_t) :: item_size = 0
  end type region

  !> zarr.h's zarr_array_desc, version 2 (ZARR_ARRAY_DESC_VERSION): the C
  !> layout, filled by zarr_create_from_desc. Version 2 added chunk_edges and
  !> chunk_edge_counts (a rectilinear grid; null: regular).
  integer(c_int32_t), parameter :: ZARR_ARRAY_DESC_VERSION = 2
  type, bind(C) :: zarr_array_desc_c
    integer(c_int32_t) :: version = ZARR_ARRAY_DESC_VERSION
    integer(c_int) :: format = 0  ! zarr_format (the name would read as a ZARR_ constant)
    type(c_ptr) :: data_type = c_null_ptr
    integer(c_size_t) :: ndim = 0
    type(c_ptr) :: shape = c_null_ptr, chunk_shape = c_null_ptr, shard_shape = c_null_ptr
    type(c_ptr) :: compressor = c_null_ptr, fill_value = c_null_ptr, dimension_names = c_null_ptr
    character(kind=c_char) :: order = c_null_char
    type(c_ptr) :: chunk_edges = c_null_ptr, chunk_edge_counts = c_null_ptr
  end type zarr_array_desc_c

  !> The message of this thread's last failure (the binding's own checks
  !> have no libzarr message, so every failure records one here).
  character(len=:), allocatable :: last_message
  !$omp threadprivate(last_message)

  interface
    integer(c_int) function c_zarr_open(out, url, mode) bind(C, name='zarr_open')
      import :: c_int, c_ptr, c_char
      type(c_ptr), intent(out) :: out
      character(kind=c_char), intent(in) :: url(*), mode(*)
    end function c_zarr_open

    integer(c_int) function c_zarr_create(out, url, metadata_json) bind(C, name='zarr_create')
      import :: c_int, c_ptr, c_char
      type(c_ptr), intent(out) :: out
      character(kind=c_char), intent(in) :: url(*), metadata_json(*)
    end function c_zarr_create

    integer(c_int) function c_zarr_create_from_desc(out, url, desc, options_json) bind(C, name='zarr_create_from_desc')
      import :: c_int, c_ptr, c_char
      type(c_ptr), intent(out) :: out
      character(kind=c_char), intent(in) :: url(*)
      type(c_ptr), value :: desc, options_json
    end function c_zarr_create_from_desc

    integer(c_int) function c_zarr_close(array) bind(C, name='zarr_close')
      import :: c_int, c_ptr
      type(c_ptr), value :: array
    end function c_zarr_close

    integer(c_size_t) function c_zarr_ndim(array) bind(C, name='zarr_ndim')
      import :: c_size_t, c_ptr
      type(c_ptr), value :: array
    end function c_zarr_ndim

    integer(c_int) function c_zarr_shape(array, shape) bind(C, name='zarr_shape')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: array
      integer(c_int64_t), intent(out) :: shape(*)
    end function c_zarr_shape

    type(c_ptr) function c_zarr_data_type(array) bind(C, name='zarr_data_type')
      import :: c_ptr
      type(c_ptr), value :: array
    end function c_zarr_data_type

    integer(c_int) function c_zarr_read_region_strided(array, ndim, start, count, byte_strides, out, nbytes) &
        bind(C, name='zarr_read_region_strided')
      import :: c_int, c_ptr, c_size_t, c_int64_t
      type(c_ptr), value :: array
      integer(c_size_t), value :: ndim
      integer(c_int64_t), intent(in) :: start(*), count(*), byte_strides(*)
      type(c_ptr), value :: out
      integer(c_size_t), value :: nbytes
    end function c_zarr_read_region_strided

    integer(c_int) function c_zarr_write_region_strided(array, ndim, start, count, byte_strides, data, nbytes) &
        bind(C, name='zarr_write_region_strided')
      import :: c_int, c_ptr, c_size_t, c_int64_t
      type(c_ptr), value :: array
      integer(c_size_t), value :: ndim
      integer(c_int64_t), intent(in) :: start(*), count(*), byte_strides(*)
      type(c_ptr), value :: data
      integer(c_size_t), value :: nbytes
    end function c_zarr_write_region_strided

    integer(c_int) function c_zarr_read_region_as(array, ndim, start, count, data_type, out, nbytes) &
        bind(C, name='zarr_read_region_as')
      import :: c_int, c_ptr, c_size_t, c_int64_t, c_char
      type(c_ptr), value :: array
      integer(c_size_t), value :: ndim
      integer(c_int64_t), intent(in) :: start(*), count(*)
      character(kind=c_char), intent(in) :: data_type(*)
      type(c_ptr), value :: out
      integer(c_size_t), value :: nbytes
    end function c_zarr_read_region_as

    integer(c_int) function c_zarr_write_region_as(array, ndim, start, count, data_type, data, nbytes) &
        bind(C, name='zarr_write_region_as')
      import :: c_int, c_ptr, c_size_t, c_int64_t, c_char
      type(c_ptr), value :: array
      integer(c_size_t), value :: ndim
      integer(c_int64_t), intent(in) :: start(*), count(*)
      character(kind=c_char), intent(in) :: data_type(*)
      type(c_ptr), value :: data
      integer(c_size_t), value :: nbytes
    end function c_zarr_write_region_as

    integer(c_int) function c_zarr_read_region_step(array, ndim, start, count, step, out, nbytes) &
        bind(C, name='zarr_read_region_step')
      import :: c_int, c_ptr, c_size_t, c_int64_t
      type(c_ptr), value :: array
      integer(c_size_t), value :: ndim
      integer(c_int64_t), intent(in) :: start(*), count(*), step(*)
      type(c_ptr), value :: out
      integer(c_size_t), value :: nbytes
    end function c_zarr_read_region_step

    integer(c_int) function c_zarr_write_region_step(array, ndim, start, count, step, data, nbytes) &
        bind(C, name='zarr_write_region_step')
      import :: c_int, c_ptr, c_size_t, c_int64_t
      type(c_ptr), value :: array
      integer(c_size_t), value :: ndim
      integer(c_int64_t), intent(in) :: start(*), count(*), step(*)
      type(c_ptr), value :: data
      integer(c_size_t), value :: nbytes
    end function c_zarr_write_region_step

    integer(c_int) function c_zarr_read_points(array, ndim, npoints, coords, out, nbytes) &
        bind(C, name='zarr_read_points')
      import :: c_int, c_ptr, c_size_t, c_int64_t
      type(c_ptr), value :: array
      integer(c_size_t), value :: ndim
      integer(c_int64_t), value :: npoints
      integer(c_int64_t), intent(in) :: coords(*)
      type(c_ptr), value :: out
      integer(c_size_t), value :: nbytes
    end function c_zarr_read_points

    integer(c_int) function c_zarr_write_points(array, ndim, npoints, coords, data, nbytes) &
        bind(C, name='zarr_write_points')
      import :: c_int, c_ptr, c_size_t, c_int64_t
      type(c_ptr), value :: array
      integer(c_size_t), value :: ndim
      integer(c_int64_t), value :: npoints
      integer(c_int64_t), intent(in) :: coords(*)
      type(c_ptr), value :: data
      integer(c_size_t), value :: nbytes
    end function c_zarr_write_points

    integer(c_int) function c_zarr_get_attributes(array, json_out) bind(C, name='zarr_get_attributes')
      import :: c_int, c_ptr
      type(c_ptr), value :: array
      type(c_ptr), intent(out) :: json_out
    end function c_zarr_get_attributes

    integer(c_int) function c_zarr_set_attributes(array, json) bind(C, name='zarr_set_attributes')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: array
      character(kind=c_char), intent(in) :: json(*)
    end function c_zarr_set_attributes

    type(c_ptr) function c_zarr_last_error() bind(C, name='zarr_last_error')
      import :: c_ptr
    end function c_zarr_last_error

    type(c_ptr) function c_zarr_status_name(status) bind(C, name='zarr_status_name')
      import :: c_ptr, c_int
      integer(c_int), value :: status
    end function c_zarr_status_name

    subroutine c_zarr_free(p) bind(C, name='zarr_free')
      import :: c_ptr
      type(c_ptr), value :: p
    end subroutine c_zarr_free

    integer(c_size_t) function c_strlen(s) bind(C, name='strlen')
      import :: c_size_t, c_ptr
      type(c_ptr), value :: s
    end function c_strlen
  end interface

contains

  ! --------------------------------------------------------------------------
  ! Opening and closing
  ! --------------------------------------------------------------------------

  !> Open the array at url (a path, file:// or memory:// URL). mode is 'r'
  !> (the default) or 'r+'.
  subroutine zarr_open(array, url, mode, status)
    type(zarr_array), intent(out) :: array
    character(len=*), intent(in) :: url
    character(len=*), intent(in), optional :: mode
    integer, intent(out), optional :: status
    character(len=:), allocatable :: how

    how = 'r'
    if (present(mode)) how = mode
    call finish(from_c(c_zarr_open(array%handle, c_text(url), c_text(how))), 'zarr_open ' // url, status)
  end subroutine zarr_open

  !> Create an array from a Zarr v2 .zarray or v3 zarr.json document (JSON
  !> text, Zarr order) and open it read-write.
  subroutine zarr_create(array, url, metadata_json, status)
    type(zarr_array), intent(out) :: array
    character(len=*), intent(in) :: url, metadata_json
    integer, intent(out), optional :: status

    call finish(from_c(c_zarr_create(array%handle, c_text(url), c_text(metadata_json))), 'zarr_create ' // url, status)
  end subroutine zarr_create

  !> Create an array from a description, with no JSON to write (zarr.h's
  !> zarr_create_from_desc; docs/c-api.md lists every default), and open it
  !> read-write. shape, chunk_shape, shard_shape and dimension_names are in
  !> Fortran order (reversed into the Zarr order, as everywhere here).
  !> data_type is a v3 name ("float64") or a NumPy typestr; zarr_format 2 or
  !> 3 (default 3: zstd level 0); compressor a codec's JSON ('' for none);
  !> fill_value a JSON value. Without chunk_shape, it is chosen as
  !> zarr_open_spec chooses; with shard_shape (v3), chunk_shape gives the
  !> inner chunks.
  subroutine zarr_create_from_desc(array, url, data_type, shape, chunk_shape, shard_shape, zarr_format, &
                                   compressor, fill_value, dimension_names, status)
    type(zarr_array), intent(out) :: array
    character(len=*), intent(in) :: url, data_type
    integer(int64), intent(in) :: shape(:)
    integer(int64), intent(in), optional :: chunk_shape(:), shard_shape(:)
    integer, intent(in), optional :: zarr_format
    character(len=*), intent(in), optional :: compressor, fill_value
    character(len=*), intent(in), optional :: dimension_names(:)
    integer, intent(out), optional :: status
    type(zarr_array_desc_c), target :: desc
    integer(c_int64_t), allocatable, target :: zarr_shape(:), zarr_chunks(:), zarr_shards(:)
    character(kind=c_char, len=:), allocatable, target :: type_c, compressor_c, fill_c
    character(kind=c_char), allocatable, target :: names_c(:, :)  ! (characters + NUL, name)
    type(c_ptr), allocatable, target :: name_ptrs(:)
    character(len=:), allocatable :: name
    integer :: i, j, n, code

    code = ZARR_OK
    type_c = c_text(data_type)
    desc%data_type = address_of(type_c)
    desc%ndim = size(shape, kind=c_size_t)
    zarr_shape = reverse(shape)
    if (size(shape) > 0) desc%shape = c_loc(zarr_shape)
    if (present(chunk_shape)) then
      if (size(chunk_shape) /= size(shape)) code = fail(ZARR_ERR_INVALID_ARGUMENT, 'chunk_shape: not one extent per dimension')
      zarr_chunks = reverse(chunk_shape)
      if (size(zarr_chunks) > 0) desc%chunk_shape = c_loc(zarr_chunks)
    end if
    if (present(shard_shape)) then
      if (size(shard_shape) /= size(shape)) code = fail(ZARR_ERR_INVALID_ARGUMENT, 'shard_shape: not one extent per dimension')
      zarr_shards = reverse(shard_shape)
      if (size(zarr_shards) > 0) desc%shard_shape = c_loc(zarr_shards)
    end if
    if (present(zarr_format)) desc%format = int(zarr_format, c_int)
    if (present(compressor)) then
      compressor_c = c_text(compressor)
      desc%compressor = address_of(compressor_c)
    end if
    if (present(fill_value)) then
      fill_c = c_text(fill_value)
      desc%fill_value = address_of(fill_c)
    end if
    if (present(dimension_names)) then
      if (size(dimension_names) /= size(shape)) code = fail(ZARR_ERR_INVALID_ARGUMENT, &
                                                            'dimension_names: not one name per dimension')
      n = size(dimension_names)
      allocate (names_c(len(dimension_names) + 1, n), name_ptrs(n))
      names_c = c_null_char
      do i = 1, n
        name = dimension_names(n + 1 - i)  ! Zarr order
        do j = 1, len_trim(name)
          names_c(j, i) = name(j:j)
        end do
        name_ptrs(i) = c_loc(names_c(1, i))
      end do
      if (size(name_ptrs) > 0) desc%dimension_names = c_loc(name_ptrs)
    end if
    if (code == ZARR_OK) code = from_c(c_zarr_create_from_desc(array%handle, c_text(url), c_loc(desc), c_null_ptr))
    call finish(code, 'zarr_create_from_desc ' // url, status)
  end subroutine zarr_create_from_desc

  !> Close the handle; closing a closed or never opened one is fine.
  subroutine zarr_close(array)
    type(zarr_array), intent(inout) :: array
    integer(c_int) :: ignored

    ignored = c_zarr_close(array%handle)  ! always ZARR_OK
    array%handle = c_null_ptr
  end subroutine zarr_close

  ! --------------------------------------------------------------------------
  ! Describing
  ! --------------------------------------------------------------------------

  !> Number of dimensions (0 for a handle that is not open).
  integer function zarr_ndim(array)
    type(zarr_array), intent(in) :: array

    zarr_ndim = int(c_zarr_ndim(array%handle))
  end function zarr_ndim

  !> The shape in Fortran order: the Zarr shape reversed, so that
  !> allocate(a(s(1), s(2), ...)) holds the whole array.
  function zarr_shape(array) result(shape)
    type(zarr_array), intent(in) :: array
    integer(int64), allocatable :: shape(:)
    integer(c_int64_t), allocatable :: zarr_order(:)

    allocate (zarr_order(zarr_ndim(array)))
    zarr_order = 0
    if (size(zarr_order) > 0) call finish(from_c(c_zarr_shape(array%handle, zarr_order)), 'zarr_shape')
    shape = reverse(zarr_order)
  end function zarr_shape

  !> The data type: "int16", "float64", "bool", "complex64", ... (the v2
  !> dtype JSON for types without a v3 name).
  function zarr_data_type(array) result(name)
    type(zarr_array), intent(in) :: array
    character(len=:), allocatable :: name

    name = f_text(c_zarr_data_type(array%handle))
  end function zarr_data_type

  !> The attributes as a JSON object.
  subroutine zarr_get_attributes(array, json, status)
    type(zarr_array), intent(in) :: array
    character(len=:), allocatable, intent(out) :: json
    integer, intent(out), optional :: status
    type(c_ptr) :: text
    integer :: code

    code = from_c(c_zarr_get_attributes(array%handle, text))
    json = ''
    if (code == ZARR_OK) then
      json = f_text(text)
      call c_zarr_free(text)
    end if
    call finish(code, 'zarr_get_attributes', status)
  end subroutine zarr_get_attributes

  !> Replace the attributes with a JSON object.
  subroutine zarr_set_attributes(array, json, status)
    type(zarr_array), intent(in) :: array
    character(len=*), intent(in) :: json
    integer, intent(out), optional :: status

    call finish(from_c(c_zarr_set_attributes(array%handle, c_text(json))), 'zarr_set_attributes', status)
  end subroutine zarr_set_attributes

  ! --------------------------------------------------------------------------
  ! Reading and writing
  ! --------------------------------------------------------------------------

  !> Read into a (any supported type, rank 0 to 7, contiguous or a section)
  !> the region of shape(a) starting at start (1-based, Fortran order;
  !> default all 1). A start longer than rank(a) reads one element along
  !> each extra dimension: a scalar, or a 2-D slab of a 3-D array.
  subroutine zarr_read(array, a, start, status)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), target, intent(inout) :: a
    integer(int64), intent(in), optional :: start(:)
    integer, intent(out), optional :: status
    type(region) :: r
    integer :: code

    code = describe(array, a, start, r)
    if (code == ZARR_OK) code = from_c(c_zarr_read_region_strided(array%handle, size(r%count, kind=c_size_t), &
                                                                  r%start, r%count, r%strides, r%base, r%nbytes))
    call finish(code, 'zarr_read', status)
  end subroutine zarr_read

  !> Write a (any supported type, rank 0 to 7, contiguous or a section) to
  !> the region of shape(a) starting at start (1-based, Fortran order;
  !> default all 1). A start longer than rank(a) writes one element along
  !> each extra dimension.
  subroutine zarr_write(array, a, start, status)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), target, intent(in) :: a
    integer(int64), intent(in), optional :: start(:)
    integer, intent(out), optional :: status
    type(region) :: r
    integer :: code

    code = describe(array, a, start, r)
    if (code == ZARR_OK) code = from_c(c_zarr_write_region_strided(array%handle, size(r%count, kind=c_size_t), &
                                                                   r%start, r%count, r%strides, r%base, r%nbytes))
    call finish(code, 'zarr_write', status)
  end subroutine zarr_write

  !> zarr_read with every element converted from the array's numeric type
  !> to a's (zarr_read_region_as): a real(real64) array reads any numeric
  !> array, an integer(int16) array a float64 one. Integers are signed here:
  !> integer(int8) is int8. a must be contiguous. A value a's type cannot
  !> hold (NaN or 1e6 into integer(int16)) is ZARR_ERR_RANGE naming it.
  subroutine zarr_read_as(array, a, start, status)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), target, intent(inout) :: a
    integer(int64), intent(in), optional :: start(:)
    integer, intent(out), optional :: status
    type(region) :: r
    character(len=32) :: data_type
    integer :: code

    code = describe_converted(array, a, start, r, data_type)
    if (code == ZARR_OK) code = from_c(c_zarr_read_region_as(array%handle, size(r%count, kind=c_size_t), r%start, &
                                                             r%count, c_text(trim(data_type)), r%base, r%nbytes))
    call finish(code, 'zarr_read_as', status)
  end subroutine zarr_read_as

  !> zarr_write with every element converted from a's type to the array's
  !> (zarr_write_region_as). a must be contiguous. A value the array's type
  !> cannot hold is ZARR_ERR_RANGE naming it, and nothing is written.
  subroutine zarr_write_as(array, a, start, status)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), target, intent(in) :: a
    integer(int64), intent(in), optional :: start(:)
    integer, intent(out), optional :: status
    type(region) :: r
    character(len=32) :: data_type
    integer :: code

    code = describe_converted(array, a, start, r, data_type)
    if (code == ZARR_OK) code = from_c(c_zarr_write_region_as(array%handle, size(r%count, kind=c_size_t), r%start, &
                                                              r%count, c_text(trim(data_type)), r%base, r%nbytes))
    call finish(code, 'zarr_write_as', status)
  end subroutine zarr_write_as

  !> describe for the converting calls: a's own type (not the array's) is
  !> the data type, and a must be contiguous (those calls take no strides).
  !> An empty a names the array's type: nothing moves, libzarr still checks
  !> ndim and bounds.
  integer function describe_converted(array, a, start, r, data_type) result(code)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), target, intent(in) :: a
    integer(int64), intent(in), optional :: start(:)
    type(region), intent(out) :: r
    character(len=*), intent(out) :: data_type

    data_type = zarr_data_type(array)
    code = describe(array, a, start, r, data_type)
    ! Contiguous: the elements span exactly their bytes (no gaps between them).
    if (code == ZARR_OK .and. size(a) > 0 .and. r%nbytes /= product(r%count) * r%item_size) then
      code = fail(ZARR_ERR_INVALID_ARGUMENT, 'converting reads and writes take contiguous arrays only: ' // &
                  'copy the section into one first')
    end if
  end function describe_converted

  !> Read into a (contiguous, any supported type, rank 0 to 7) a strided
  !> hyperslab, as netCDF's nf90_get_var with stride: along each Fortran
  !> dimension k, size(a, k) elements from start(k) (1-based, default 1),
  !> every step(k)-th (at least 1; default 1). start and step are in Fortran
  !> order and may be longer than rank(a), as for zarr_read. Each chunk
  !> touched is read once (zarr_read_region_step).
  subroutine zarr_read_step(array, a, step, start, status)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), contiguous, target, intent(inout) :: a
    integer(int64), intent(in) :: step(:)
    integer(int64), intent(in), optional :: start(:)
    integer, intent(out), optional :: status
    type(region) :: r
    integer(c_int64_t), allocatable :: zarr_step(:)
    integer :: code

    code = describe_step(array, a, step, start, r, zarr_step)
    if (code == ZARR_OK) code = from_c(c_zarr_read_region_step(array%handle, size(r%count, kind=c_size_t), &
                                                               r%start, r%count, zarr_step, r%base, r%nbytes))
    call finish(code, 'zarr_read_step', status)
  end subroutine zarr_read_step

  !> Write a (contiguous) to the strided hyperslab zarr_read_step reads.
  subroutine zarr_write_step(array, a, step, start, status)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), contiguous, target, intent(in) :: a
    integer(int64), intent(in) :: step(:)
    integer(int64), intent(in), optional :: start(:)
    integer, intent(out), optional :: status
    type(region) :: r
    integer(c_int64_t), allocatable :: zarr_step(:)
    integer :: code

    code = describe_step(array, a, step, start, r, zarr_step)
    if (code == ZARR_OK) code = from_c(c_zarr_write_region_step(array%handle, size(r%count, kind=c_size_t), &
                                                                r%start, r%count, zarr_step, r%base, r%nbytes))
    call finish(code, 'zarr_write_step', status)
  end subroutine zarr_write_step

  !> Read the elements at npoints points into a (contiguous, rank 1, any
  !> supported type): points(:, p) is point p, 1-based, in Fortran order
  !> (size(points, 1) is the array's rank). Each chunk touched is read once
  !> (zarr_read_points).
  subroutine zarr_read_points(array, a, points, status)
    type(zarr_array), intent(in) :: array
    class(*), contiguous, target, intent(inout) :: a(:)
    integer(int64), intent(in) :: points(:, :)
    integer, intent(out), optional :: status
    type(region) :: r
    integer(c_int64_t), allocatable :: coords(:)
    integer :: code

    code = describe_points(array, a, points, r, coords)
    if (code == ZARR_OK) code = from_c(c_zarr_read_points(array%handle, size(points, 1, kind=c_size_t), &
                                                          size(points, 2, kind=c_int64_t), coords, r%base, r%nbytes))
    call finish(code, 'zarr_read_points', status)
  end subroutine zarr_read_points

  !> Write a (contiguous, rank 1) to the points zarr_read_points reads; where
  !> a point is given twice, the later value wins.
  subroutine zarr_write_points(array, a, points, status)
    type(zarr_array), intent(in) :: array
    class(*), contiguous, target, intent(in) :: a(:)
    integer(int64), intent(in) :: points(:, :)
    integer, intent(out), optional :: status
    type(region) :: r
    integer(c_int64_t), allocatable :: coords(:)
    integer :: code

    code = describe_points(array, a, points, r, coords)
    if (code == ZARR_OK) code = from_c(c_zarr_write_points(array%handle, size(points, 1, kind=c_size_t), &
                                                           size(points, 2, kind=c_int64_t), coords, r%base, r%nbytes))
    call finish(code, 'zarr_write_points', status)
  end subroutine zarr_write_points

  !> A strided hyperslab as libzarr takes it: the region a covers (describe;
  !> a is contiguous, so its Fortran order is the hyperslab's C order and
  !> its span the hyperslab's bytes) and the steps in Zarr order.
  integer function describe_step(array, a, step, start, r, zarr_step) result(code)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), contiguous, target, intent(in) :: a
    integer(int64), intent(in) :: step(:)
    integer(int64), intent(in), optional :: start(:)
    type(region), intent(out) :: r
    integer(c_int64_t), allocatable, intent(out) :: zarr_step(:)

    code = describe(array, a, start, r)
    if (code /= ZARR_OK) return
    if (size(step) /= size(r%count)) then
      code = fail(ZARR_ERR_INVALID_ARGUMENT, 'step has ' // itoa(size(step)) // ' entries for a region of ' // &
                  itoa(size(r%count)) // ' dimensions')
      return
    end if
    zarr_step = reverse(step)
  end function describe_step

  !> Points as libzarr takes them: 0-based, Zarr order, point after point;
  !> a's address and bytes (describe, which checks its element type).
  integer function describe_points(array, a, points, r, coords) result(code)
    type(zarr_array), intent(in) :: array
    class(*), contiguous, target, intent(in) :: a(:)
    integer(int64), intent(in) :: points(:, :)
    type(region), intent(out) :: r
    integer(c_int64_t), allocatable, intent(out) :: coords(:)

    if (size(points, 2) /= size(a)) then
      code = fail(ZARR_ERR_INVALID_ARGUMENT, itoa(int(size(points, 2))) // ' points for ' // itoa(int(size(a))) // &
                  ' elements')
      return
    end if
    if (any(points < 1)) then
      code = fail(ZARR_ERR_INVALID_ARGUMENT, 'points are 1-based: every entry must be at least 1')
      return
    end if
    code = describe(array, a, r=r)
    if (code /= ZARR_OK) return
    coords = reshape(points(size(points, 1):1:-1, :) - 1, [size(points)])
  end function describe_points

  !> The region a covers, in libzarr's terms; checks a's element type
  !> against the array's data type.
  !> With data_type: a's elements are converted, so their type is not
  !> checked against the array's but named in data_type instead.
  integer function describe(array, a, start, r, data_type) result(code)
    type(zarr_array), intent(in) :: array
    class(*), dimension(..), target, intent(in) :: a
    integer(int64), intent(in), optional :: start(:)
    type(region), intent(out) :: r
    character(len=*), intent(inout), optional :: data_type  ! a fixed-length name, blank-padded
    integer(int64) :: second(rank(a))  ! index of each dimension's second element (1 when there is none)
    type(c_ptr) :: next(rank(a))       ! address of the element one step along each dimension

    code = region_extent(shape(a, kind=int64), start, r)
    if (code /= ZARR_OK .or. size(a) == 0) return  ! nothing moves; libzarr still checks ndim and bounds

    second = min(2_int64, shape(a, kind=int64))
    select rank (a)
    rank (0)
      code = element_layout(array, a, next, r, data_type)
    rank (1)
      next = [address_of(a(second(1)))]
      code = element_layout(array, a(1), next, r, data_type)
    rank (2)
      next = [address_of(a(second(1), 1)), address_of(a(1, second(2)))]
      code = element_layout(array, a(1, 1), next, r, data_type)
    rank (3)
      next = [address_of(a(second(1), 1, 1)), address_of(a(1, second(2), 1)), address_of(a(1, 1, second(3)))]
      code = element_layout(array, a(1, 1, 1), next, r, data_type)
    rank (4)
      next = [address_of(a(second(1), 1, 1, 1)), address_of(a(1, second(2), 1, 1)), &
              address_of(a(1, 1, second(3), 1)), address_of(a(1, 1, 1, second(4)))]
      code = element_layout(array, a(1, 1, 1, 1), next, r, data_type)
    rank (5)
      next = [address_of(a(second(1), 1, 1, 1, 1)), address_of(a(1, second(2), 1, 1, 1)), &
              address_of(a(1, 1, second(3), 1, 1)), address_of(a(1, 1, 1, second(4), 1)), &
              address_of(a(1, 1, 1, 1, second(5)))]
      code = element_layout(array, a(1, 1, 1, 1, 1), next, r, data_type)
    rank (6)
      next = [address_of(a(second(1), 1, 1, 1, 1, 1)), address_of(a(1, second(2), 1, 1, 1, 1)), &
              address_of(a(1, 1, second(3), 1, 1, 1)), address_of(a(1, 1, 1, second(4), 1, 1)), &
              address_of(a(1, 1, 1, 1, second(5), 1)), address_of(a(1, 1, 1, 1, 1, second(6)))]
      code = element_layout(array, a(1, 1, 1, 1, 1, 1), next, r, data_type)
    rank (7)
      next = [address_of(a(second(1), 1, 1, 1, 1, 1, 1)), address_of(a(1, second(2), 1, 1, 1, 1, 1)), &
              address_of(a(1, 1, second(3), 1, 1, 1, 1)), address_of(a(1, 1, 1, second(4), 1, 1, 1)), &
              address_of(a(1, 1, 1, 1, second(5), 1, 1)), address_of(a(1, 1, 1, 1, 1, second(6), 1)), &
              address_of(a(1, 1, 1, 1, 1, 1, second(7)))]
      code = element_layout(array, a(1, 1, 1, 1, 1, 1, 1), next, r, data_type)
    rank default
      code = fail(ZARR_ERR_INVALID_ARGUMENT, 'arrays of rank ' // itoa(rank(a)) // ' are not supported (0 to 7 are)')
    end select
  end function describe

  !> start and count in Zarr order from a's shape and the 1-based Fortran
  !> start; strides 0. A start longer than a's rank takes one element along
  !> each extra (trailing Fortran) dimension: a scalar is one element, a
  !> rank-2 array one 2-D slab of a 3-D array.
  integer function region_extent(fortran_shape, start, r) result(code)
    integer(int64), intent(in) :: fortran_shape(:)
    integer(int64), intent(in), optional :: start(:)
    type(region), intent(inout) :: r
    integer :: ndim

    code = ZARR_OK
    ndim = size(fortran_shape)
    if (present(start)) then
      if (size(start) < ndim) then
        code = fail(ZARR_ERR_INVALID_ARGUMENT, 'start has ' // itoa(size(start)) // ' entries for a rank-' // &
                    itoa(ndim) // ' Fortran array')
        return
      end if
      if (any(start < 1)) then
        code = fail(ZARR_ERR_INVALID_ARGUMENT, 'start is 1-based: every entry must be at least 1')
        return
      end if
      ndim = size(start)
      r%start = reverse(start - 1)
    else
      allocate (r%start(ndim), source=0_c_int64_t)
    end if
    r%count = reverse([fortran_shape, spread(1_int64, 1, ndim - size(fortran_shape))])
    allocate (r%strides(ndim), source=0_c_int64_t)
  end function region_extent

  !> Base address, byte strides (Zarr order) and byte span of a region
  !> whose first element is first and whose next element along each Fortran
  !> dimension is at next(k); checks first's type against the array's.
  integer function element_layout(array, first, next, r, data_type) result(code)
    type(zarr_array), intent(in) :: array
    class(*), target, intent(in) :: first
    type(c_ptr), intent(in) :: next(:)
    type(region), intent(inout) :: r
    character(len=*), intent(inout), optional :: data_type  ! a fixed-length name, blank-padded
    integer(c_int64_t) :: strides(size(next)), item_size
    character(len=:), allocatable :: accepted
    integer :: k

    if (present(data_type)) then
      code = element_type(first, accepted, item_size)
      if (code == ZARR_OK) data_type = accepted(1:index(accepted // ' ', ' ') - 1)  ! int8 of 'int8 uint8'
    else
      code = check_element_type(array, first, item_size)
    end if
    if (code /= ZARR_OK) return
    r%base = address_of(first)
    strides = [(byte_distance(r%base, next(k)), k = 1, size(next))]
    if (any(strides < 0)) then
      code = fail(ZARR_ERR_INVALID_ARGUMENT, 'sections with negative strides (such as a(n:1:-1)) are not ' // &
                  'supported: the first element must be at the lowest address')
      return
    end if
    ! a's dimensions are the last of the Zarr order; the extra ones (count 1) keep stride 0.
    r%strides(size(r%strides) - size(strides) + 1:) = reverse(strides)
    r%nbytes = int(sum((r%count - 1) * r%strides) + item_size, c_size_t)
    r%item_size = item_size
  end function element_layout

  !> ZARR_OK when x's Fortran type holds the array's data type; sets its size.
  integer function check_element_type(array, x, item_size) result(code)
    type(zarr_array), intent(in) :: array
    class(*), intent(in) :: x
    integer(c_int64_t), intent(out) :: item_size
    character(len=:), allocatable :: accepted, data_type

    code = element_type(x, accepted, item_size)
    if (code /= ZARR_OK) return
    data_type = zarr_data_type(array)
    if (c_associated(array%handle) .and. index(' ' // accepted // ' ', ' ' // data_type // ' ') == 0) then
      code = fail(ZARR_ERR_INVALID_ARGUMENT, 'the array holds ' // data_type // ' but the Fortran elements hold ' // &
                  accepted)
    end if
  end function check_element_type

  !> The Zarr data types x's Fortran type holds ('int8 uint8', 'float64')
  !> and its size; ZARR_ERR_INVALID_ARGUMENT for other types.
  integer function element_type(x, accepted, item_size) result(code)
    class(*), intent(in) :: x
    character(len=:), allocatable, intent(out) :: accepted
    integer(c_int64_t), intent(out) :: item_size

    item_size = 0
    select type (x)
    type is (integer(int8))
      accepted = 'int8 uint8'
      item_size = 1
    type is (integer(int16))
      accepted = 'int16 uint16'
      item_size = 2
    type is (integer(int32))
      accepted = 'int32 uint32'
      item_size = 4
    type is (integer(int64))
      accepted = 'int64 uint64'
      item_size = 8
    type is (real(real32))
      accepted = 'float32'
      item_size = 4
    type is (real(real64))
      accepted = 'float64'
      item_size = 8
    type is (complex(real32))
      accepted = 'complex64'
      item_size = 8
    type is (complex(real64))
      accepted = 'complex128'
      item_size = 16
    type is (logical(c_bool))
      accepted = 'bool'
      item_size = 1
    type is (logical)
      code = fail(ZARR_ERR_INVALID_ARGUMENT, 'default logical elements are ' // itoa(int(storage_size(x) / 8)) // &
                  ' bytes and Zarr bool is 1: use logical(c_bool) arrays')
      return
    class default
      code = fail(ZARR_ERR_INVALID_ARGUMENT, 'unsupported element type: use integer, real, complex or ' // &
                  'logical(c_bool) arrays')
      return
    end select
    code = ZARR_OK
  end function element_type

  ! --------------------------------------------------------------------------
  ! Errors
  ! --------------------------------------------------------------------------

  !> Why the last failing call on this thread failed.
  function zarr_error_message() result(message)
    character(len=:), allocatable :: message

    message = ''
    if (allocated(last_message)) message = last_message
  end function zarr_error_message

  !> The constant name of a status code, e.g. "ZARR_ERR_NOT_FOUND".
  function zarr_status_name(status) result(name)
    integer, intent(in) :: status
    character(len=:), allocatable :: name

    name = f_text(c_zarr_status_name(int(status, c_int)))
  end function zarr_status_name

  !> Record libzarr's message when a call failed; returns its status.
  integer function from_c(status)
    integer(c_int), intent(in) :: status

    from_c = int(status)
    if (status /= ZARR_OK) last_message = f_text(c_zarr_last_error())
  end function from_c

  !> Record a failure the binding finds itself; returns code.
  integer function fail(code, message)
    integer, intent(in) :: code
    character(len=*), intent(in) :: message

    fail = code
    last_message = message
  end function fail

  !> Hand code to the caller's status, or stop the program on a failure
  !> when the caller gave none.
  subroutine finish(code, what, status)
    integer, intent(in) :: code
    character(len=*), intent(in) :: what
    integer, intent(out), optional :: status

    if (present(status)) then
      status = code
    else if (code /= ZARR_OK) then
      write (error_unit, '(a)') what // ': ' // zarr_status_name(code) // ': ' // zarr_error_message()
      error stop 1
    end if
  end subroutine finish

  ! --------------------------------------------------------------------------
  ! Helpers
  ! --------------------------------------------------------------------------

  !> Address of any variable (c_loc itself takes no polymorphic argument).
  type(c_ptr) function address_of(x)
    type(*), target, intent(in) :: x

    address_of = c_loc(x)
  end function address_of

  integer(c_int64_t) function byte_distance(from, to)
    type(c_ptr), intent(in) :: from, to

    byte_distance = transfer(to, 0_c_intptr_t) - transfer(from, 0_c_intptr_t)
  end function byte_distance

  pure function reverse(values) result(reversed)
    integer(int64), intent(in) :: values(:)
    integer(int64) :: reversed(size(values))

    reversed = values(size(values):1:-1)
  end function reverse

  !> text, without trailing blanks, as a NUL-terminated C string.
  pure function c_text(text) result(c)
    character(len=*), intent(in) :: text
    character(kind=c_char, len=:), allocatable :: c

    c = trim(text) // c_null_char
  end function c_text

  !> A copy of the C string at p ('' for NULL).
  function f_text(p) result(text)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: text
    character(kind=c_char), pointer :: chars(:)
    integer :: i

    if (.not. c_associated(p)) then
      text = ''
      return
    end if
    call c_f_pointer(p, chars, [c_strlen(p)])
    allocate (character(len=size(chars)) :: text)
    do i = 1, size(chars)
      text(i:i) = chars(i)
    end do
  end function f_text

  pure function itoa(n) result(text)
    integer, intent(in) :: n
    character(len=:), allocatable :: text
    character(len=12) :: buffer

    write (buffer, '(i0)') n
    text = trim(buffer)
  end function itoa
end module zarr
