#include "plugins/plugin_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <vector>

#include "base/error.h"
#include "base/plugin_hook.h"
#include "codecs/plugin_codec.h"
#include "zarr/zarr_plugin.h"

namespace fs = std::filesystem;

namespace zarr {

namespace {

struct LoaderState {
  // Recursive: a plugin's init may create codecs, which may look for plugins.
  std::recursive_mutex mutex;
  std::set<std::string> tried;        // library paths, loaded or not
  std::vector<std::string> failures;  // "FILE: reason"
};

LoaderState& state() {
  static LoaderState s;
  return s;
}

bool is_library_name(const std::string& name) {
  const size_t so = name.find(".so");
  return so != std::string::npos && so > 0 && (so + 3 == name.size() || name[so + 3] == '.');
}

std::vector<std::string> split_path(const char* value) {
  std::vector<std::string> folders;
  std::string current;
  for (const char* p = value; ; ++p) {
    if (*p == ':' || *p == '\0') {
      if (!current.empty()) folders.push_back(current);
      current.clear();
      if (*p == '\0') break;
    } else {
      current += *p;
    }
  }
  return folders;
}

// The libraries of one folder, sorted so plugins load in a stable order.
std::vector<std::string> libraries_in(const std::string& folder, std::vector<std::string>& failures) {
  std::vector<std::string> found;
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) {
    failures.push_back(folder + ": cannot list the folder (" + ec.message() + ")");
    return found;
  }
  for (const fs::directory_entry& entry : it) {
    if (entry.is_regular_file(ec) && is_library_name(entry.path().filename().string())) {
      found.push_back(entry.path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// "" when the library loaded and registered its codecs, else why not.
std::string load_library(const std::string& file) {
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return std::string("cannot load: ") + (why ? why : "unknown dlopen error");
  }
  auto init = reinterpret_cast<zarr_plugin_init_fn>(dlsym(handle, ZARR_PLUGIN_INIT_SYMBOL));
  if (!init) return std::string("no ") + ZARR_PLUGIN_INIT_SYMBOL + " entry point";
  clear_plugin_registration_error();
  const int status = init(ZARR_PLUGIN_ABI_VERSION);
  if (status == ZARR_OK) return "";
  const std::string detail = plugin_registration_error();
  return std::string(ZARR_PLUGIN_INIT_SYMBOL) + " returned " + status_name(status) +
         (detail.empty() ? "" : ": " + detail);
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : "; ") + item;
  return out;
}

}  // namespace

std::string load_plugins_of_path() {
  const char* path = std::getenv("ZARR_PLUGIN_PATH");
  LoaderState& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mutex);
  if (!path) return joined(s.failures);
  for (const std::string& folder : split_path(path)) {
    if (s.tried.count(folder)) continue;  // an unreadable folder is reported once
    std::vector<std::string> listing_failures;
    const std::vector<std::string> libraries = libraries_in(folder, listing_failures);
    if (!listing_failures.empty()) s.tried.insert(folder);
    s.failures.insert(s.failures.end(), listing_failures.begin(), listing_failures.end());
    for (const std::string& file : libraries) {
      if (!s.tried.insert(file).second) continue;
      const std::string why = load_library(file);
      if (!why.empty()) s.failures.push_back(file + ": " + why);
    }
  }
  return joined(s.failures);
}

void install_plugin_loader() { set_plugin_loader(&load_plugins_of_path); }

}  // namespace zarr
