mod common;

use std::fmt::Debug;
use std::path::PathBuf;

use common::{memory_url, v3_metadata};
use zarr::{sys, Array, Complex, Element, Mode};

/// Write six values as a 2 x 3 array in 1 x 2 chunks, read all and part back.
fn round_trip<T: Element + PartialEq + Debug>(values: [T; 6]) {
    let array = Array::create(&memory_url(T::DATA_TYPE), &v3_metadata(T::DATA_TYPE, &[2, 3], &[1, 2])).unwrap();
    assert_eq!(array.data_type(), T::DATA_TYPE);
    assert_eq!(array.item_size(), std::mem::size_of::<T>());
    array.write_region(&[0, 0], &[2, 3], &values).unwrap();
    assert_eq!(array.read::<T>(&[0, 0], &[2, 3]).unwrap(), values.to_vec());
    assert_eq!(array.read::<T>(&[1, 1], &[1, 2]).unwrap(), values[4..6].to_vec());
}

#[test]
fn every_element_type_round_trips() {
    round_trip::<i8>([-128, -1, 0, 1, 2, 127]);
    round_trip::<i16>([-32768, -1, 0, 1, 300, 32767]);
    round_trip::<i32>([i32::MIN, -1, 0, 1, 70000, i32::MAX]);
    round_trip::<i64>([i64::MIN, -1, 0, 1, 1 << 40, i64::MAX]);
    round_trip::<u8>([0, 1, 2, 3, 128, 255]);
    round_trip::<u16>([0, 1, 2, 3, 40000, 65535]);
    round_trip::<u32>([0, 1, 2, 3, 1 << 31, u32::MAX]);
    round_trip::<u64>([0, 1, 2, 3, 1 << 63, u64::MAX]);
    round_trip::<f32>([-1.5, 0.0, 0.25, 1e-30, 3.5e30, f32::INFINITY]);
    round_trip::<f64>([-1.5, 0.0, 0.1, 1e-300, 3.5e300, f64::NEG_INFINITY]);
    round_trip::<bool>([true, false, false, true, true, false]);
    round_trip([
        Complex { re: 1.0f32, im: -1.0 },
        Complex::default(),
        Complex { re: 0.5, im: 2.0 },
        Complex { re: -3.0, im: 0.0 },
        Complex { re: 0.0, im: 9.0 },
        Complex { re: 7.0, im: 7.0 },
    ]);
    round_trip([
        Complex { re: 1.0f64, im: -1.0 },
        Complex::default(),
        Complex { re: 0.5, im: 2.0 },
        Complex { re: -3.0, im: 0.0 },
        Complex { re: 0.0, im: 9.0 },
        Complex { re: 7.0, im: 7.0 },
    ]);
}

#[test]
fn v2_big_endian_arrays_read_in_native_order() {
    let url = memory_url("v2-big-endian");
    let array = Array::create(
        &url,
        r#"{"shape": [3], "chunks": [2], "dtype": ">f8", "compressor": null}"#,
    )
    .unwrap();
    assert_eq!((array.zarr_format(), array.data_type()), (2, "float64"));
    array.write_region(&[0], &[3], &[1.5f64, -2.0, 1e10]).unwrap();
    assert_eq!(array.read::<f64>(&[0], &[3]).unwrap(), vec![1.5, -2.0, 1e10]);
}

#[test]
fn unwritten_chunks_read_as_the_fill_value() {
    let array = Array::create(
        &memory_url("fill"),
        r#"{"shape": [4, 4], "chunks": [2, 2], "dtype": "<i4", "fill_value": -7}"#,
    )
    .unwrap();
    array.write_region(&[0, 0], &[1, 1], &[5i32]).unwrap();
    assert_eq!(array.read::<i32>(&[0, 0], &[1, 4]).unwrap(), vec![5, -7, -7, -7]);
}

