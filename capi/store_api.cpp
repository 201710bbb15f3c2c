// zarr_store_register (zarr_plugin.h): stores a program brings under its own
// URL scheme.
#include "guard.h"
#include "stores/url.h"
#include "zarr/zarr_plugin.h"

extern "C" {

ZARR_API int zarr_store_register(const zarr_store_vtable* vtable) {
  return zarr::capi::guarded(__func__, [&] { zarr::register_url_store(vtable); });
}

}  // extern "C"
