// The filesystem store (docs/store-filesystem.md): keys are files below a
// root folder. Its URLs are plain paths and file:///path (docs/urls.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "stores/store.h"
#include "stores/store_request.h"

namespace zarr {

struct FilesystemStoreOptions {
  // set/erase/erase_prefix throw ZARR_ERR_READ_ONLY naming the store.
  bool read_only = false;
  // fsync each value (and its directory) before/after the rename that
  // publishes it: durable across power loss, much slower. Off by default.
  bool fsync = false;
  // Folder entries one listing reads at most, all its folders together
  // (docs/store-filesystem.md): past it, ZARR_ERR_IO naming the folder.
  uint64_t max_list_entries = uint64_t{1} << 26;
};

// Filesystem store rooted at a directory (created on first write if absent).
// Keys map to files ("a/b/0.0" -> ROOT/a/b/0.0). Writes go to a temporary file
// beside the target and are renamed over it; directories left empty by erase
// or erase_prefix are removed (never the root), so listings match the memory
// store's. Reads follow symbolic links; writes and erases never pass through
// one, so nothing outside the root is ever created, changed or removed.
std::shared_ptr<Store> make_filesystem_store(const std::string& root);
std::shared_ptr<Store> make_filesystem_store(const std::string& root, bool read_only);
std::shared_ptr<Store> make_filesystem_store(const std::string& root,
                                             const FilesystemStoreOptions& options);

// The URL factory (filesystem_url.cpp): the store a path or file:// URL
// names, for request.access (see resolve_url in url.h: the root is the
// node's folder, its topmost enclosing group folder for kCreate, its parent
// for kErase). Store options: "fsync".
NodeLocation open_filesystem_url(const StoreRequest& request);

}  // namespace zarr
