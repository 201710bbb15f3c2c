//! Moving strings and handles across the C boundary.
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};
use std::ptr::{self, NonNull};

use crate::error::{check, Error, Result};
use zarr_sys as sys;

/// `text` as a C string; `what` names the argument when it holds a NUL byte.
pub(crate) fn c_string(what: &str, text: &str) -> Result<CString> {
    CString::new(text).map_err(|_| {
        Error::new(
            sys::ZARR_ERR_INVALID_ARGUMENT,
            format!("{} contains a NUL byte: {:?}", what, text),
        )
    })
}

/// An optional JSON argument: None becomes NULL.
pub(crate) fn optional_c_string(what: &str, text: Option<&str>) -> Result<Option<CString>> {
    text.map(|t| c_string(what, t)).transpose()
}

pub(crate) fn as_ptr_or_null(text: &Option<CString>) -> *const c_char {
    text.as_ref().map_or(ptr::null(), |t| t.as_ptr())
}

/// A copy of a C string the library keeps (NULL reads as "").
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
pub(crate) unsafe fn copy_str(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    CStr::from_ptr(p).to_string_lossy().into_owned()
}

/// A string the library keeps for at least the lifetime 'a the caller picks
/// (`'static` for versions and status names, a handle's borrow for its data type).
///
/// # Safety
/// `p` points to a NUL-terminated string that lives for 'a.
pub(crate) unsafe fn borrow_str<'a>(p: *const c_char) -> &'a str {
    CStr::from_ptr(p).to_str().unwrap_or("(not UTF-8)")
}

/// Run a call that returns a JSON string the library allocated, copy it, and
/// free the library's copy with zarr_free.
pub(crate) fn take_json(call: impl FnOnce(*mut *mut c_char) -> c_int) -> Result<String> {
    let mut json: *mut c_char = ptr::null_mut();
    check(call(&mut json))?;
    let text = unsafe { copy_str(json) };
    unsafe { sys::zarr_free(json.cast()) };
    Ok(text)
}

/// Run a call that opens or creates a handle through its out-parameter.
pub(crate) fn new_handle<H>(call: impl FnOnce(*mut *mut H) -> c_int) -> Result<NonNull<H>> {
    let mut raw: *mut H = ptr::null_mut();
    check(call(&mut raw))?;
    NonNull::new(raw).ok_or_else(|| Error::new(sys::ZARR_ERR_INTERNAL, "libzarr returned ZARR_OK and no handle"))
}
