#include "consolidated_sync.h"

#include "hierarchy/consolidated.h"
#include "stores/url.h"

namespace zarr::capi {

namespace {

// A plain filesystem path: no scheme, no zip suffix.
bool is_local_path(const std::string& url) {
  return !url.empty() && url.find("://") == std::string::npos && url.find('|') == std::string::npos;
}

}  // namespace

void keep_consolidated_in_step(const std::string& url, Store& store, const std::string& path) {
  if (is_local_path(url)) {
    NodeLocation hierarchy = resolve_url(url, StoreAccess::kCreate);
    update_consolidated(*hierarchy.store, hierarchy.path);
    return;
  }
  update_consolidated(store, path);
}

}  // namespace zarr::capi
