use std::ffi::CStr;
use std::os::raw::c_int;
use std::ptr::NonNull;

use crate::element::Element;
use crate::error::{check, Error, Result};
use crate::ffi::{borrow_str, c_string, new_handle, take_json};
use zarr_sys as sys;

/// How a handle may use the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// "r": reads only; writes fail with `ZARR_ERR_READ_ONLY`.
    Read,
    /// "r+": reads and writes.
    ReadWrite,
}

impl Mode {
    pub(crate) fn as_c(self) -> &'static CStr {
        let text: &'static [u8] = match self {
            Mode::Read => b"r\0",
            Mode::ReadWrite => b"r+\0",
        };
        CStr::from_bytes_with_nul(text).expect("mode strings end with one NUL")
    }
}

/// An open Zarr array; closed when dropped.
///
/// libzarr handles may be used from several threads at once (writes to the
/// same chunk are serialised inside the library), so `Array` is `Send` and
/// `Sync` and its writes take `&self`.
#[derive(Debug)]
pub struct Array {
    raw: NonNull<sys::zarr_array>,
}

// SAFETY: libzarr documents array handles as safe to use from many threads at once.
unsafe impl Send for Array {}
unsafe impl Sync for Array {}

impl Drop for Array {
    fn drop(&mut self) {
        unsafe { sys::zarr_close(self.raw.as_ptr()) };
    }
}

impl Array {
    /// Open the array at `url` (a path, `file://` or `memory://` URL).
    pub fn open(url: &str, mode: Mode) -> Result<Array> {
        let url = c_string("url", url)?;
        Array::from_call(|out| unsafe { sys::zarr_open(out, url.as_ptr(), mode.as_c().as_ptr()) })
    }

    /// Open with zarr_open_ex options, a JSON object such as
    /// `{"write_empty_chunks": true}` or `{"zarr_format": 2}`.
    pub fn open_with_options(url: &str, mode: Mode, options_json: &str) -> Result<Array> {
        let url = c_string("url", url)?;
        let options = c_string("options", options_json)?;
        Array::from_call(|out| unsafe { sys::zarr_open_ex(out, url.as_ptr(), mode.as_c().as_ptr(), options.as_ptr()) })
    }

    /// Create an array from a Zarr v2 `.zarray` or v3 `zarr.json` document
    /// (docs/c-api.md lists the defaults) and open it read-write.
    pub fn create(url: &str, metadata_json: &str) -> Result<Array> {
        let url = c_string("url", url)?;
        let metadata = c_string("metadata", metadata_json)?;
        Array::from_call(|out| unsafe { sys::zarr_create(out, url.as_ptr(), metadata.as_ptr()) })
    }

    pub(crate) fn from_call(call: impl FnOnce(*mut *mut sys::zarr_array) -> c_int) -> Result<Array> {
        new_handle(call).map(|raw| Array { raw })
    }

    fn raw(&self) -> *mut sys::zarr_array {
        self.raw.as_ptr()
    }

    pub fn ndim(&self) -> usize {
        unsafe { sys::zarr_ndim(self.raw()) }
    }

    pub fn shape(&self) -> Result<Vec<u64>> {
        let mut shape = vec![0; self.ndim()];
        check(unsafe { sys::zarr_shape(self.raw(), shape.as_mut_ptr()) })?;
        Ok(shape)
    }

    pub fn chunk_shape(&self) -> Result<Vec<u64>> {
        let mut chunks = vec![0; self.ndim()];
        check(unsafe { sys::zarr_chunk_shape(self.raw(), chunks.as_mut_ptr()) })?;
        Ok(chunks)
    }

    /// The data type: the v3 name for simple types ("int16", "float64",
    /// "bool", "complex64", "string") or the v2 dtype JSON otherwise.
    pub fn data_type(&self) -> &str {
        // Valid while the handle is open, which the borrow of self guarantees.
        unsafe { borrow_str(sys::zarr_data_type(self.raw())) }
    }

    /// Bytes per element in region buffers; 0 for variable-length elements.
    pub fn item_size(&self) -> usize {
        unsafe { sys::zarr_item_size(self.raw()) }
    }

    /// The Zarr format of the stored metadata: 1, 2 or 3.
    pub fn zarr_format(&self) -> i32 {
        unsafe { sys::zarr_format(self.raw()) }
    }

    /// Read the region `start .. start + count` into `out` (C order).
    /// `out` must hold exactly `product(count)` elements of the array's type.
    pub fn read_region<T: Element>(&self, start: &[u64], count: &[u64], out: &mut [T]) -> Result<()> {
        self.check_region::<T>(start, count)?;
        T::read_into(out, &mut |buffer, nbytes| {
            check(unsafe {
                sys::zarr_read_region(self.raw(), start.len(), start.as_ptr(), count.as_ptr(), buffer, nbytes)
            })
        })
    }

    /// Read a region into a new vector (C order).
    pub fn read<T: Element>(&self, start: &[u64], count: &[u64]) -> Result<Vec<T>> {
        let mut out = vec![T::default(); element_count(count)?];
        self.read_region(start, count, &mut out)?;
        Ok(out)
    }

    /// Write `data` (C order, `product(count)` elements) to the region
    /// `start .. start + count`.
    pub fn write_region<T: Element>(&self, start: &[u64], count: &[u64], data: &[T]) -> Result<()> {
        self.check_region::<T>(start, count)?;
        check(unsafe {
            sys::zarr_write_region(
                self.raw(),
                start.len(),
                start.as_ptr(),
                count.as_ptr(),
                data.as_ptr().cast(),
                std::mem::size_of_val(data),
            )
        })
    }

