//! Safe Rust bindings to libzarr, the Zarr v2/v3 library with a C ABI.
//!
//! Handles close themselves when dropped, every failure is an [`Error`]
//! carrying libzarr's status code and message, and regions are read and
//! written through slices whose element type is checked against the array's
//! data type. Regions are C order (last index fastest), as in zarr-python.
//!
//! ```
//! use zarr::{Array, Mode};
//!
//! # fn main() -> Result<(), zarr::Error> {
//! // A 4 x 6 int32 array in 2 x 3 chunks (a Zarr v3 document; v2 .zarray works too)
//! // in an in-process store; a path or file:// URL puts it on disk.
//! let url = "memory://doc-example/temperature";
//! let writer = Array::create(url, r#"{"shape": [4, 6], "data_type": "int32",
//!     "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3]}}}"#)?;
//! writer.write_region(&[1, 2], &[2, 3], &[1i32, 2, 3, 4, 5, 6])?;
//!
//! let array = Array::open(url, Mode::Read)?;
//! assert_eq!(array.shape()?, vec![4, 6]);
//! assert_eq!(array.data_type(), "int32");
//! let rows: Vec<i32> = array.read(&[1, 0], &[2, 6])?;
//! assert_eq!(rows, vec![0, 0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0]);
//!
//! // Errors carry the code and libzarr's message.
//! let error = array.read::<f64>(&[0, 0], &[1, 1]).unwrap_err();
//! assert_eq!(error.code(), zarr::sys::ZARR_ERR_INVALID_ARGUMENT);
//! // Handles close when dropped.
//! # Ok(())
//! # }
//! ```
mod array;
mod element;
mod error;
mod ffi;
mod group;

pub use array::{Array, Mode};
pub use element::{Complex, Element};
pub use error::{Error, Result};
pub use group::{Child, Group, NodeKind};
/// The raw C declarations, for the status constants (`sys::ZARR_ERR_NOT_FOUND`)
/// and for what the safe API does not wrap.
pub use zarr_sys as sys;

/// Version of the libzarr actually loaded, e.g. "0.1.0".
pub fn version() -> &'static str {
    // The library returns a pointer to a constant string.
    unsafe { ffi::borrow_str(sys::zarr_version_string()) }
}
