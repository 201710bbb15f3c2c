// The rooms below src/plugins/ (the codec registry, the URL scheme table) meet
// names they do not know, which a plugin library of ZARR_PLUGIN_PATH may
// register when loaded. They ask through this hook; the plugins room installs
// its loader here when the library initialises (capi/library_api.cpp), so no
// lower room includes src/plugins/ (the floors stay acyclic).
#pragma once

#include <string>

namespace zarr {

using PluginLoader = std::string (*)();

// Install the loader (once, before any API call; nullptr uninstalls).
void set_plugin_loader(PluginLoader loader);

// Load the plugin libraries not tried yet through the installed loader. Never
// throws. Returns the failures so far, "; "-separated ("" when none, and when
// no loader is installed: programs built on the rooms without the C API).
std::string load_new_plugins();

}  // namespace zarr
