// Key and prefix rules shared by every store, so that a key accepted by one
// store is accepted by all and none can name a file outside a store's root.
// The rules themselves are documented in store.h.
#pragma once

#include <cstdint>
#include <string>

#include "stores/store.h"

namespace zarr::keys {

// Leading part of the filesystem store's temporary file names. A key segment
// may not start with it, so a temporary file can never be mistaken for a key.
inline constexpr const char kTempPrefix[] = ".zarr-tmp.";

bool is_temp_name(const std::string& name);

// Throw ZARR_ERR_INVALID_ARGUMENT naming the key or prefix when it breaks the rules.
void check_key(const std::string& key);
void check_prefix(const std::string& prefix);
// check_key as a test: false where check_key would throw.
bool is_valid_key(const std::string& key);

// A checked list_dir prefix with its trailing '/' ("" stays "").
std::string dir_prefix(const std::string& prefix);

// `text` in single quotes with control bytes escaped, for error messages.
std::string quote(const std::string& text);

// The part [begin, end) of a value of `size` bytes a range selects, clipped
// to the value (begin == end when the offset is past the end).
struct Span {
  uint64_t begin = 0;
  uint64_t end = 0;
};
Span clip(uint64_t size, const ByteRange& range);

// Throw ZARR_ERR_READ_ONLY for a write (`operation` on `key`) through a
// read-only handle on the store `where` (a describe() string).
[[noreturn]] void fail_read_only(const std::string& where, const char* operation,
                                 const std::string& key);

}  // namespace zarr::keys
