// The extern "C" boundary: every API function body runs inside guarded(),
// which turns C++ exceptions into ZARR_ERR_* codes and zarr_last_error().
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "array/array_handle.h"
#include "base/error.h"
#include "hierarchy/group.h"

struct zarr_array {
  // The whole array, or zarr_open_spec's "field" of its records (array/array_handle.h).
  std::unique_ptr<zarr::ArrayHandle> handle;
  // The URL it was opened by (zarr_open_ex), "" when reached through a group:
  // where a change looks for the hierarchy's consolidated metadata.
  std::string url;
};

struct zarr_group {
  std::unique_ptr<zarr::Group> impl;
  // The URL it was opened or created by, "" when reached through a group (as zarr_array's).
  std::string url;
  std::vector<zarr::ChildNode> listing;  // the last listing, for zarr_group_child
};

namespace zarr::capi {

void set_last_error(const std::string& message);

// Runs body; returns ZARR_OK or the code of what it threw. `function` is the
// API function's name (__func__): what failed, for the errors that carry no
// context of their own (memory, internal).
template <typename Body>
int guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return ZARR_OK;
  } catch (const Error& e) {
    set_last_error(e.what());
    return e.code();
  } catch (const std::bad_alloc&) {
    set_last_error(std::string(function) + ": out of memory");
    return ZARR_ERR_NO_MEMORY;
  } catch (const std::filesystem::filesystem_error& e) {
    set_last_error(e.what());
    return ZARR_ERR_IO;
  } catch (const std::exception& e) {
    set_last_error(std::string(function) + ": internal error: " + e.what());
    return ZARR_ERR_INTERNAL;
  } catch (...) {
    set_last_error(std::string(function) + ": internal error: unknown exception");
    return ZARR_ERR_INTERNAL;
  }
}

// Throw ZARR_ERR_INVALID_ARGUMENT naming the parameter when p is NULL.
template <typename T>
T* require(T* p, const char* parameter) {
  if (!p) fail(ZARR_ERR_INVALID_ARGUMENT, std::string("argument '") + parameter + "' is NULL");
  return p;
}

// Copy a string into memory the caller frees with zarr_free.
char* copy_out(const std::string& s);

}  // namespace zarr::capi
