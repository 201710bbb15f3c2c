//! Raw declarations of libzarr's C API, written by hand from `zarr.h` (every
//! function of the header; bindings/check_declarations.py compares them with
//! it in the test suite). The safe wrapper is the `zarr` crate; see zarr.h and
//! docs/c-api.md for what each function does.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_uint, c_void};

pub const ZARR_OK: c_int = 0;
pub const ZARR_ERR_INVALID_ARGUMENT: c_int = -1;
pub const ZARR_ERR_NOT_FOUND: c_int = -2;
pub const ZARR_ERR_EXISTS: c_int = -3;
pub const ZARR_ERR_INVALID_METADATA: c_int = -4;
pub const ZARR_ERR_UNSUPPORTED: c_int = -5;
pub const ZARR_ERR_CODEC: c_int = -6;
pub const ZARR_ERR_IO: c_int = -7;
pub const ZARR_ERR_OUT_OF_BOUNDS: c_int = -8;
pub const ZARR_ERR_READ_ONLY: c_int = -9;
pub const ZARR_ERR_NO_MEMORY: c_int = -10;
pub const ZARR_ERR_BUFFER_SIZE: c_int = -11;
pub const ZARR_ERR_INTERNAL: c_int = -12;
pub const ZARR_ERR_RANGE: c_int = -13;

pub const ZARR_NODE_ARRAY: c_int = 1;
pub const ZARR_NODE_GROUP: c_int = 2;

/// Opaque handles: only ever used behind pointers the library hands out.
#[repr(C)]
pub struct zarr_array {
    _opaque: [u8; 0],
}

#[repr(C)]
pub struct zarr_group {
    _opaque: [u8; 0],
}

#[repr(C)]
pub struct zarr_codec {
    _opaque: [u8; 0],
}

/// What a new array is (zarr.h's `zarr_array_desc`, version
/// `ZARR_ARRAY_DESC_VERSION`): start from `zarr_array_desc::default()`, the
/// header's `ZARR_ARRAY_DESC_INIT`. Fields are only ever added at the end.
/// Version 2 added `chunk_edges` and `chunk_edge_counts` (a rectilinear grid).
pub const ZARR_ARRAY_DESC_VERSION: u32 = 2;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct zarr_array_desc {
    pub version: u32,
    pub zarr_format: c_int,
    pub data_type: *const c_char,
    pub ndim: usize,
    pub shape: *const u64,
    pub chunk_shape: *const u64,
    pub shard_shape: *const u64,
    pub compressor: *const c_char,
    pub fill_value: *const c_char,
    pub dimension_names: *const *const c_char,
    pub order: c_char,
    /// Version 2: null for a regular grid, else `ndim` pointers to each axis's
    /// edge lengths (null: a regular step of the chunk or shard extent).
    pub chunk_edges: *const *const u64,
    pub chunk_edge_counts: *const usize,
}

impl Default for zarr_array_desc {
    fn default() -> Self {
        zarr_array_desc {
            version: ZARR_ARRAY_DESC_VERSION,
            zarr_format: 0,
            data_type: std::ptr::null(),
            ndim: 0,
            shape: std::ptr::null(),
            chunk_shape: std::ptr::null(),
            shard_shape: std::ptr::null(),
            compressor: std::ptr::null(),
            fill_value: std::ptr::null(),
            dimension_names: std::ptr::null(),
            order: 0,
            chunk_edges: std::ptr::null(),
            chunk_edge_counts: std::ptr::null(),
        }
    }
}

