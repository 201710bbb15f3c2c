// RAII handles and status text for the interop tests (public C API only).
#pragma once

#include <string>

#include "zarr/zarr.h"

namespace zarr::interop {

class Array {
 public:
  Array() = default;
  ~Array() { zarr_close(a_); }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  zarr_array** out() {
    zarr_close(a_);
    a_ = nullptr;
    return &a_;
  }
  zarr_array* get() const { return a_; }
  operator zarr_array*() const { return a_; }  // NOLINT: for C calls
  void close() {
    zarr_close(a_);
    a_ = nullptr;
  }

 private:
  zarr_array* a_ = nullptr;
};

class Group {
 public:
  Group() = default;
  ~Group() { zarr_group_close(g_); }
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;
  zarr_group** out() {
    zarr_group_close(g_);
    g_ = nullptr;
    return &g_;
  }
  operator zarr_group*() const { return g_; }  // NOLINT: for C calls

 private:
  zarr_group* g_ = nullptr;
};

// "ZARR_ERR_X: <zarr_last_error()>"
inline std::string status_text(int status) {
  return std::string(zarr_status_name(status)) + ": " + zarr_last_error();
}

// A string the library allocated, freed with zarr_free.
class LibString {
 public:
  LibString() = default;
  ~LibString() { zarr_free(s_); }
  LibString(const LibString&) = delete;
  LibString& operator=(const LibString&) = delete;
  char** out() {
    zarr_free(s_);
    s_ = nullptr;
    return &s_;
  }
  std::string str() const { return s_ ? s_ : ""; }

 private:
  char* s_ = nullptr;
};

}  // namespace zarr::interop
