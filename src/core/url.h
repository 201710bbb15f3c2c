// From a URL to a store and the node's path inside it (docs/urls.md).
//
//   /abs/path, rel/path, file:///abs/path   filesystem
//   memory://NAME[/node/path]               in-process store shared by name
#pragma once

#include <memory>
#include <string>

#include "stores/store.h"

namespace zarr {

struct NodeLocation {
  std::shared_ptr<Store> store;
  std::string path;  // normalised node path inside the store ("" for its root)
};

// For opening a node: a filesystem URL is the node's own folder (the store's
// root); memory URLs name the store and the path inside it.
NodeLocation resolve_for_open(const std::string& url);

// For creating a node: as resolve_for_open, except that a filesystem store is
// rooted at the topmost enclosing group folder (one holding .zgroup), so the
// missing groups between it and the new node are created as the spec asks.
NodeLocation resolve_for_create(const std::string& url);

}  // namespace zarr