#[test]
fn describes_shape_chunks_and_metadata() {
    let array = Array::create(
        &memory_url("describe"),
        &v3_metadata("uint16", &[10, 20, 30], &[5, 10, 15]),
    )
    .unwrap();
    assert_eq!(array.ndim(), 3);
    assert_eq!(array.shape().unwrap(), vec![10, 20, 30]);
    assert_eq!(array.chunk_shape().unwrap(), vec![5, 10, 15]);
    assert_eq!(array.zarr_format(), 3);
    let metadata = array.metadata().unwrap();
    assert!(
        metadata.contains("\"uint16\"") && metadata.contains("\"chunk_shape\""),
        "{}",
        metadata
    );
}

#[test]
fn resize_keeps_data_inside_the_new_shape() {
    let array = Array::create(&memory_url("resize"), &v3_metadata("int32", &[4], &[2])).unwrap();
    array.write_region(&[0], &[4], &[1i32, 2, 3, 4]).unwrap();
    array.resize(&[6]).unwrap();
    assert_eq!(array.shape().unwrap(), vec![6]);
    assert_eq!(array.read::<i32>(&[0], &[6]).unwrap(), vec![1, 2, 3, 4, 0, 0]);
}

#[test]
fn attributes_are_json_objects() {
    let array = Array::create(&memory_url("attrs"), &v3_metadata("int8", &[1], &[1])).unwrap();
    assert_eq!(array.attributes().unwrap().replace(' ', ""), "{}");
    array.set_attributes(r#"{"units": "K"}"#).unwrap();
    assert!(array.attributes().unwrap().contains("\"units\""));
    let error = array.set_attributes("[1, 2]").unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_METADATA, "{}", error);
}

#[test]
fn attributes_by_key() {
    let array = Array::create(&memory_url("attrs-by-key"), &v3_metadata("int8", &[1], &[1])).unwrap();
    array.set_attributes(r#"{"units": "K", "scale": 2}"#).unwrap();
    array.update_attributes(r#"{"scale": null, "offset": [1]}"#).unwrap();
    assert_eq!(array.attribute("units").unwrap(), "\"K\"");
    assert_eq!(array.attribute("offset").unwrap(), "[1]");
    assert_eq!(array.attribute("scale").unwrap_err().code(), sys::ZARR_ERR_NOT_FOUND);
    assert_eq!(
        array.attribute("a\0b").unwrap_err().code(),
        sys::ZARR_ERR_INVALID_ARGUMENT
    );
    let error = array.update_attributes("[1]").unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_ARGUMENT, "{}", error);
}

#[test]
fn strings_and_bytes_round_trip() {
    let strings = Array::create(&memory_url("strings"), &v3_metadata("string", &[3], &[2])).unwrap();
    assert_eq!(strings.item_size(), 0);
    strings.write_variable_length(&[0], &[3], &["alpha", "", "γδ"]).unwrap();
    assert_eq!(
        strings.read_strings(&[1], &[2]).unwrap(),
        vec!["".to_string(), "γδ".to_string()]
    );

    let bytes = Array::create(&memory_url("bytes"), &v3_metadata("variable_length_bytes", &[2], &[2])).unwrap();
    bytes
        .write_variable_length(&[0], &[2], &[vec![0u8, 255], vec![7u8]])
        .unwrap();
    assert_eq!(
        bytes.read_variable_length(&[0], &[2]).unwrap(),
        vec![vec![0u8, 255], vec![7u8]]
    );
}

#[test]
fn a_handle_is_shared_by_threads() {
    let array = Array::create(&memory_url("threads"), &v3_metadata("int64", &[8, 100], &[1, 30])).unwrap();
    std::thread::scope(|scope| {
        for row in 0..8u64 {
            let array = &array;
            scope.spawn(move || {
                let values: Vec<i64> = (0..100).map(|c| (row * 1000 + c) as i64).collect();
                array.write_region(&[row, 0], &[1, 100], &values).unwrap();
            });
        }
    });
    let all = array.read::<i64>(&[0, 0], &[8, 100]).unwrap();
    assert!(all
        .iter()
        .enumerate()
        .all(|(i, &v)| v == ((i / 100) * 1000 + i % 100) as i64));
}

// --- the filesystem ----------------------------------------------------------

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zarr-rust-{}", name));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn arrays_on_disk_reopen_with_their_data() {
    let path = scratch("disk");
    let url = path.to_str().unwrap();
    let array = Array::create(url, r#"{"shape": [2, 2], "chunks": [1, 2], "dtype": "<u2"}"#).unwrap();
    array.write_region(&[0, 0], &[2, 2], &[1u16, 2, 3, 4]).unwrap();
    drop(array);
    assert!(path.join(".zarray").is_file() && path.join("1.0").is_file());

    let array = Array::open(url, Mode::Read).unwrap();
    assert_eq!(array.read::<u16>(&[1, 0], &[1, 2]).unwrap(), vec![3, 4]);
}

#[test]
fn stored_bool_bytes_other_than_one_read_as_true() {
    // numpy reads any non-zero byte as True; a Rust bool must be 0 or 1.
    let path = scratch("bool-bytes");
    let url = path.to_str().unwrap();
    drop(
        Array::create(
            url,
            r#"{"shape": [3], "chunks": [3], "dtype": "|b1", "compressor": null}"#,
        )
        .unwrap(),
    );
    std::fs::write(path.join("0"), [0u8, 2, 255]).unwrap();
    let array = Array::open(url, Mode::Read).unwrap();
    assert_eq!(array.read::<bool>(&[0], &[3]).unwrap(), vec![false, true, true]);
}

// --- errors ----------------------------------------------------------------------

#[test]
fn opening_a_missing_array_is_not_found_naming_it() {
    let error = Array::open("memory://rust-nothing-here/x", Mode::Read).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_NOT_FOUND);
    assert_eq!(error.name(), "ZARR_ERR_NOT_FOUND");
    assert!(!error.message().is_empty());
    assert!(error.to_string().starts_with("ZARR_ERR_NOT_FOUND: "), "{}", error);
}

