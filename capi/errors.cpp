#include <cstdlib>
#include <cstring>

#include "guard.h"

namespace zarr::capi {

thread_local std::string last_error;  // read by zarr_last_error below

void set_last_error(const std::string& message) { last_error = message; }

char* copy_out(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (!p) throw std::bad_alloc();
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

}  // namespace zarr::capi

extern "C" {

ZARR_API const char* zarr_last_error(void) { return zarr::capi::last_error.c_str(); }

ZARR_API const char* zarr_status_name(int status) {
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
    default: return "unknown status";
  }
}

ZARR_API void zarr_free(void* p) { std::free(p); }

}  // extern "C"