extern "C" {
    // Library
    pub fn zarr_version_string() -> *const c_char;
    pub fn zarr_version_number() -> c_uint;
    pub fn zarr_set_thread_count(n: usize) -> c_int;
    pub fn zarr_thread_count() -> usize;
    pub fn zarr_last_error() -> *const c_char;
    pub fn zarr_status_name(status: c_int) -> *const c_char;
    pub fn zarr_free(p: *mut c_void);

    // Arrays
    pub fn zarr_open(out: *mut *mut zarr_array, url: *const c_char, mode: *const c_char) -> c_int;
    pub fn zarr_open_ex(
        out: *mut *mut zarr_array,
        url: *const c_char,
        mode: *const c_char,
        options_json: *const c_char,
    ) -> c_int;
    pub fn zarr_create(out: *mut *mut zarr_array, url: *const c_char, metadata_json: *const c_char) -> c_int;
    pub fn zarr_create_ex(
        out: *mut *mut zarr_array,
        url: *const c_char,
        metadata_json: *const c_char,
        options_json: *const c_char,
    ) -> c_int;
    pub fn zarr_create_like(
        out: *mut *mut zarr_array,
        url: *const c_char,
        like: *const zarr_array,
        overrides_json: *const c_char,
        options_json: *const c_char,
    ) -> c_int;
    pub fn zarr_open_spec(out: *mut *mut zarr_array, spec_json: *const c_char) -> c_int;
    pub fn zarr_create_from_desc(
        out: *mut *mut zarr_array,
        url: *const c_char,
        desc: *const zarr_array_desc,
        options_json: *const c_char,
    ) -> c_int;
    pub fn zarr_group_create_array_from_desc(
        out: *mut *mut zarr_array,
        group: *mut zarr_group,
        path: *const c_char,
        desc: *const zarr_array_desc,
    ) -> c_int;
    pub fn zarr_data_type_form(
        data_type: *const c_char,
        object_codec: *const c_char,
        zarr_format: c_int,
        json_out: *mut *mut c_char,
    ) -> c_int;
    pub fn zarr_close(array: *mut zarr_array) -> c_int;
    pub fn zarr_ndim(array: *const zarr_array) -> usize;
    pub fn zarr_shape(array: *const zarr_array, shape: *mut u64) -> c_int;
    pub fn zarr_chunk_shape(array: *const zarr_array, chunk_shape: *mut u64) -> c_int;
    pub fn zarr_chunk_boundaries(
        array: *const zarr_array,
        axis: usize,
        out: *mut u64,
        capacity: usize,
        count: *mut usize,
    ) -> c_int;
    pub fn zarr_item_size(array: *const zarr_array) -> usize;
    pub fn zarr_data_type(array: *const zarr_array) -> *const c_char;
    pub fn zarr_format(array: *const zarr_array) -> c_int;
    pub fn zarr_read_region(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        out: *mut c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn zarr_write_region(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        data: *const c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn zarr_read_region_strided(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        byte_strides: *const i64,
        out: *mut c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn zarr_write_region_strided(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        byte_strides: *const i64,
        data: *const c_void,
        nbytes: usize,
    ) -> c_int;
    /// Orthogonal (outer) selection: along axis d, `indices[d][0..counts[d]]`.
    pub fn zarr_read_orthogonal(
        array: *mut zarr_array,
        ndim: usize,
        indices: *const *const u64,
        counts: *const u64,
        out: *mut c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn zarr_write_orthogonal(
        array: *mut zarr_array,
        ndim: usize,
        indices: *const *const u64,
        counts: *const u64,
        data: *const c_void,
        nbytes: usize,
    ) -> c_int;
    /// Point selection: `coords` holds `npoints` x `ndim` indices, point after point.
    pub fn zarr_read_points(
        array: *mut zarr_array,
        ndim: usize,
        npoints: u64,
        coords: *const u64,
        out: *mut c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn zarr_write_points(
        array: *mut zarr_array,
        ndim: usize,
        npoints: u64,
        coords: *const u64,
        data: *const c_void,
        nbytes: usize,
    ) -> c_int;
    /// Strided hyperslab, as netCDF's nc_get_vars.
    pub fn zarr_read_region_step(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        step: *const u64,
        out: *mut c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn zarr_write_region_step(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        step: *const u64,
        data: *const c_void,
        nbytes: usize,
    ) -> c_int;
    /// The region with every element converted to / from `data_type` (a v3
    /// name such as "float64", or a native-order NumPy typestr).
    pub fn zarr_read_region_as(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        data_type: *const c_char,
        out: *mut c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn zarr_write_region_as(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        data_type: *const c_char,
        data: *const c_void,
        nbytes: usize,
    ) -> c_int;
    /// The selections' reads of variable-length elements, output as `zarr_read_region_vlen`.
    pub fn zarr_read_orthogonal_vlen(
        array: *mut zarr_array,
        ndim: usize,
        indices: *const *const u64,
        counts: *const u64,
        offsets: *mut u64,
        n_offsets: usize,
        data: *mut c_void,
        capacity: usize,
        data_size: *mut usize,
    ) -> c_int;
    pub fn zarr_read_points_vlen(
        array: *mut zarr_array,
        ndim: usize,
        npoints: u64,
        coords: *const u64,
        offsets: *mut u64,
        n_offsets: usize,
        data: *mut c_void,
        capacity: usize,
        data_size: *mut usize,
    ) -> c_int;
    pub fn zarr_read_region_step_vlen(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        step: *const u64,
        offsets: *mut u64,
        n_offsets: usize,
        data: *mut c_void,
        capacity: usize,
        data_size: *mut usize,
    ) -> c_int;
    /// The selections' writes of variable-length elements, input as `zarr_write_region_vlen`.
    pub fn zarr_write_orthogonal_vlen(
        array: *mut zarr_array,
        ndim: usize,
        indices: *const *const u64,
        counts: *const u64,
        offsets: *const u64,
        n_offsets: usize,
        data: *const c_void,
        data_size: usize,
    ) -> c_int;
    pub fn zarr_write_points_vlen(
        array: *mut zarr_array,
        ndim: usize,
        npoints: u64,
        coords: *const u64,
        offsets: *const u64,
        n_offsets: usize,
        data: *const c_void,
        data_size: usize,
    ) -> c_int;
    pub fn zarr_write_region_step_vlen(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        step: *const u64,
        offsets: *const u64,
        n_offsets: usize,
        data: *const c_void,
        data_size: usize,
    ) -> c_int;
    pub fn zarr_read_region_vlen(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        offsets: *mut u64,
        n_offsets: usize,
        data: *mut c_void,
        capacity: usize,
        data_size: *mut usize,
    ) -> c_int;
    pub fn zarr_write_region_vlen(
        array: *mut zarr_array,
        ndim: usize,
        start: *const u64,
        count: *const u64,
        offsets: *const u64,
        n_offsets: usize,
        data: *const c_void,
        data_size: usize,
    ) -> c_int;
    pub fn zarr_resize(array: *mut zarr_array, ndim: usize, shape: *const u64) -> c_int;
    pub fn zarr_append(
        array: *mut zarr_array,
        axis: usize,
        ndim: usize,
        count: *const u64,
        data: *const c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn zarr_get_metadata(array: *const zarr_array, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_get_dimension_names(array: *const zarr_array, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_get_attributes(array: *const zarr_array, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_info(array: *const zarr_array, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_stored_chunks(array: *const zarr_array, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_set_attributes(array: *mut zarr_array, json: *const c_char) -> c_int;
    pub fn zarr_fill_value(array: *const zarr_array, out: *mut c_void, nbytes: usize, is_null: *mut c_int) -> c_int;
    pub fn zarr_migrate_v1_to_v2(url: *const c_char) -> c_int;
    pub fn zarr_migrate_v2_to_v3(url: *const c_char) -> c_int;

    // Groups
    pub fn zarr_group_open(out: *mut *mut zarr_group, url: *const c_char, mode: *const c_char) -> c_int;
    pub fn zarr_group_open_ex(
        out: *mut *mut zarr_group,
        url: *const c_char,
        mode: *const c_char,
        options_json: *const c_char,
    ) -> c_int;
    pub fn zarr_consolidate_metadata(url: *const c_char) -> c_int;
    pub fn zarr_erase(url: *const c_char, options_json: *const c_char) -> c_int;
    pub fn zarr_group_format(group: *const zarr_group) -> c_int;
    pub fn zarr_group_create(out: *mut *mut zarr_group, url: *const c_char, attributes_json: *const c_char) -> c_int;
    pub fn zarr_group_create_ex(
        out: *mut *mut zarr_group,
        url: *const c_char,
        attributes_json: *const c_char,
        options_json: *const c_char,
    ) -> c_int;
    pub fn zarr_group_close(group: *mut zarr_group) -> c_int;
    pub fn zarr_group_list(group: *mut zarr_group, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_group_child_count(group: *mut zarr_group, count: *mut usize) -> c_int;
    pub fn zarr_group_child(group: *mut zarr_group, i: usize, name: *mut *const c_char, kind: *mut c_int) -> c_int;
    pub fn zarr_group_open_array(
        out: *mut *mut zarr_array,
        group: *mut zarr_group,
        path: *const c_char,
        mode: *const c_char,
    ) -> c_int;
    pub fn zarr_group_create_array(
        out: *mut *mut zarr_array,
        group: *mut zarr_group,
        path: *const c_char,
        metadata_json: *const c_char,
    ) -> c_int;
    pub fn zarr_group_open_group(out: *mut *mut zarr_group, group: *mut zarr_group, path: *const c_char) -> c_int;
    pub fn zarr_group_create_group(
        out: *mut *mut zarr_group,
        group: *mut zarr_group,
        path: *const c_char,
        attributes_json: *const c_char,
    ) -> c_int;
    pub fn zarr_group_get_attributes(group: *const zarr_group, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_group_set_attributes(group: *mut zarr_group, json: *const c_char) -> c_int;

    // Codecs on plain buffers
    pub fn zarr_codec_create(out: *mut *mut zarr_codec, config_json: *const c_char) -> c_int;
    pub fn zarr_codec_encode(
        codec: *mut zarr_codec,
        input: *const c_void,
        nbytes: usize,
        out: *mut *mut c_void,
        out_nbytes: *mut usize,
    ) -> c_int;
    pub fn zarr_codec_decode(
        codec: *mut zarr_codec,
        input: *const c_void,
        nbytes: usize,
        out: *mut *mut c_void,
        out_nbytes: *mut usize,
    ) -> c_int;
    pub fn zarr_codec_config(codec: *const zarr_codec, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_codec_free(codec: *mut zarr_codec);

    // Attributes by key
    pub fn zarr_get_attribute(array: *const zarr_array, key: *const c_char, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_group_get_attribute(group: *const zarr_group, key: *const c_char, json_out: *mut *mut c_char) -> c_int;
    pub fn zarr_update_attributes(array: *mut zarr_array, json_object: *const c_char) -> c_int;
    pub fn zarr_group_update_attributes(group: *mut zarr_group, json_object: *const c_char) -> c_int;
}
