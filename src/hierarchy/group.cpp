#include "hierarchy/group.h"

#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "hierarchy/consolidated.h"
#include "metadata/node_attributes.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"
#include "stores/consolidated_store.h"
#include "stores/key_rules.h"

namespace zarr {

Group::Group(std::shared_ptr<Store> store, std::string path, bool writable, int zarr_format,
             std::optional<std::string> attributes)
    : store_(std::move(store)),
      path_(std::move(path)),
      writable_(writable),
      zarr_format_(zarr_format),
      attributes_(std::move(attributes)) {}

std::unique_ptr<Group> Group::open(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                   Consolidated consolidated) {
  // Read-only handles may take every metadata document from the consolidated
  // metadata: opening children and listing then never list the store.
  if (!writable && consolidated != Consolidated::Never) {
    std::optional<std::map<std::string, std::string>> documents = read_consolidated(*store, path);
    if (documents) {
      store = make_consolidated_store(std::move(store), path, std::move(*documents));
    } else if (consolidated == Consolidated::Required) {
      fail(ZARR_ERR_NOT_FOUND, "group " + describe_node(*store, path) + " has no consolidated metadata");
    }
  } else if (consolidated == Consolidated::Required) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "consolidated metadata is read-only: open the group with mode \"r\"");
  }
  NodeInfo node = node_info(*store, path);
  if (node.kind == NodeKind::Array || node.kind == NodeKind::LegacyV1Array) {
    fail(ZARR_ERR_NOT_FOUND, "no group at " + describe_node(*store, path) + ": it is an array");
  }
  if (node.kind == NodeKind::None) {
    fail(ZARR_ERR_NOT_FOUND, "no group at " + describe_node(*store, path) + " (no .zgroup or zarr.json key)");
  }
  const std::string key = path::join(path, node.metadata_key);
  const std::string text = ByteView(*store->get(key)).to_string();
  std::optional<std::string> attributes;
  if (node.zarr_format == 3) {
    attributes = parse_v3_group_metadata(text, key).attributes_json;
  } else {
    validate_v2_group_metadata(text, key);
  }
  return std::unique_ptr<Group>(new Group(std::move(store), path, writable, node.zarr_format, std::move(attributes)));
}

std::unique_ptr<Group> Group::create(std::shared_ptr<Store> store, const std::string& path,
                                     const char* attributes_json, int zarr_format) {
  // One rule for formats: a new node takes its hierarchy's format; a new
  // root is Zarr v3, as in zarr-python 3.
  if (zarr_format == 0) zarr_format = enclosing_group_format(*store, path);
  if (zarr_format == 0) zarr_format = 3;
  if (zarr_format != 2 && zarr_format != 3) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_format must be 2 or 3, got " + std::to_string(zarr_format));
  }
  GroupMetadataV3 v3;
  if (attributes_json && *attributes_json) {
    rapidjson::Document attrs = json::parse_object(attributes_json, "attributes for group " + describe_node(*store, path));
    v3.attributes_json = json::to_string(attrs);
  }
  validate_node_names(path, zarr_format, "group " + describe_node(*store, path));
  require_absent(*store, path);
  create_parent_groups(*store, path, zarr_format, "group");
  std::unique_ptr<Group> group(new Group(std::move(store), path, true, zarr_format));
  if (zarr_format == 3) {
    group->store_->set(path::join(path, kV3MetadataKey), serialize_v3_group_metadata(v3));
  } else {
    group->store_->set(path::join(path, kV2GroupKey), v2_group_document());
    if (attributes_json && *attributes_json) group->set_attributes(attributes_json);
  }
  return group;
}

std::vector<ChildNode> Group::children() const {
  std::vector<ChildNode> out;
  DirListing listing = store_->list_dir(path_.empty() ? "" : path_ + "/");
  for (const std::string& name : listing.prefixes) {
    // A child is opened (and copied, and joined into URLs) by its name: one
    // that is not a single segment as it stands would name another node.
    // Names no key can hold ("..", NUL) have no node below them.
    const std::string problem = path::segment_problem(name);
    if (!problem.empty() && !keys::is_valid_key(path::join(path_, name) + "/" + kV2GroupKey)) continue;
    NodeKind kind = node_kind(*store_, path::join(path_, name));
    if (kind == NodeKind::LegacyV1Array) kind = NodeKind::Array;
    if (kind == NodeKind::None) continue;
    if (!problem.empty()) {
      fail(ZARR_ERR_INVALID_METADATA, "group " + describe_node(*store_, path_) + ": child " + keys::quote(name) +
                                          " is not a node name: " + problem);
    }
    out.push_back({name, kind});
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
  // One hierarchy, one format: zarr-python reads no mixed trees.
  int format = metadata_document_format(metadata_json, "metadata for '" + relative + "'");
  refuse_format_mixing(format, "array", relative, zarr_format_, describe_node(*store_, path_));
  return Array::create(store_, child_path(relative), metadata_json, options);
}

std::unique_ptr<Group> Group::open_group(const std::string& relative) const {
  std::unique_ptr<Group> child = open(store_, child_path(relative), writable_, Consolidated::Never);
  child->process_lock_dir_ = process_lock_dir_;
  return child;
}

std::unique_ptr<Group> Group::create_group(const std::string& relative, const char* attributes_json) const {
  require_writable("create a group in");
  std::unique_ptr<Group> child = create(store_, child_path(relative), attributes_json, zarr_format_);
  child->process_lock_dir_ = process_lock_dir_;
  return child;
}

std::string Group::metadata_key() const {
  return path::join(path_, zarr_format_ == 3 ? kV3MetadataKey : kV2AttrsKey);
}

std::string Group::attributes_json() const {
  std::lock_guard<std::mutex> cached(attributes_mutex_);
  if (!attributes_) attributes_ = read_attributes_document();
  return *attributes_;
}

std::string Group::attribute(const std::string& key) const {
  return attribute_value(attributes_json(), key, "group " + describe_node(*store_, path_));
}

std::string Group::read_attributes_document() const {
  if (zarr_format_ != 3) return read_attributes(*store_, metadata_key());
  std::optional<Bytes> doc = store_->get(metadata_key());
  if (!doc) fail(ZARR_ERR_NOT_FOUND, "group " + describe_node(*store_, path_) + " no longer exists");
  return parse_v3_group_metadata(ByteView(*doc).to_string(), metadata_key()).attributes_json;
}

void Group::set_attributes(const std::string& json_text) {
  require_writable("set attributes of");
  change_attributes(replacing_attributes(json_text, "attributes for group " + describe_node(*store_, path_)));
}

void Group::update_attributes(const std::string& json_object) {
  require_writable("update attributes of");
  change_attributes(merging_attributes(json_object, "attributes update for group " + describe_node(*store_, path_)));
}

// The stored attributes change under the node's lock (v3: only the
// attributes member of zarr.json); the handle then shows what was written.
void Group::change_attributes(const AttributesChange& change) {
  const AttributesNode node{*store_, path_, zarr_format_, "group " + describe_node(*store_, path_), process_lock_dir_};
  std::string now = change_stored_attributes(node, change);
  std::lock_guard<std::mutex> cached(attributes_mutex_);
  attributes_ = std::move(now);
}

}  // namespace zarr