#[test]
fn creating_over_an_array_is_exists() {
    let url = memory_url("exists");
    let _first = Array::create(&url, &v3_metadata("int8", &[1], &[1])).unwrap();
    assert_eq!(
        Array::create(&url, &v3_metadata("int8", &[1], &[1]))
            .unwrap_err()
            .code(),
        sys::ZARR_ERR_EXISTS
    );
}

#[test]
fn bad_metadata_is_invalid_metadata_naming_the_field() {
    let error = Array::create(&memory_url("bad"), r#"{"shape": [4], "chunks": [0], "dtype": "<i4"}"#).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_METADATA);
    assert!(error.message().contains("chunks"), "{}", error);
}

#[test]
fn a_buffer_of_another_element_type_is_refused() {
    let array = Array::create(&memory_url("types"), &v3_metadata("int32", &[4], &[4])).unwrap();
    let mut floats = [0f32; 4];
    let error = array.read_region(&[0], &[4], &mut floats).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_ARGUMENT);
    assert!(
        error.message().contains("int32") && error.message().contains("float32"),
        "{}",
        error
    );
    assert_eq!(
        array.write_region(&[0], &[4], &[0u32; 4]).unwrap_err().code(),
        sys::ZARR_ERR_INVALID_ARGUMENT
    );
}

#[test]
fn a_buffer_of_the_wrong_length_is_buffer_size() {
    let array = Array::create(&memory_url("length"), &v3_metadata("int32", &[4], &[4])).unwrap();
    let mut short = [0i32; 3];
    assert_eq!(
        array.read_region(&[0], &[4], &mut short).unwrap_err().code(),
        sys::ZARR_ERR_BUFFER_SIZE
    );
    assert_eq!(
        array.write_region(&[0], &[4], &[0i32; 5]).unwrap_err().code(),
        sys::ZARR_ERR_BUFFER_SIZE
    );
}

