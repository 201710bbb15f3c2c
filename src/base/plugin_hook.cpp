#include "base/plugin_hook.h"

#include <atomic>

namespace zarr {

namespace {
// Constant-initialised, so installing it from a static initialiser of the
// shared library cannot race another initialiser reading it.
std::atomic<PluginLoader> installed_loader{nullptr};
}  // namespace

void set_plugin_loader(PluginLoader loader) { installed_loader.store(loader); }

std::string load_new_plugins() {
  PluginLoader loader = installed_loader.load();
  return loader ? loader() : std::string();
}

}  // namespace zarr
