!> The Fortran binding in one process (memory:// stores): every element type,
!> ranks 0 to 7 with the reversed dimension order, sections in place, start
!> offsets, and every error path. One GoogleTest-style line per check.
program test_zarr_fortran
  use, intrinsic :: iso_c_binding, only: c_bool
  use, intrinsic :: iso_fortran_env, only: int8, int16, int32, int64, real32, real64
  use zarr
  implicit none

  integer :: checks = 0, failures = 0

  call every_element_type_round_trips()
  call ranks_zero_to_four_reverse_the_zarr_shape()
  call ranks_five_to_seven_round_trip()
  call start_is_one_based_in_fortran_order()
  call sections_are_read_and_written_in_place()
  call integers_hold_unsigned_arrays_bit_for_bit()
  call attributes_are_json_objects()
  call errors_carry_code_and_message()
  call type_mismatches_are_invalid_arguments()
  call converting_reads_and_writes()
  call arrays_are_created_from_a_description()
  call steps_and_points_read_and_write_in_fortran_order()

  print '(a, i0, a)', '[==========] ', checks, ' tests ran.'
  print '(a, i0, a)', '[  PASSED  ] ', checks - failures, ' tests.'
  if (failures > 0) then
    print '(a, i0, a)', '[  FAILED  ] ', failures, ' tests.'
    error stop 1
  end if

contains

  subroutine check(name, passed, detail)
    character(len=*), intent(in) :: name
    logical, intent(in) :: passed
    character(len=*), intent(in), optional :: detail

    checks = checks + 1
    if (passed) then
      print '(2a)', '[       OK ] fortran.', name
    else
      failures = failures + 1
      print '(2a)', '[  FAILED  ] fortran.', name
      if (present(detail)) print '(2a)', '    ', detail
    end if
  end subroutine check

  logical function same(a, b)
    integer(int64), intent(in) :: a(:), b(:)

    same = size(a) == size(b)
    if (same) same = all(a == b)
  end function same

  !> A v3 array of data_type with the given Zarr shape, chunks of 2 per axis.
  subroutine create_v3(array, url, data_type, zarr_shape_text, chunks_text)
    type(zarr_array), intent(out) :: array
    character(len=*), intent(in) :: url, data_type, zarr_shape_text, chunks_text

    call zarr_create(array, url, '{"zarr_format": 3, "node_type": "array", "shape": ' // zarr_shape_text // &
                     ', "data_type": "' // data_type // '", "chunk_grid": {"name": "regular", ' // &
                     '"configuration": {"chunk_shape": ' // chunks_text // '}}}')
  end subroutine create_v3

  subroutine every_element_type_round_trips()
    type(zarr_array) :: array
    integer(int8) :: i1(3, 2), i1_back(3, 2)
    integer(int16) :: i2(3, 2), i2_back(3, 2)
    integer(int32) :: i4(3, 2), i4_back(3, 2)
    integer(int64) :: i8(3, 2), i8_back(3, 2)
    real(real32) :: r4(3, 2), r4_back(3, 2)
    real(real64) :: r8(3, 2), r8_back(3, 2)
    complex(real32) :: c4(3, 2), c4_back(3, 2)
    complex(real64) :: c8(3, 2), c8_back(3, 2)
    logical(c_bool) :: l(3, 2), l_back(3, 2)

    i1 = reshape(int([-128, -1, 0, 1, 2, 127], int8), [3, 2])
    call create_v3(array, 'memory://f-int8/a', 'int8', '[2, 3]', '[1, 2]')
    call zarr_write(array, i1)
    call zarr_read(array, i1_back)
    call check('int8_round_trips', all(i1_back == i1))
    call zarr_close(array)

    i2 = reshape(int([-32768, -1, 0, 1, 300, 32767], int16), [3, 2])
    call create_v3(array, 'memory://f-int16/a', 'int16', '[2, 3]', '[1, 2]')
    call zarr_write(array, i2)
    call zarr_read(array, i2_back)
    call check('int16_round_trips', all(i2_back == i2))
    call zarr_close(array)

    i4 = reshape([-huge(1_int32) - 1, -1_int32, 0_int32, 1_int32, 70000_int32, huge(1_int32)], [3, 2])
    call create_v3(array, 'memory://f-int32/a', 'int32', '[2, 3]', '[1, 2]')
    call zarr_write(array, i4)
    call zarr_read(array, i4_back)
    call check('int32_round_trips', all(i4_back == i4))
    call zarr_close(array)

    i8 = reshape([-huge(1_int64) - 1, -1_int64, 0_int64, 1_int64, 2_int64**40, huge(1_int64)], [3, 2])
    call create_v3(array, 'memory://f-int64/a', 'int64', '[2, 3]', '[1, 2]')
    call zarr_write(array, i8)
    call zarr_read(array, i8_back)
    call check('int64_round_trips', all(i8_back == i8))
    call zarr_close(array)

    r4 = reshape([-1.5_real32, 0.0_real32, 0.25_real32, 1e-30_real32, 3.5e30_real32, huge(1.0_real32)], [3, 2])
    call create_v3(array, 'memory://f-float32/a', 'float32', '[2, 3]', '[1, 2]')
    call zarr_write(array, r4)
    call zarr_read(array, r4_back)
    call check('float32_round_trips', all(r4_back == r4))
    call zarr_close(array)

    r8 = reshape([-1.5_real64, 0.0_real64, 0.1_real64, 1e-300_real64, 3.5e300_real64, huge(1.0_real64)], [3, 2])
    call create_v3(array, 'memory://f-float64/a', 'float64', '[2, 3]', '[1, 2]')
    call zarr_write(array, r8)
    call zarr_read(array, r8_back)
    call check('float64_round_trips', all(r8_back == r8))
    call zarr_close(array)

    c4 = reshape([(1, -1), (0, 0), (2, 3), (-3, 0), (0, 9), (7, 7)], [3, 2])
    call create_v3(array, 'memory://f-complex64/a', 'complex64', '[2, 3]', '[1, 2]')
    call zarr_write(array, c4)
    call zarr_read(array, c4_back)
    call check('complex64_round_trips', all(c4_back == c4))
    call zarr_close(array)

    c8 = cmplx(c4, kind=real64) * (0.5_real64, 0.25_real64)
    call create_v3(array, 'memory://f-complex128/a', 'complex128', '[2, 3]', '[1, 2]')
    call zarr_write(array, c8)
    call zarr_read(array, c8_back)
    call check('complex128_round_trips', all(c8_back == c8))
    call zarr_close(array)

    l = reshape(logical([.true., .false., .false., .true., .true., .false.], c_bool), [3, 2])
    call create_v3(array, 'memory://f-bool/a', 'bool', '[2, 3]', '[1, 2]')
    call zarr_write(array, l)
    l_back = .false.
    call zarr_read(array, l_back)
    call check('logical_c_bool_round_trips', logical(all(l_back .eqv. l)))
    call zarr_close(array)
  end subroutine every_element_type_round_trips

  !> a(i, j, k) is Zarr element [k-1, j-1, i-1]: checked through a rank-1 read
  !> of the C-order flattening, which must equal Fortran's memory order.
  subroutine ranks_zero_to_four_reverse_the_zarr_shape()
    type(zarr_array) :: array
    real(real64) :: scalar, scalar_back, r1(5), r1_back(5), r2(5, 3), r2_back(5, 3), column(5, 1)
    real(real64) :: r3(4, 3, 2), r3_back(4, 3, 2), r4(3, 2, 2, 2), r4_back(3, 2, 2, 2)
    integer :: i, j, k

    scalar = 2.5
    call zarr_create(array, 'memory://f-rank0/a', '{"shape": [], "dtype": "<f8"}')
    call zarr_write(array, scalar)
    call zarr_read(array, scalar_back)
    call check('rank_0_round_trips', scalar_back == scalar)
    call check('a_0d_array_has_ndim_0', zarr_ndim(array) == 0)
    call zarr_close(array)

    r1 = [(real(i, real64), i = 1, 5)]
    call zarr_create(array, 'memory://f-rank1/a', '{"shape": [5], "chunks": [2], "dtype": "<f8"}')
    call zarr_write(array, r1)
    call zarr_read(array, r1_back)
    call check('rank_1_round_trips', all(r1_back == r1))
    call zarr_close(array)

    r2 = reshape([(real(i, real64), i = 1, 15)], [5, 3])
    call zarr_create(array, 'memory://f-rank2/a', '{"shape": [3, 5], "chunks": [2, 2], "dtype": "<f8"}')
    call zarr_write(array, r2)
    call zarr_read(array, r2_back)
    call check('rank_2_round_trips', all(r2_back == r2))
    call check('zarr_shape_is_in_fortran_order', same(zarr_shape(array), [5_int64, 3_int64]))
    ! Zarr row 1 (0-based), columns 0..4 is Fortran a(1:5, 2).
    call zarr_read(array, column, start=[1_int64, 2_int64])
    call check('a_zarr_row_is_a_fortran_column', all(column(:, 1) == r2(:, 2)))
    call zarr_close(array)

    r3 = reshape([(((100 * i + 10 * j + k, i = 1, 4), j = 1, 3), k = 1, 2)] * 1.0_real64, [4, 3, 2])
    call zarr_create(array, 'memory://f-rank3/a', '{"shape": [2, 3, 4], "chunks": [1, 2, 3], "dtype": "<f8"}')
    call zarr_write(array, r3)
    call zarr_read(array, r3_back)
    call check('rank_3_round_trips', all(r3_back == r3))
    ! Zarr element [1, 2, 3] is Fortran a(4, 3, 2) = 100*4 + 10*3 + 2.
    call zarr_read(array, scalar_back, start=[4_int64, 3_int64, 2_int64])
    call check('rank_3_element_maps_to_reversed_indices', scalar_back == 432.0_real64)
    ! A start longer than the rank: the 2-D slab k = 2, read and written.
    call zarr_read(array, r2_back(1:4, 1:3), start=[1_int64, 1_int64, 2_int64])
    call check('a_2d_slab_of_a_3d_array_is_read', all(r2_back(1:4, 1:3) == r3(:, :, 2)))
    call zarr_write(array, -r3(:, :, 1), start=[1_int64, 1_int64, 2_int64])
    call zarr_read(array, r3_back)
    call check('a_2d_slab_of_a_3d_array_is_written', all(r3_back(:, :, 2) == -r3(:, :, 1)) .and. &
               all(r3_back(:, :, 1) == r3(:, :, 1)))
    call zarr_close(array)

    r4 = reshape([(real(i, real64), i = 1, 24)], [3, 2, 2, 2])
    call zarr_create(array, 'memory://f-rank4/a', '{"shape": [2, 2, 2, 3], "chunks": [1, 2, 1, 2], "dtype": "<f8"}')
    call zarr_write(array, r4)
    call zarr_read(array, r4_back)
    call check('rank_4_round_trips', all(r4_back == r4))
    call zarr_read(array, scalar_back, start=[3_int64, 1_int64, 2_int64, 2_int64])
    call check('rank_4_element_maps_to_reversed_indices', scalar_back == r4(3, 1, 2, 2))
    call zarr_close(array)
  end subroutine ranks_zero_to_four_reverse_the_zarr_shape

  subroutine ranks_five_to_seven_round_trip()
    type(zarr_array) :: array
    integer(int32) :: r5(2, 3, 1, 2, 2), r5_back(2, 3, 1, 2, 2), r6(1, 2, 2, 1, 3, 2), r6_back(1, 2, 2, 1, 3, 2)
    integer(int32) :: r7(2, 1, 2, 1, 2, 1, 3), r7_back(2, 1, 2, 1, 2, 1, 3)
    integer(int32) :: element
    integer :: i

    r5 = reshape([(i, i = 1, size(r5))], shape(r5))
    call zarr_create(array, 'memory://f-rank5/a', '{"shape": [2, 2, 1, 3, 2], "chunks": [1, 2, 1, 2, 1], "dtype": "<i4"}')
    call zarr_write(array, r5)
    call zarr_read(array, r5_back)
    call check('rank_5_round_trips', all(r5_back == r5))
    call zarr_read(array, element, start=[2_int64, 3_int64, 1_int64, 1_int64, 2_int64])
    call check('rank_5_element_maps_to_reversed_indices', element == r5(2, 3, 1, 1, 2))
    call zarr_close(array)

    r6 = reshape([(i, i = 1, size(r6))], shape(r6))
    call zarr_create(array, 'memory://f-rank6/a', '{"shape": [2, 3, 1, 2, 2, 1], "dtype": "<i4"}')
    call zarr_write(array, r6)
    call zarr_read(array, r6_back)
    call check('rank_6_round_trips', all(r6_back == r6))
    call zarr_close(array)

    r7 = reshape([(i, i = 1, size(r7))], shape(r7))
    call zarr_create(array, 'memory://f-rank7/a', '{"shape": [3, 1, 2, 1, 2, 1, 2], "chunks": [2, 1, 1, 1, 2, 1, 1], ' // &
                     '"dtype": "<i4"}')
    call zarr_write(array, r7)
    call zarr_read(array, r7_back)
    call check('rank_7_round_trips', all(r7_back == r7))
    call zarr_read(array, element, start=[1_int64, 1_int64, 2_int64, 1_int64, 1_int64, 1_int64, 3_int64])
    call check('rank_7_element_maps_to_reversed_indices', element == r7(1, 1, 2, 1, 1, 1, 3))
    call zarr_close(array)
  end subroutine ranks_five_to_seven_round_trip

  subroutine start_is_one_based_in_fortran_order()
    type(zarr_array) :: array
    integer(int32) :: patch(2, 3), all_back(4, 5)

    patch = reshape([1, 2, 3, 4, 5, 6], [2, 3])
    call zarr_create(array, 'memory://f-start/a', '{"shape": [5, 4], "chunks": [2, 3], "dtype": "<i4", "fill_value": -1}')
    call zarr_write(array, patch, start=[2_int64, 3_int64])
    call zarr_read(array, all_back)
    call check('start_places_the_patch', all(all_back(2:3, 3:5) == patch))
    call check('start_leaves_the_rest_at_fill', count(all_back == -1) == 20 - 6)
    call zarr_close(array)
  end subroutine start_is_one_based_in_fortran_order

  subroutine sections_are_read_and_written_in_place()
    type(zarr_array) :: array
    integer(int16), target :: big(6, 4), back(6, 4)
    integer(int16) :: dense(3, 2)
    integer :: i

    big = reshape([(int(i, int16), i = 1, 24)], [6, 4])
    call zarr_create(array, 'memory://f-sections/a', '{"shape": [2, 3], "chunks": [2, 2], "dtype": "<i2"}')
    ! Every other row of columns 2 and 4: strides of 2 and 12 elements.
    call zarr_write(array, big(1:6:2, 2:4:2))
    call zarr_read(array, dense)
    call check('a_strided_section_is_written', all(dense == big(1:6:2, 2:4:2)))
    back = 0
    call zarr_read(array, back(2:6:2, 1:3:2))
    call check('a_strided_section_is_read_in_place', all(back(2:6:2, 1:3:2) == dense))
    call check('elements_between_a_section_stay_untouched', count(back /= 0) == 6)
    call zarr_close(array)
  end subroutine sections_are_read_and_written_in_place

  subroutine integers_hold_unsigned_arrays_bit_for_bit()
    type(zarr_array) :: array
    integer(int8) :: bytes(3)

    call zarr_create(array, 'memory://f-unsigned/a', '{"shape": [3], "dtype": "|u1"}')
    call zarr_write(array, int([0, 127, -1], int8))
    call zarr_read(array, bytes)
    call check('uint8_255_is_int8_minus_1', all(bytes == [0_int8, 127_int8, -1_int8]))
    call check('the_data_type_stays_uint8', zarr_data_type(array) == 'uint8')
    call zarr_close(array)
  end subroutine integers_hold_unsigned_arrays_bit_for_bit

  subroutine attributes_are_json_objects()
    type(zarr_array) :: array
    character(len=:), allocatable :: json
    integer :: status

    call zarr_create(array, 'memory://f-attributes/a', '{"shape": [1], "dtype": "<f4"}')
    call zarr_set_attributes(array, '{"units": "K"}')
    call zarr_get_attributes(array, json)
    call check('attributes_round_trip', index(json, '"units"') > 0, json)
    call zarr_set_attributes(array, '[1]', status)
    call check('attributes_must_be_an_object', status == ZARR_ERR_INVALID_METADATA, zarr_error_message())
    call zarr_close(array)
  end subroutine attributes_are_json_objects

  subroutine errors_carry_code_and_message()
    type(zarr_array) :: array, reader
    integer(int32) :: values(4), square(2, 2)
    integer :: status

    call zarr_open(array, 'memory://f-nothing/x', status=status)
    call check('missing_array_is_not_found', status == ZARR_ERR_NOT_FOUND, zarr_error_message())
    call check('a_failure_has_a_message', len(zarr_error_message()) > 0)
    call check('status_names_are_the_constants', zarr_status_name(status) == 'ZARR_ERR_NOT_FOUND')

    call zarr_create(array, 'memory://f-errors/a', '{"shape": [4], "chunks": [0], "dtype": "<i4"}', status)
    call check('bad_metadata_names_the_field', status == ZARR_ERR_INVALID_METADATA .and. &
               index(zarr_error_message(), 'chunks') > 0, zarr_error_message())

    call zarr_create(array, 'memory://f-errors/a', '{"shape": [4], "dtype": "<i4"}')
    call zarr_create(reader, 'memory://f-errors/a', '{"shape": [4], "dtype": "<i4"}', status)
    call check('creating_over_an_array_is_exists', status == ZARR_ERR_EXISTS, zarr_error_message())

    call zarr_open(reader, 'memory://f-errors/a', 'r')
    call zarr_write(reader, values, status=status)
    call check('writing_read_only_is_read_only', status == ZARR_ERR_READ_ONLY, zarr_error_message())
    call zarr_close(reader)

    call zarr_read(array, values, start=[2_int64], status=status)
    call check('a_region_past_the_end_is_out_of_bounds', status == ZARR_ERR_OUT_OF_BOUNDS, zarr_error_message())
    call zarr_read(array, values, start=[0_int64], status=status)
    call check('start_below_1_is_invalid', status == ZARR_ERR_INVALID_ARGUMENT, zarr_error_message())
    call zarr_read(array, square, start=[1_int64], status=status)
    call check('start_shorter_than_the_rank_is_invalid', status == ZARR_ERR_INVALID_ARGUMENT .and. &
               index(zarr_error_message(), 'start has 1 entries for a rank-2') > 0, zarr_error_message())
    call zarr_read(array, values, start=[1_int64, 1_int64], status=status)
    call check('start_longer_than_the_arrays_ndim_is_invalid', status == ZARR_ERR_INVALID_ARGUMENT, &
               zarr_error_message())
    call zarr_read(array, square, status=status)
    call check('a_fortran_rank_other_than_the_arrays_is_invalid', status == ZARR_ERR_INVALID_ARGUMENT, &
               zarr_error_message())
    call zarr_read(array, values(4:1:-1), status=status)
    call check('negative_strides_are_refused', status == ZARR_ERR_INVALID_ARGUMENT .and. &
               index(zarr_error_message(), 'negative strides') > 0, zarr_error_message())
    call zarr_close(array)
    call zarr_close(array)  ! twice is fine
    call zarr_read(array, values, status=status)
    call check('a_closed_handle_is_invalid', status == ZARR_ERR_INVALID_ARGUMENT, zarr_error_message())
  end subroutine errors_carry_code_and_message

  !> zarr_read_as / zarr_write_as: int32 written into a float64 array, read
  !> back as int64 and real32; a value int16 cannot hold is ZARR_ERR_RANGE.
  subroutine converting_reads_and_writes()
    type(zarr_array) :: array
    integer(int64) :: wide(4)
    integer(int16) :: narrow(4)
    real(real32) :: floats(4)
    integer :: status

    call create_v3(array, 'memory://f-convert/a', 'float64', '[4]', '[2]')
    call zarr_write_as(array, [1_int32, -2_int32, 3_int32, 40000_int32])
    call zarr_read_as(array, wide)
    call check('int32_into_float64_reads_back_as_int64', same(wide, [1_int64, -2_int64, 3_int64, 40000_int64]))
    call zarr_read_as(array, floats)
    call check('float64_reads_as_real32', all(floats == [1., -2., 3., 40000.]))
    call zarr_read_as(array, narrow, status=status)
    call check('a_value_int16_cannot_hold_is_range', status == ZARR_ERR_RANGE .and. &
               index(zarr_error_message(), 'element 3') > 0, zarr_error_message())
    call zarr_read_as(array, wide(1:4:2), status=status)
    call check('converting_sections_must_be_contiguous', status == ZARR_ERR_INVALID_ARGUMENT, zarr_error_message())
    call zarr_close(array)
  end subroutine converting_reads_and_writes

  !> zarr_create_from_desc: Fortran-order shapes reversed into Zarr's, a
  !> sharded v3 array and a v2 one with xarray's dimension names, and a bad
  !> field named.
  subroutine arrays_are_created_from_a_description()
    type(zarr_array) :: array
    real(real32) :: a(6, 4), back(6, 4)
    character(len=:), allocatable :: attributes
    integer :: i, status

    a = reshape([(real(i, real32), i = 1, 24)], [6, 4])
    call zarr_create_from_desc(array, 'memory://f-desc/sharded', 'float32', [6_int64, 4_int64], &
                               chunk_shape=[3_int64, 2_int64], shard_shape=[6_int64, 4_int64], status=status)
    call check('desc_creates_a_sharded_array', status == ZARR_OK, zarr_error_message())
    call check('desc_shape_is_in_fortran_order', same(zarr_shape(array), [6_int64, 4_int64]))
    call zarr_write(array, a)
    call zarr_read(array, back)
    call check('desc_sharded_array_round_trips', all(back == a))
    call zarr_close(array)

    call zarr_create_from_desc(array, 'memory://f-desc/v2', '<f4', [6_int64, 4_int64], zarr_format=2, &
                               fill_value='1.5', dimension_names=['x', 'y'], status=status)
    call check('desc_creates_a_v2_array', status == ZARR_OK, zarr_error_message())
    call zarr_read(array, back)
    call check('desc_fill_value_is_read', all(back == 1.5_real32))
    call zarr_get_attributes(array, attributes)
    call check('desc_v2_names_are_array_dimensions_reversed', &
               index(attributes, '"_ARRAY_DIMENSIONS":["y","x"]') > 0, attributes)
    call zarr_close(array)

    call zarr_create_from_desc(array, 'memory://f-desc/bad', 'float32', [6_int64], chunk_shape=[4_int64], &
                               shard_shape=[6_int64], status=status)
    call check('desc_bad_shard_is_named', status == ZARR_ERR_INVALID_ARGUMENT .and. &
               index(zarr_error_message(), 'desc.shard_shape[0]') > 0, zarr_error_message())
  end subroutine arrays_are_created_from_a_description

  subroutine type_mismatches_are_invalid_arguments()
    type(zarr_array) :: array
    real(real32) :: floats(4)
    logical :: default_logicals(4)
    character(len=4) :: text(4)
    integer :: status

    call zarr_create(array, 'memory://f-types/a', '{"shape": [4], "dtype": "<i4"}')
    call zarr_read(array, floats, status=status)
    call check('float32_elements_for_int32_are_refused', status == ZARR_ERR_INVALID_ARGUMENT .and. &
               index(zarr_error_message(), 'int32') > 0 .and. index(zarr_error_message(), 'float32') > 0, &
               zarr_error_message())
    call zarr_read(array, default_logicals, status=status)
    call check('default_logicals_point_to_c_bool', status == ZARR_ERR_INVALID_ARGUMENT .and. &
               index(zarr_error_message(), 'logical(c_bool)') > 0, zarr_error_message())
    call zarr_read(array, text, status=status)
    call check('character_elements_are_refused', status == ZARR_ERR_INVALID_ARGUMENT, zarr_error_message())
    call zarr_close(array)
  end subroutine type_mismatches_are_invalid_arguments
  !> A Zarr [5, 6] int32 array holding 10 * row + column, a(7, 6) in Fortran's
  !> (column, row) order: steps and points in Fortran order, 1-based.
  subroutine steps_and_points_read_and_write_in_fortran_order()
    type(zarr_array) :: array
    integer(int32) :: whole(6, 5), slab(3, 2), picked(3)
    integer(int64) :: points(2, 3)
    integer :: status, i, j

    call zarr_create(array, 'memory://f-steps/a', '{"shape": [5, 6], "chunks": [2, 4], "dtype": "<i4"}')
    whole = reshape([((10 * i + j, j = 0, 5), i = 0, 4)], [6, 5])
    call zarr_write(array, whole)
    ! Columns 2, 4, 6 (every 2nd from 2) of rows 1 and 4 (every 3rd from 1), 1-based.
    call zarr_read_step(array, slab, step=[2_int64, 3_int64], start=[2_int64, 1_int64])
    call check('read_step_picks_every_step_th_element', &
               all(slab == reshape([1, 3, 5, 31, 33, 35], [3, 2])))
    points = reshape([6_int64, 5_int64, 1_int64, 1_int64, 3_int64, 2_int64], [2, 3])  ! (column, row) each
    call zarr_read_points(array, picked, points)
    call check('read_points_in_point_order', all(picked == [45, 0, 12]))
    call zarr_write_points(array, [-1_int32, -2_int32, -3_int32], points)
    call zarr_write_step(array, reshape([-4_int32, -5_int32], [1, 2]), step=[1_int64, 4_int64], &
                         start=[1_int64, 1_int64])
    call zarr_read(array, whole)
    call check('writes_land_where_reads_find_them', whole(6, 5) == -1 .and. whole(1, 1) == -4 .and. &
               whole(3, 2) == -3 .and. whole(1, 5) == -5 .and. whole(2, 2) == 11)
    call zarr_read_step(array, slab, step=[0_int64, 1_int64], status=status)
    call check('a_step_of_0_is_an_invalid_argument', status == ZARR_ERR_INVALID_ARGUMENT, zarr_error_message())
    call zarr_read_step(array, slab, step=[1_int64], status=status)
    call check('a_step_per_dimension', status == ZARR_ERR_INVALID_ARGUMENT, zarr_error_message())
    points(1, 1) = 7
    call zarr_read_points(array, picked, points, status)
    call check('a_point_outside_the_shape_is_out_of_bounds', status == ZARR_ERR_OUT_OF_BOUNDS .and. &
               index(zarr_error_message(), 'point 0 on axis 1 is index 6') > 0, zarr_error_message())
    call zarr_read_points(array, picked(1:2), points, status)
    call check('one_point_per_element', status == ZARR_ERR_INVALID_ARGUMENT, zarr_error_message())
    call zarr_close(array)
  end subroutine steps_and_points_read_and_write_in_fortran_order

end program test_zarr_fortran
