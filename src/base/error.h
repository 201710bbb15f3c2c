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

// The constant's name of a status code ("ZARR_ERR_NOT_FOUND"); zarr_status_name.
inline const char* status_name(int status) {
  switch (status) {
    case ZARR_OK: return "ZARR_OK";
    case ZARR_ERR_INVALID_ARGUMENT: return "ZARR_ERR_INVALID_ARGUMENT";
    case ZARR_ERR_NOT_FOUND: return "ZARR_ERR_NOT_FOUND";
    case ZARR_ERR_EXISTS: return "ZARR_ERR_EXISTS";
    case ZARR_ERR_INVALID_METADATA: return "ZARR_ERR_INVALID_METADATA";
    case ZARR_ERR_UNSUPPORTED: return "ZARR_ERR_UNSUPPORTED";
    case ZARR_ERR_CODEC: return "ZARR_ERR_CODEC";
    case ZARR_ERR_IO: return "ZARR_ERR_IO";
    case ZARR_ERR_OUT_OF_BOUNDS: return "ZARR_ERR_OUT_OF_BOUNDS";
    case ZARR_ERR_READ_ONLY: return "ZARR_ERR_READ_ONLY";
    case ZARR_ERR_NO_MEMORY: return "ZARR_ERR_NO_MEMORY";
    case ZARR_ERR_BUFFER_SIZE: return "ZARR_ERR_BUFFER_SIZE";
    case ZARR_ERR_INTERNAL: return "ZARR_ERR_INTERNAL";
    case ZARR_ERR_RANGE: return "ZARR_ERR_RANGE";
    default: return "unknown status";
  }
}

}  // namespace zarr
