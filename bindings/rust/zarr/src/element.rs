//! Rust types that region buffers may hold, each tied to one Zarr data type.
use std::os::raw::c_void;

use crate::error::Result;

pub(crate) mod sealed {
    use super::*;

    /// A C call filling `nbytes` at a pointer with a region.
    pub type Fill<'a> = &'a mut dyn FnMut(*mut c_void, usize) -> Result<()>;

    pub trait Sealed: Sized {
        /// Let `fill` write a region into `out`.
        fn read_into(out: &mut [Self], fill: Fill) -> Result<()> {
            fill(out.as_mut_ptr().cast(), std::mem::size_of_val(out))
        }
    }
}

/// An element type of region buffers. `DATA_TYPE` is the name libzarr gives
/// the matching data type (`Array::data_type`); reads and writes refuse a
/// buffer whose element type names another. Implemented for the integer and
/// float primitives, `bool` and [`Complex`]; sealed, because the layout must
/// be exactly libzarr's.
pub trait Element: Copy + Default + sealed::Sealed {
    const DATA_TYPE: &'static str;
}

/// A complex number laid out as Zarr's complex64 (`Complex<f32>`) and
/// complex128 (`Complex<f64>`): real part, then imaginary part.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex<T> {
    pub re: T,
    pub im: T,
}

macro_rules! elements {
    ($($rust:ty => $zarr:literal),* $(,)?) => {
        $(
            impl sealed::Sealed for $rust {}
            impl Element for $rust {
                const DATA_TYPE: &'static str = $zarr;
            }
        )*
    };
}

elements! {
    i8 => "int8", i16 => "int16", i32 => "int32", i64 => "int64",
    u8 => "uint8", u16 => "uint16", u32 => "uint32", u64 => "uint64",
    f32 => "float32", f64 => "float64",
    Complex<f32> => "complex64", Complex<f64> => "complex128",
}

impl Element for bool {
    const DATA_TYPE: &'static str = "bool";
}

impl sealed::Sealed for bool {
    /// Stored bytes other than 0 and 1 would be invalid Rust bools, so reads go
    /// through bytes: any non-zero byte is true, as numpy reads it.
    fn read_into(out: &mut [bool], fill: sealed::Fill) -> Result<()> {
        let mut bytes = vec![0u8; out.len()];
        fill(bytes.as_mut_ptr().cast(), bytes.len())?;
        for (value, byte) in out.iter_mut().zip(bytes) {
            *value = byte != 0;
        }
        Ok(())
    }
}