#[test]
fn start_and_count_must_have_the_same_length() {
    let array = Array::create(&memory_url("lengths"), &v3_metadata("int32", &[4, 4], &[4, 4])).unwrap();
    let error = array.read::<i32>(&[0], &[1, 1]).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_ARGUMENT);
    assert!(
        error.message().contains("start has 1 coordinates but count has 2"),
        "{}",
        error
    );
    // Matching lengths that are not the array's ndim: libzarr says so.
    assert_eq!(
        array.read::<i32>(&[0], &[1]).unwrap_err().code(),
        sys::ZARR_ERR_INVALID_ARGUMENT
    );
}

#[test]
fn a_region_outside_the_shape_is_out_of_bounds() {
    let array = Array::create(&memory_url("bounds"), &v3_metadata("int32", &[4], &[4])).unwrap();
    assert_eq!(
        array.read::<i32>(&[3], &[2]).unwrap_err().code(),
        sys::ZARR_ERR_OUT_OF_BOUNDS
    );
}

#[test]
fn writing_through_a_read_only_handle_is_read_only() {
    let url = memory_url("read-only");
    // A memory store lives while any handle on it is open.
    let _writer = Array::create(&url, &v3_metadata("int32", &[4], &[4])).unwrap();
    let array = Array::open(&url, Mode::Read).unwrap();
    assert_eq!(
        array.write_region(&[0], &[1], &[1i32]).unwrap_err().code(),
        sys::ZARR_ERR_READ_ONLY
    );
}

#[test]
fn fixed_and_variable_length_reads_do_not_mix() {
    let array = Array::create(&memory_url("vlen-fixed"), &v3_metadata("string", &[2], &[2])).unwrap();
    let mut bytes = [0u8; 2];
    // The element type check comes first: "string" is no Rust element type.
    assert_eq!(
        array.read_region(&[0], &[2], &mut bytes).unwrap_err().code(),
        sys::ZARR_ERR_INVALID_ARGUMENT
    );
    let ints = Array::create(&memory_url("fixed-vlen"), &v3_metadata("int32", &[2], &[2])).unwrap();
    let error = ints.read_strings(&[0], &[2]).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_ARGUMENT, "{}", error);
    assert!(error.message().contains("fixed-size elements"), "{}", error);
}

