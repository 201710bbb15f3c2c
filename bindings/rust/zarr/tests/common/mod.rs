//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test file uses some of the helpers
use std::sync::atomic::{AtomicUsize, Ordering};

/// A memory:// URL no other test uses (tests run on many threads of one
/// process, and memory stores are shared by name within it).
pub fn memory_url(test: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("memory://rust-{}-{}/a", test, NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A v3 document for an array of `shape` in `chunks` of `data_type`.
pub fn v3_metadata(data_type: &str, shape: &[u64], chunks: &[u64]) -> String {
    format!(
        r#"{{"zarr_format": 3, "node_type": "array", "shape": {:?}, "data_type": "{}",
            "chunk_grid": {{"name": "regular", "configuration": {{"chunk_shape": {:?}}}}}}}"#,
        shape, data_type, chunks
    )
}

/// A v2 .zarray document (groups are created as v2 unless asked otherwise,
/// and arrays below them take their format).
pub fn v2_metadata(dtype: &str, shape: &[u64], chunks: &[u64]) -> String {
    format!(
        r#"{{"shape": {:?}, "chunks": {:?}, "dtype": "{}"}}"#,
        shape, chunks, dtype
    )
}
