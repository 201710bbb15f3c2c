#include "concurrency/thread_pool.h"
#include "guard.h"
#include "plugins/plugin_loader.h"

namespace {
// When the shared library loads: an unknown codec id or URL scheme makes the
// codec registry and the URL resolution (rooms below src/plugins/) load the
// libraries of ZARR_PLUGIN_PATH through base/plugin_hook.h.
const bool plugin_loader_installed = (zarr::install_plugin_loader(), true);
}  // namespace

extern "C" {

ZARR_API const char* zarr_version_string(void) { return ZARR_VERSION_STRING; }

ZARR_API unsigned zarr_version_number(void) { return ZARR_VERSION_NUMBER; }

ZARR_API int zarr_set_thread_count(size_t n) {
  return zarr::capi::guarded(__func__, [&] { zarr::set_thread_count(n); });
}

ZARR_API size_t zarr_thread_count(void) {
  size_t n = 1;
  zarr::capi::guarded(__func__, [&] { n = zarr::thread_count(); });  // cannot fail but for memory: then 1
  return n;
}

}  // extern "C"
