// The options of zarr_open_ex / zarr_create_ex that shape an array handle
// (the "store" member goes to the URL's store: stores/url.h), parsed from
// their JSON object (array/array_options.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <rapidjson/document.h>

#include "stores/store_request.h"

namespace zarr {

struct ArrayOptions {
  bool write_empty_chunks = false;  // store chunks equal to the fill value everywhere
  int zarr_format = 0;              // open: look for this format's metadata only (0: any)
  uint64_t cache_bytes = 0;         // "cache_pool": decoded chunks kept per handle (0: none)
  size_t thread_limit = 0;          // "data_copy_concurrency": threads per region call (0: thread_count())
  // "chunk_store": the chunks live under this URL, the metadata under the
  // array's own (zarr-python's chunk_store). The caller resolves the URL into
  // chunk_location (stores/url.h) before opening; a null store: beside the metadata.
  std::string chunk_store_url;
  NodeLocation chunk_location;
  // When set, each chunk read-modify-write also holds an flock on
  // <process_lock_dir>/<chunk key>.lock, so processes sharing a filesystem
  // store may write regions that share chunks (docs/scaling.md).
  std::string process_lock_dir;
};

// The "chunk_store" option: a URL string, or {"url": URL, "store": {...}}
// with the options of that URL's store (the top-level "store" options are
// the metadata store's).
struct ChunkStoreOption {
  std::string url;
  const rapidjson::Value* store_options = nullptr;  // inside the parsed options; null when absent
};
ChunkStoreOption chunk_store_option(const rapidjson::Value& value);
// The "process_lock_dir" option (of arrays and groups): a folder path
// without NUL, else ZARR_ERR_INVALID_ARGUMENT.
std::string process_lock_dir_option(const rapidjson::Value& value);
// The "data_copy_concurrency" option: the thread limit, 0 for "shared".
size_t thread_limit_option(const rapidjson::Value& value, const std::string& where);

// The options of zarr_open_ex / zarr_create_ex (a parsed JSON object, see
// parse_open_options in stores/url.h) other than "store".
ArrayOptions parse_array_options(const rapidjson::Value& options_object);

}  // namespace zarr
