// The filesystem store's URLs: which folder becomes the store's root for
// each access (filesystem_store.h), and its store options.
#include <filesystem>

#include "base/error.h"
#include "base/metadata_keys.h"
#include "base/path.h"
#include "stores/filesystem_store.h"

namespace fs = std::filesystem;

namespace zarr {

namespace {

// The topmost folder above `node` that belongs to the same hierarchy: walk up
// past folders that do not exist yet (they will be created) and folders that
// are nodes (.zgroup, .zarray or zarr.json); stop at the first other existing
// folder. An array's folder is passed too, so that creating below it is
// refused as a node inside an array (create_parent_groups) whatever its format.
fs::path hierarchy_root(const fs::path& node) {
  fs::path root = node;
  for (fs::path dir = node.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    std::error_code ec;
    if (fs::exists(dir / kV2GroupKey, ec) || fs::exists(dir / kV2ArrayKey, ec) ||
        fs::exists(dir / kV3MetadataKey, ec)) {
      root = dir;
    } else if (fs::exists(dir, ec)) {
      break;
    }
    if (dir == dir.root_path()) break;
  }
  return root;
}

// The node's folder as opening it finds it: the kernel follows the links and
// ".." of the path in order (weakly_canonical; a missing tail is normalised
// as text, as nothing there can be a link), so creating or erasing
// "data/link/.." acts on the folder that opening it reads, never on "data".
// The last name stays as written, so that erasing a link removes the link.
fs::path resolved_node(const StoreRequest& request) {
  std::string location = request.location;
  while (location.size() > 1 && location.back() == '/') location.pop_back();  // trailing slashes
  std::error_code ec;
  fs::path node = fs::absolute(fs::path(location), ec);
  if (!ec) {
    const fs::path name = node.filename();
    const bool keep_name = !name.empty() && name != "." && name != "..";
    fs::path resolved = fs::weakly_canonical(keep_name ? node.parent_path() : node, ec);
    node = keep_name ? resolved / name : resolved;
  }
  if (ec) fail(ZARR_ERR_IO, "cannot resolve the path '" + request.location + "': " + ec.message());
  return node;
}

}  // namespace

NodeLocation open_filesystem_url(const StoreRequest& request) {
  request.allow_only("filesystem", {"fsync"});
  FilesystemStoreOptions options;
  options.read_only = !request.writes();
  options.fsync = request.bool_option("fsync").value_or(false);
  const bool above_node = request.access == StoreAccess::kCreate || request.access == StoreAccess::kErase;
  if (!above_node) return {make_filesystem_store(request.location, options), ""};
  const fs::path node = resolved_node(request);
  const bool is_root_dir = node == node.root_path();
  fs::path root = request.access == StoreAccess::kCreate || is_root_dir ? hierarchy_root(node) : node.parent_path();
  std::string relative = node.lexically_relative(root).generic_string();
  return {make_filesystem_store(root.string(), options), path::normalize(relative == "." ? "" : relative)};
}

}  // namespace zarr
