#include "core/group.h"

#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "metadata/v2_metadata.h"

namespace zarr {

Group::Group(std::shared_ptr<Store> store, std::string path, bool writable)
    : store_(std::move(store)), path_(std::move(path)), writable_(writable) {}

std::unique_ptr<Group> Group::open(std::shared_ptr<Store> store, const std::string& path, bool writable) {
  NodeKind kind = node_kind(*store, path);
  if (kind == NodeKind::Array || kind == NodeKind::LegacyV1Array) {
    fail(ZARR_ERR_NOT_FOUND, "no group at " + describe_node(*store, path) + ": it is an array");
  }
  if (kind == NodeKind::None) {
    fail(ZARR_ERR_NOT_FOUND, "no group at " + describe_node(*store, path) + " (no .zgroup key)");
  }
  const std::string key = path::join(path, kV2GroupKey);
  validate_v2_group_metadata(ByteView(*store->get(key)).to_string(), key);
  return std::unique_ptr<Group>(new Group(std::move(store), path, writable));
}

std::unique_ptr<Group> Group::create(std::shared_ptr<Store> store, const std::string& path,
                                     const char* attributes_json) {
  if (attributes_json && *attributes_json) {
    json::parse_object(attributes_json, "attributes for group " + describe_node(*store, path));
  }
  require_absent(*store, path);
  create_parent_groups(*store, path);
  store->set(path::join(path, kV2GroupKey), v2_group_document());
  std::unique_ptr<Group> group(new Group(std::move(store), path, true));
  if (attributes_json && *attributes_json) group->set_attributes(attributes_json);
  return group;
}

std::vector<ChildNode> Group::children() const {
  std::vector<ChildNode> out;
  DirListing listing = store_->list_dir(path_.empty() ? "" : path_ + "/");
  for (const std::string& name : listing.prefixes) {
    NodeKind kind = node_kind(*store_, path::join(path_, name));
    if (kind == NodeKind::LegacyV1Array) kind = NodeKind::Array;
    if (kind != NodeKind::None) out.push_back({name, kind});
  }
  return out;  // list_dir gives prefixes sorted
}

std::string Group::child_path(const std::string& relative) const {
  std::string rel = path::normalize(relative);
  if (rel.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "child path '" + relative + "' names no node below the group");
  return path::join(path_, rel);
}

void Group::require_writable(const char* operation) const {
  if (!writable_) {
    fail(ZARR_ERR_READ_ONLY, std::string("cannot ") + operation + " group " + describe_node(*store_, path_) +
                                 ": it was opened read-only");
  }
}

std::unique_ptr<Array> Group::open_array(const std::string& relative, bool writable,
                                         const ArrayOptions& options) const {
  if (writable) require_writable("open an array for writing in");
  return Array::open(store_, child_path(relative), writable, options);
}

std::unique_ptr<Array> Group::create_array(const std::string& relative, const std::string& metadata_json,
                                           const ArrayOptions& options) const {
  require_writable("create an array in");
  return Array::create(store_, child_path(relative), metadata_json, options);
}

std::unique_ptr<Group> Group::open_group(const std::string& relative) const {
  return open(store_, child_path(relative), writable_);
}

std::unique_ptr<Group> Group::create_group(const std::string& relative, const char* attributes_json) const {
  require_writable("create a group in");
  return create(store_, child_path(relative), attributes_json);
}

std::string Group::attributes_json() const { return read_attributes(*store_, path::join(path_, kV2AttrsKey)); }

void Group::set_attributes(const std::string& json_text) {
  require_writable("set attributes of");
  write_attributes(*store_, path::join(path_, kV2AttrsKey), json_text);
}

}  // namespace zarr
