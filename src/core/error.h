// Internal error type. Every failure inside the library is thrown as a
// zarr::Error carrying one of the public ZARR_ERR_* codes and a message that
// names the key, file or field at fault; the C API layer (capi/) catches it
// and turns it into a return code plus zarr_last_error().
#pragma once

#include <stdexcept>
#include <string>

#include "zarr/zarr.h"

namespace zarr {

class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

[[noreturn]] inline void fail(int code, const std::string& message) { throw Error(code, message); }

}  // namespace zarr
