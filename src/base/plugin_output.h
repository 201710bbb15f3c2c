// What a plugin's callback hands back through the output struct libzarr
// gives it (zarr_codec_output, zarr_store_output in zarr_plugin.h): a value
// it allocates, keys it adds one by one, and the message of a failure. The
// codec and store adapters share it; every entry point is noexcept because
// it is called from C.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "zarr/zarr.h"

namespace zarr {

struct PluginOutput {
  Bytes bytes;
  std::vector<std::string> keys;
  std::string error;
  bool out_of_memory = false;
  size_t refused_bytes = 0;  // the allocation that failed (0: adding a key)
  // The most bytes the value may have: a larger allocation is refused (the
  // plugin sees out of memory) and recorded in over_limit, never made.
  size_t limit = SIZE_MAX;
  bool over_limit = false;

  // What ran out, for the adapter's ZARR_ERR_NO_MEMORY message.
  std::string out_of_memory_text() const {
    return refused_bytes ? "out of memory for the " + std::to_string(refused_bytes) + " bytes the plugin asked for"
                         : "out of memory for the keys the plugin listed";
  }

  static void* allocate(void* context, size_t nbytes) noexcept {
    auto* self = static_cast<PluginOutput*>(context);
    if (nbytes > self->limit) {
      self->over_limit = true;
      self->refused_bytes = nbytes;
      return nullptr;
    }
    try {
      self->bytes.resize(nbytes);
      // Never NULL for a successful allocation, even of 0 bytes.
      return self->bytes.data() ? self->bytes.data() : reinterpret_cast<void*>(&self->bytes);
    } catch (...) {
      self->out_of_memory = true;
      self->refused_bytes = nbytes;
      return nullptr;
    }
  }

  static int add_key(void* context, const char* key) noexcept {
    auto* self = static_cast<PluginOutput*>(context);
    try {
      self->keys.emplace_back(key ? key : "");
      return 0;
    } catch (...) {
      self->out_of_memory = true;
      return 1;
    }
  }

  static void set_error(void* context, const char* message) noexcept {
    try {
      static_cast<PluginOutput*>(context)->error = message ? message : "";
    } catch (...) {
    }
  }
};

// A callback's return value as a status: itself when it is a ZARR_ERR_* code
// libzarr knows, else `fallback` (a plugin may return anything).
inline int plugin_status(int code, int fallback) {
  return code <= ZARR_ERR_INVALID_ARGUMENT && code >= ZARR_ERR_INTERNAL ? code : fallback;
}

}  // namespace zarr