    /// Read a region of variable-length elements (strings, bytes), each as
    /// its bytes, in C order.
    pub fn read_variable_length(&self, start: &[u64], count: &[u64]) -> Result<Vec<Vec<u8>>> {
        check_lengths(start, count)?;
        let mut offsets = vec![0u64; element_count(count)? + 1];
        let mut data: Vec<u8> = Vec::new();
        loop {
            let mut needed = 0usize;
            let status = unsafe {
                sys::zarr_read_region_vlen(
                    self.raw(),
                    start.len(),
                    start.as_ptr(),
                    count.as_ptr(),
                    offsets.as_mut_ptr(),
                    offsets.len(),
                    data.as_mut_ptr().cast(),
                    data.len(),
                    &mut needed,
                )
            };
            // The first call learns the size; another thread may grow the
            // elements before the second, so ask again until they fit.
            if status == sys::ZARR_ERR_BUFFER_SIZE && needed > data.len() {
                data.resize(needed, 0);
                continue;
            }
            check(status)?;
            return Ok(offsets
                .windows(2)
                .map(|w| data[w[0] as usize..w[1] as usize].to_vec())
                .collect());
        }
    }

    /// Read a region of a string array. Elements are UTF-8 in Zarr; one that
    /// is not is a `ZARR_ERR_CODEC` error naming its position.
    pub fn read_strings(&self, start: &[u64], count: &[u64]) -> Result<Vec<String>> {
        self.read_variable_length(start, count)?
            .into_iter()
            .enumerate()
            .map(|(i, bytes)| {
                String::from_utf8(bytes).map_err(|e| {
                    Error::new(
                        sys::ZARR_ERR_CODEC,
                        format!("element {} of the region is not UTF-8: {}", i, e),
                    )
                })
            })
            .collect()
    }

    /// Write variable-length elements (`&str`, `String`, `Vec<u8>`, ...) to a
    /// region, in C order.
    pub fn write_variable_length<E: AsRef<[u8]>>(&self, start: &[u64], count: &[u64], elements: &[E]) -> Result<()> {
        check_lengths(start, count)?;
        let mut offsets = Vec::with_capacity(elements.len() + 1);
        let mut data = Vec::new();
        offsets.push(0u64);
        for element in elements {
            data.extend_from_slice(element.as_ref());
            offsets.push(data.len() as u64);
        }
        check(unsafe {
            sys::zarr_write_region_vlen(
                self.raw(),
                start.len(),
                start.as_ptr(),
                count.as_ptr(),
                offsets.as_ptr(),
                offsets.len(),
                data.as_ptr().cast(),
                data.len(),
            )
        })
    }

    /// Change the shape; chunks wholly outside the new shape are erased.
    pub fn resize(&self, shape: &[u64]) -> Result<()> {
        check(unsafe { sys::zarr_resize(self.raw(), shape.len(), shape.as_ptr()) })
    }

    /// The stored metadata document (.zarray or zarr.json) as JSON.
    pub fn metadata(&self) -> Result<String> {
        take_json(|out| unsafe { sys::zarr_get_metadata(self.raw(), out) })
    }

    /// The attributes as a JSON object ("{}" when none).
    pub fn attributes(&self) -> Result<String> {
        take_json(|out| unsafe { sys::zarr_get_attributes(self.raw(), out) })
    }

    /// Replace the attributes with a JSON object.
    pub fn set_attributes(&self, json: &str) -> Result<()> {
        let json = c_string("attributes", json)?;
        check(unsafe { sys::zarr_set_attributes(self.raw(), json.as_ptr()) })
    }

    /// One attribute's JSON value, as `attributes` shows them; ZARR_ERR_NOT_FOUND
    /// naming the key when there is none.
    pub fn attribute(&self, key: &str) -> Result<String> {
        let key = c_string("key", key)?;
        take_json(|out| unsafe { sys::zarr_get_attribute(self.raw(), key.as_ptr(), out) })
    }

    /// Merge a JSON object into the stored attributes: each member replaces the
    /// attribute of its name, a null member removes it, the others stay. Read,
    /// merged and written under the array's lock, so writers of different keys
    /// lose nothing.
    pub fn update_attributes(&self, json_object: &str) -> Result<()> {
        let json = c_string("json_object", json_object)?;
        check(unsafe { sys::zarr_update_attributes(self.raw(), json.as_ptr()) })
    }

    fn check_region<T: Element>(&self, start: &[u64], count: &[u64]) -> Result<()> {
        check_lengths(start, count)?;
        if self.data_type() != T::DATA_TYPE {
            return Err(Error::new(
                sys::ZARR_ERR_INVALID_ARGUMENT,
                format!(
                    "the array holds {} but the buffer's elements are {} ({})",
                    self.data_type(),
                    T::DATA_TYPE,
                    std::any::type_name::<T>()
                ),
            ));
        }
        Ok(())
    }
}

/// start and count are read as ndim = start.len() entries each by libzarr.
fn check_lengths(start: &[u64], count: &[u64]) -> Result<()> {
    if start.len() != count.len() {
        return Err(Error::new(
            sys::ZARR_ERR_INVALID_ARGUMENT,
            format!("start has {} coordinates but count has {}", start.len(), count.len()),
        ));
    }
    Ok(())
}

fn element_count(count: &[u64]) -> Result<usize> {
    count
        .iter()
        .try_fold(1usize, |n, &c| usize::try_from(c).ok().and_then(|c| n.checked_mul(c)))
        .ok_or_else(|| {
            Error::new(
                sys::ZARR_ERR_NO_MEMORY,
                format!("a region of {:?} elements does not fit in memory", count),
            )
        })
}
