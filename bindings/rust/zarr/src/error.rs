use std::fmt;
use std::os::raw::c_int;

use crate::ffi;
use zarr_sys as sys;

/// A failed libzarr call: the status code (one of `sys::ZARR_ERR_*`) and the
/// message naming the key, file or field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: c_int,
    message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The negative status code, e.g. `sys::ZARR_ERR_NOT_FOUND`.
    pub fn code(&self) -> c_int {
        self.code
    }

    /// The code's constant name, e.g. "ZARR_ERR_NOT_FOUND".
    pub fn name(&self) -> &'static str {
        // zarr_status_name returns constant strings, never NULL.
        unsafe { ffi::borrow_str(sys::zarr_status_name(self.code)) }
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// An error the binding finds itself (before calling libzarr), with the
    /// code libzarr would use for it.
    pub(crate) fn new(code: c_int, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
        }
    }

    /// The error of the call that just returned `code` on this thread.
    pub(crate) fn last(code: c_int) -> Self {
        let message = unsafe { ffi::copy_str(sys::zarr_last_error()) };
        Error { code, message }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// Ok for ZARR_OK, else the error libzarr recorded for this call.
pub(crate) fn check(status: c_int) -> Result<()> {
    if status == sys::ZARR_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}
