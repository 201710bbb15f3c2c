mod common;

use common::{memory_url, v2_metadata};
use zarr::{sys, Child, Group, Mode, NodeKind};

// zarr_group_create_ex's options for a Zarr v2 group (a new root is v3).
const V2: &str = r#"{"zarr_format": 2}"#;

#[test]
fn a_new_root_is_v3_and_a_v2_array_in_it_is_refused() {
    let root = Group::create(&memory_url("v3-root"), None).unwrap();
    let error = root.create_array("a", &v2_metadata("|i1", &[2], &[2])).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_ARGUMENT);
    assert!(error.to_string().contains("one hierarchy has one format"), "{}", error);
}

#[test]
fn children_are_listed_by_name_with_their_kind() {
    let root = Group::create_with_options(&memory_url("children"), Some(r#"{"title": "t"}"#), Some(V2)).unwrap();
    root.create_array("b", &v2_metadata("|i1", &[2], &[2])).unwrap();
    root.create_group("a", None).unwrap();
    root.create_array("a/inner", &v2_metadata("|i1", &[2], &[2])).unwrap();
    assert_eq!(
        root.children().unwrap(),
        vec![
            Child {
                name: "a".into(),
                kind: NodeKind::Group
            },
            Child {
                name: "b".into(),
                kind: NodeKind::Array
            },
        ]
    );
    assert_eq!(root.open_group("a").unwrap().children().unwrap().len(), 1);
}

#[test]
fn arrays_created_below_a_group_open_from_its_url() {
    let url = memory_url("arrays");
    let root = Group::create_with_options(&url, None, Some(V2)).unwrap();
    let array = root
        .create_array("sub/values", &v2_metadata("<f4", &[3], &[3]))
        .unwrap();
    array.write_region(&[0], &[3], &[1.0f32, 2.0, 3.0]).unwrap();
    drop(root); // the array handle outlives the group's (and keeps the memory store)

    let root = Group::open(&url, Mode::Read).unwrap();
    let reopened = root.open_array("sub/values", Mode::Read).unwrap();
    assert_eq!(reopened.read::<f32>(&[0], &[3]).unwrap(), vec![1.0, 2.0, 3.0]);
    assert_eq!(array.read::<f32>(&[2], &[1]).unwrap(), vec![3.0]);
}

#[test]
fn group_attributes_are_json_objects() {
    let root = Group::create(&memory_url("attributes"), Some(r#"{"a": 1}"#)).unwrap();
    assert!(root.attributes().unwrap().contains("\"a\""));
    root.set_attributes(r#"{"b": [1, 2]}"#).unwrap();
    let attributes = root.attributes().unwrap();
    assert!(
        attributes.contains("\"b\"") && !attributes.contains("\"a\""),
        "{}",
        attributes
    );
    root.update_attributes(r#"{"c": true}"#).unwrap();
    assert_eq!(root.attribute("b").unwrap(), "[1,2]");
    assert_eq!(root.attribute("c").unwrap(), "true");
    assert_eq!(root.attribute("a").unwrap_err().code(), sys::ZARR_ERR_NOT_FOUND);
}

#[test]
fn group_errors_carry_code_and_message() {
    let url = memory_url("errors");
    let error = Group::open(&url, Mode::Read).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_NOT_FOUND);
    assert!(!error.message().is_empty());

    let root = Group::create(&url, None).unwrap();
    assert_eq!(
        root.open_array("missing", Mode::Read).unwrap_err().code(),
        sys::ZARR_ERR_NOT_FOUND
    );
    assert_eq!(Group::create(&url, None).unwrap_err().code(), sys::ZARR_ERR_EXISTS);
    let error = Group::create(&memory_url("bad-attributes"), Some("not json")).unwrap_err();
    assert_eq!(error.code(), sys::ZARR_ERR_INVALID_METADATA, "{}", error);
    let read_only = Group::open(&url, Mode::Read).unwrap();
    assert_eq!(
        read_only.create_group("g", None).unwrap_err().code(),
        sys::ZARR_ERR_READ_ONLY
    );
}
