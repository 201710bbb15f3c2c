#include "core/hierarchy.h"

#include "core/error.h"
#include "core/json.h"
#include "core/path.h"
#include "metadata/v1_metadata.h"
#include "metadata/v2_metadata.h"

namespace zarr {

NodeKind node_kind(const Store& store, const std::string& path) {
  if (store.exists(path::join(path, kV2ArrayKey))) return NodeKind::Array;
  if (store.exists(path::join(path, kV2GroupKey))) return NodeKind::Group;
  if (store.exists(path::join(path, kV1MetaKey))) return NodeKind::LegacyV1Array;
  return NodeKind::None;
}

std::string describe_node(const Store& store, const std::string& path) {
  return "'" + (path.empty() ? std::string("/") : path) + "' in " + store.describe();
}

void require_absent(const Store& store, const std::string& path) {
  NodeKind kind = node_kind(store, path);
  if (kind == NodeKind::None) return;
  const char* what = kind == NodeKind::Group ? "a group" : "an array";
  fail(ZARR_ERR_EXISTS, "cannot create node " + describe_node(store, path) + ": " + what + " is already there");
}

void create_parent_groups(Store& store, const std::string& path) {
  // As zarr-python: every ancestor of a non-root node, the root included.
  std::vector<std::string> segs = path::segments(path);
  std::string ancestor;
  for (size_t i = 0; i < segs.size(); ++i) {
    if (i > 0) ancestor = path::join(ancestor, segs[i - 1]);
    NodeKind kind = node_kind(store, ancestor);
    if (kind == NodeKind::Group) continue;
    if (kind != NodeKind::None) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "cannot create node " + describe_node(store, path) + ": its parent " +
                                          describe_node(store, ancestor) + " is an array");
    }
    store.set(path::join(ancestor, kV2GroupKey), v2_group_document());
  }
}

std::string read_attributes(const Store& store, const std::string& attrs_key) {
  std::optional<Bytes> raw = store.get(attrs_key);
  if (!raw) return "{}";
  rapidjson::Document doc = json::parse_object(ByteView(*raw).to_string(), attrs_key);
  return json::to_string(doc);
}

void write_attributes(Store& store, const std::string& attrs_key, const std::string& json_text) {
  rapidjson::Document doc = json::parse_object(json_text, "attributes for " + attrs_key);
  store.set(attrs_key, json::to_pretty_string(doc));
}

}  // namespace zarr