#[test]
fn unknown_open_options_are_invalid_arguments_naming_them() {
    let url = memory_url("options");
    let _writer = Array::create(&url, &v3_metadata("int32", &[4], &[4])).unwrap();
    let error = Array::open_with_options(&url, Mode::Read, r#"{"no_such_option": 1}"#).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_ARGUMENT);
    assert!(error.message().contains("no_such_option"), "{}", error);
    assert!(Array::open_with_options(&url, Mode::Read, r#"{"zarr_format": 3}"#).is_ok());
}

#[test]
fn nul_bytes_in_strings_are_invalid_arguments() {
    let error = Array::open("memory://a\0b", Mode::Read).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_ARGUMENT);
    assert!(error.message().contains("url contains a NUL byte"), "{}", error);
}

#[test]
fn the_loaded_library_reports_its_version() {
    let version = zarr::version();
    assert_eq!(version.split('.').count(), 3, "{}", version);
}

/// zarr-sys's zarr_array_desc matches the C layout: a sharded v3 array created
/// from it has the chunks, shards and codecs asked for.
#[test]
fn zarr_sys_creates_a_sharded_array_from_a_description() {
    let url = std::ffi::CString::new(memory_url("desc")).unwrap();
    let data_type = std::ffi::CString::new("float32").unwrap();
    let (shape, chunks, shards) = ([8u64, 8], [2u64, 2], [4u64, 4]);
    let names = [b"y\0".as_ptr() as *const std::os::raw::c_char, std::ptr::null()];
    let desc = sys::zarr_array_desc {
        data_type: data_type.as_ptr(),
        ndim: 2,
        shape: shape.as_ptr(),
        chunk_shape: chunks.as_ptr(),
        shard_shape: shards.as_ptr(),
        dimension_names: names.as_ptr(),
        ..Default::default()
    };
    let mut raw: *mut sys::zarr_array = std::ptr::null_mut();
    let status = unsafe { sys::zarr_create_from_desc(&mut raw, url.as_ptr(), &desc, std::ptr::null()) };
    assert_eq!(status, sys::ZARR_OK);
    // A memory:// store lives while a handle is open: open the safe one first.
    let array = Array::open(url.to_str().unwrap(), Mode::ReadWrite).unwrap();
    assert_eq!(unsafe { sys::zarr_close(raw) }, sys::ZARR_OK);
    assert_eq!(array.chunk_shape().unwrap(), vec![4, 4]); // the shards: the stored chunk grid
    let metadata = array.metadata().unwrap();
    assert!(
        metadata.contains("sharding_indexed") && metadata.contains("\"zstd\""),
        "{}",
        metadata
    );
    assert!(
        metadata.contains("\"dimension_names\": [\n    \"y\",\n    null\n  ]"),
        "{}",
        metadata
    );
    let values: Vec<f32> = (0..64).map(|v| v as f32).collect();
    array.write_region(&[0, 0], &[8, 8], &values).unwrap();
    assert_eq!(array.read::<f32>(&[0, 0], &[8, 8]).unwrap(), values);

    let mut bad = desc;
    bad.version = sys::ZARR_ARRAY_DESC_VERSION + 1; // a version from a newer header
    let status = unsafe { sys::zarr_create_from_desc(&mut raw, url.as_ptr(), &bad, std::ptr::null()) };
    assert_eq!(status, sys::ZARR_ERR_INVALID_ARGUMENT);
}

/// zarr-sys's version 2 fields: chunk_edges and chunk_edge_counts make a
/// rectilinear grid (a null axis: a regular step of chunk_shape).
#[test]
fn zarr_sys_creates_a_rectilinear_array_from_a_description() {
    let url = std::ffi::CString::new(memory_url("rectilinear-desc")).unwrap();
    let data_type = std::ffi::CString::new("int32").unwrap();
    let (shape, chunks, rows) = ([10u64, 6], [5u64, 4], [2u64, 2, 6]);
    let edges = [rows.as_ptr(), std::ptr::null()];
    let counts = [rows.len(), 0usize];
    let desc = sys::zarr_array_desc {
        data_type: data_type.as_ptr(),
        ndim: 2,
        shape: shape.as_ptr(),
        chunk_shape: chunks.as_ptr(),
        chunk_edges: edges.as_ptr(),
        chunk_edge_counts: counts.as_ptr(),
        ..Default::default()
    };
    assert_eq!(desc.version, 2);
    let mut raw: *mut sys::zarr_array = std::ptr::null_mut();
    let status = unsafe { sys::zarr_create_from_desc(&mut raw, url.as_ptr(), &desc, std::ptr::null()) };
    assert_eq!(status, sys::ZARR_OK);
    let array = Array::open(url.to_str().unwrap(), Mode::ReadWrite).unwrap();
    assert_eq!(unsafe { sys::zarr_close(raw) }, sys::ZARR_OK);
    let metadata = array.metadata().unwrap();
    assert!(metadata.contains("\"rectilinear\""), "{}", metadata);
    assert_eq!(array.chunk_shape().unwrap(), vec![6, 4]); // the largest edges
    let values: Vec<i32> = (0..60).collect();
    array.write_region(&[0, 0], &[10, 6], &values).unwrap();
    assert_eq!(array.read::<i32>(&[0, 0], &[10, 6]).unwrap(), values);
}
