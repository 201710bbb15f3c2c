use std::os::raw::{c_char, c_int};
use std::ptr::{self, NonNull};

use crate::array::{Array, Mode};
use crate::error::{check, Error, Result};
use crate::ffi::{as_ptr_or_null, c_string, copy_str, new_handle, optional_c_string, take_json};
use zarr_sys as sys;

/// What a group's child is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Array,
    Group,
}

/// One direct child of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child {
    pub name: String,
    pub kind: NodeKind,
}

/// An open Zarr group; closed when dropped. Arrays and groups opened through
/// it are independent handles that may outlive it.
///
/// `Send` but not `Sync`: the listing that `children` walks lives in the handle.
#[derive(Debug)]
pub struct Group {
    raw: NonNull<sys::zarr_group>,
}

// SAFETY: a group handle is not tied to the thread that opened it.
unsafe impl Send for Group {}

impl Drop for Group {
    fn drop(&mut self) {
        unsafe { sys::zarr_group_close(self.raw.as_ptr()) };
    }
}

impl Group {
    /// Open the group at `url`.
    pub fn open(url: &str, mode: Mode) -> Result<Group> {
        let url = c_string("url", url)?;
        Group::from_call(|out| unsafe { sys::zarr_group_open(out, url.as_ptr(), mode.as_c().as_ptr()) })
    }

    /// Create a group (and missing parents) with optional attributes (a JSON
    /// object) and open it read-write. Its format is the enclosing group's,
    /// else Zarr v3; `create_with_options` chooses it.
    pub fn create(url: &str, attributes_json: Option<&str>) -> Result<Group> {
        Group::create_with_options(url, attributes_json, None)
    }

    /// `create` with zarr_group_create_ex's options (a JSON object), e.g.
    /// `{"zarr_format": 2}` for a Zarr v2 group.
    pub fn create_with_options(url: &str, attributes_json: Option<&str>, options_json: Option<&str>) -> Result<Group> {
        let url = c_string("url", url)?;
        let attributes = optional_c_string("attributes", attributes_json)?;
        let options = optional_c_string("options", options_json)?;
        Group::from_call(|out| unsafe {
            sys::zarr_group_create_ex(out, url.as_ptr(), as_ptr_or_null(&attributes), as_ptr_or_null(&options))
        })
    }

    fn from_call(call: impl FnOnce(*mut *mut sys::zarr_group) -> c_int) -> Result<Group> {
        new_handle(call).map(|raw| Group { raw })
    }

    fn raw(&self) -> *mut sys::zarr_group {
        self.raw.as_ptr()
    }

    /// The direct children, sorted by name.
    pub fn children(&self) -> Result<Vec<Child>> {
        let mut count = 0usize;
        check(unsafe { sys::zarr_group_child_count(self.raw(), &mut count) })?;
        (0..count).map(|i| self.child(i)).collect()
    }

    fn child(&self, i: usize) -> Result<Child> {
        let mut name: *const c_char = ptr::null();
        let mut kind: c_int = 0;
        check(unsafe { sys::zarr_group_child(self.raw(), i, &mut name, &mut kind) })?;
        let kind = match kind {
            sys::ZARR_NODE_ARRAY => NodeKind::Array,
            sys::ZARR_NODE_GROUP => NodeKind::Group,
            other => {
                return Err(Error::new(
                    sys::ZARR_ERR_INTERNAL,
                    format!("unknown node kind {}", other),
                ))
            }
        };
        Ok(Child {
            name: unsafe { copy_str(name) },
            kind,
        })
    }

    /// Open the array at a path relative to the group ("a", "sub/b").
    pub fn open_array(&self, path: &str, mode: Mode) -> Result<Array> {
        let path = c_string("path", path)?;
        Array::from_call(|out| unsafe {
            sys::zarr_group_open_array(out, self.raw(), path.as_ptr(), mode.as_c().as_ptr())
        })
    }

    /// Create an array at a relative path (parents as needed), as `Array::create`.
    pub fn create_array(&self, path: &str, metadata_json: &str) -> Result<Array> {
        let path = c_string("path", path)?;
        let metadata = c_string("metadata", metadata_json)?;
        Array::from_call(|out| unsafe {
            sys::zarr_group_create_array(out, self.raw(), path.as_ptr(), metadata.as_ptr())
        })
    }

    /// Open the group at a relative path, with this handle's mode.
    pub fn open_group(&self, path: &str) -> Result<Group> {
        let path = c_string("path", path)?;
        Group::from_call(|out| unsafe { sys::zarr_group_open_group(out, self.raw(), path.as_ptr()) })
    }

    /// Create a group at a relative path (parents as needed).
    pub fn create_group(&self, path: &str, attributes_json: Option<&str>) -> Result<Group> {
        let path = c_string("path", path)?;
        let attributes = optional_c_string("attributes", attributes_json)?;
        Group::from_call(|out| unsafe {
            sys::zarr_group_create_group(out, self.raw(), path.as_ptr(), as_ptr_or_null(&attributes))
        })
    }

    /// The attributes as a JSON object.
    pub fn attributes(&self) -> Result<String> {
        take_json(|out| unsafe { sys::zarr_group_get_attributes(self.raw(), out) })
    }

    /// Replace the attributes with a JSON object.
    pub fn set_attributes(&self, json: &str) -> Result<()> {
        let json = c_string("attributes", json)?;
        check(unsafe { sys::zarr_group_set_attributes(self.raw(), json.as_ptr()) })
    }

    /// One attribute's JSON value, as `attributes` shows them; ZARR_ERR_NOT_FOUND
    /// naming the key when there is none.
    pub fn attribute(&self, key: &str) -> Result<String> {
        let key = c_string("key", key)?;
        take_json(|out| unsafe { sys::zarr_group_get_attribute(self.raw(), key.as_ptr(), out) })
    }

    /// Merge a JSON object into the stored attributes: each member replaces the
    /// attribute of its name, a null member removes it, the others stay. Read,
    /// merged and written under the group's lock, so writers of different keys
    /// lose nothing.
    pub fn update_attributes(&self, json_object: &str) -> Result<()> {
        let json = c_string("json_object", json_object)?;
        check(unsafe { sys::zarr_group_update_attributes(self.raw(), json.as_ptr()) })
    }
}
