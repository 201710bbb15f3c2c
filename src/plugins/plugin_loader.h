// Plugins: shared libraries in the folders of ZARR_PLUGIN_PATH, each
// exporting zarr_plugin_init (include/zarr/zarr_plugin.h), which registers
// codecs (zarr_register_codec) and stores (zarr_register_store).
#pragma once

#include <string>

namespace zarr {

// Load every plugin library of ZARR_PLUGIN_PATH (a ':'-separated list of
// folders; files named *.so or *.so.N) not tried before in this process, and
// call its zarr_plugin_init. Never throws. Returns the failures so far, one
// "FILE: reason" each, "; "-separated ("" when none): a folder that cannot be
// listed, a library dlopen refuses, a missing entry point, an init that
// returned an error. Libraries are never unloaded (their codecs may be in use).
std::string load_plugins_of_path();

// Make load_plugins_of_path the loader the lower rooms call on an unknown
// codec id or URL scheme (base/plugin_hook.h).
void install_plugin_loader();

}  // namespace zarr
