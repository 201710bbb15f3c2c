// Builds without libcurl: the http, https and s3 schemes are known but
// refused, so the message says what is missing instead of "unknown scheme".
#include "base/error.h"
#include "stores/http_store.h"
#include "stores/s3_store.h"

namespace zarr {

namespace {

[[noreturn]] void fail_without_curl(const StoreRequest& request) {
  fail(ZARR_ERR_UNSUPPORTED, request.shown("libzarr was built without libcurl, which the " + request.scheme +
                                           " store needs (meson option -Dcurl=enabled)"));
}

}  // namespace

NodeLocation open_http_store(const StoreRequest& request) { fail_without_curl(request); }
NodeLocation open_s3_store(const StoreRequest& request) { fail_without_curl(request); }

}  // namespace zarr
