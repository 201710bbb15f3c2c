#include <cstdlib>
#include <cstring>

#include "base/scrub.h"
#include "guard.h"

namespace zarr::capi {

thread_local std::string last_error;  // read by zarr_last_error below

// The one door every message goes out by: URLs in it lose their userinfo
// and query whatever built the message (stores also hide the secrets they
// hold, such as header values, where they build theirs).
void set_last_error(const std::string& message) { last_error = scrub_secrets(message); }

char* copy_out(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (!p) throw std::bad_alloc();
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

}  // namespace zarr::capi

extern "C" {

ZARR_API const char* zarr_last_error(void) { return zarr::capi::last_error.c_str(); }

ZARR_API const char* zarr_status_name(int status) { return zarr::status_name(status); }

ZARR_API void zarr_free(void* p) { std::free(p); }

}  // extern "C"
