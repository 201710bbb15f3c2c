#include "consolidated_sync.h"

#include "base/path.h"
#include "hierarchy/consolidated.h"
#include "metadata/nodes.h"
#include "stores/url.h"

namespace zarr::capi {

namespace {

// A plain filesystem path: no scheme, no zip suffix.
bool is_local_path(const std::string& url) {
  return !url.empty() && url.find("://") == std::string::npos && url.find('|') == std::string::npos;
}

// Folders climbed above a URL's own store at most: deeper hierarchies keep
// only the consolidated metadata within this many levels in step.
constexpr int kMaxLevelsAbove = 32;

}  // namespace

void keep_consolidated_in_step(const std::string& url, Store& store, const std::string& path) {
  if (is_local_path(url)) {
    NodeLocation hierarchy = resolve_url(url, StoreAccess::kCreate);
    update_consolidated(*hierarchy.store, hierarchy.path);
    return;
  }
  // A URL below a hierarchy's root (an S3 prefix): climb while the folder
  // above is a group of the hierarchy, so the root's consolidated metadata
  // is found as for a node reached through the root group.
  if (!store.writable()) return;
  Store* top = &store;
  std::shared_ptr<Store> holder;
  std::string relative = path;
  for (int level = 0; level < kMaxLevelsAbove; ++level) {
    std::optional<Store::Above> above = top->store_above();
    if (!above || node_kind(*above->store, "") != NodeKind::Group) break;
    holder = std::move(above->store);
    top = holder.get();
    relative = path::join(above->name, relative);
  }
  update_consolidated(*top, relative);
}

}  // namespace zarr::capi
