#include "metadata/nodes.h"

#include <utility>

#include "base/error.h"
#include "base/json.h"
#include "base/metadata_keys.h"
#include "base/path.h"
#include "metadata/v1_metadata.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"

namespace zarr {

NodeInfo node_info(const Store& store, const std::string& path, int only_format) {
  auto wanted = [&](int format) { return only_format == 0 || only_format == format; };
  if (wanted(3)) {
    const std::string v3_key = path::join(path, kV3MetadataKey);
    if (std::optional<Bytes> doc = store.get(v3_key)) {
      std::string type = v3_node_type(ByteView(*doc).to_string(), v3_key);
      if (type == "array") return {NodeKind::Array, 3, kV3MetadataKey};
      if (type == "group") return {NodeKind::Group, 3, kV3MetadataKey};
      fail(ZARR_ERR_INVALID_METADATA,
           v3_key + ": field 'node_type' must be \"array\" or \"group\", got " + json::quote(type));
    }
  }
  if (wanted(2)) {
    if (store.exists(path::join(path, kV2ArrayKey))) return {NodeKind::Array, 2, kV2ArrayKey};
    if (store.exists(path::join(path, kV2GroupKey))) return {NodeKind::Group, 2, kV2GroupKey};
  }
  if (wanted(1) && store.exists(path::join(path, kV1MetaKey))) return {NodeKind::LegacyV1Array, 1, kV1MetaKey};
  return {};
}

void validate_node_names(const std::string& path, int zarr_format, const std::string& where) {
  // A node named as a metadata document of either format would be read as
  // that document by every reader (and stop a migration half-way), whatever
  // the format it is created in.
  for (const std::string& name : path::segments(path)) {
    for (const char* key : {kV2ArrayKey, kV2GroupKey, kV2AttrsKey, kV2ConsolidatedKey, kV3MetadataKey}) {
      if (name == key) {
        fail(ZARR_ERR_INVALID_ARGUMENT,
             where + ": the node name '" + name + "' is the name of a metadata document, not a node's");
      }
    }
    if (zarr_format == 3) validate_v3_node_name(name, where);
  }
}

std::string empty_group_document(int zarr_format) {
  return zarr_format == 3 ? serialize_v3_group_metadata(GroupMetadataV3{}) : v2_group_document();
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

void erase_node(Store& store, const std::string& path) {
  if (node_kind(store, path) == NodeKind::None) {
    fail(ZARR_ERR_NOT_FOUND, "cannot erase " + describe_node(store, path) + ": no array or group is there");
  }
  store.erase_prefix(path.empty() ? "" : path + "/");
}

const char kOneFormatPerHierarchy[] = "one hierarchy has one format (zarr-python reads no mixed trees)";

void refuse_format_mixing(int format, const std::string& what, const std::string& name, int group_format,
                          const std::string& group) {
  if (format == group_format) return;
  fail(ZARR_ERR_INVALID_ARGUMENT, "cannot create a Zarr v" + std::to_string(format) + " " + what + " '" + name +
                                      "' in the Zarr v" + std::to_string(group_format) + " group " + group + ": " +
                                      kOneFormatPerHierarchy + "; create it as v" + std::to_string(group_format) +
                                      ", or elsewhere");
}

int enclosing_group_format(const Store& store, const std::string& path) {
  std::vector<std::string> segs = path::segments(path);
  while (!segs.empty()) {
    segs.pop_back();
    std::string ancestor;
    for (const std::string& seg : segs) ancestor = path::join(ancestor, seg);
    NodeInfo info = node_info(store, ancestor);
    if (info.kind == NodeKind::Group) return info.zarr_format;
  }
  return 0;
}

void create_parent_groups(Store& store, const std::string& path, int zarr_format, const std::string& what) {
  // As zarr-python: every ancestor of a non-root node, the root included.
  // Every existing ancestor is checked before anything is written, so a
  // refused node leaves no new group behind.
  // An array above the node is reported before a format that differs from
  // a group's further up: no format would make a node inside an array right.
  std::vector<std::string> segs = path::segments(path);
  std::vector<std::pair<std::string, NodeInfo>> ancestors;
  std::string ancestor;
  for (size_t i = 0; i < segs.size(); ++i) {
    if (i > 0) ancestor = path::join(ancestor, segs[i - 1]);
    ancestors.emplace_back(ancestor, node_info(store, ancestor));
    if (ancestors.back().second.kind != NodeKind::Group && ancestors.back().second.kind != NodeKind::None) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "cannot create node " + describe_node(store, path) + ": its parent " +
                                          describe_node(store, ancestor) + " is an array");
    }
  }
  std::vector<std::string> missing;
  for (const auto& [name, info] : ancestors) {
    if (info.kind == NodeKind::Group) {
      refuse_format_mixing(zarr_format, what, path, info.zarr_format, describe_node(store, name));
    } else {
      missing.push_back(name);
    }
  }
  for (const std::string& group : missing) {
    store.set(path::join(group, zarr_format == 3 ? kV3MetadataKey : kV2GroupKey), empty_group_document(zarr_format));
  }
}

std::string read_attributes(const Store& store, const std::string& attrs_key) {
  std::optional<Bytes> raw = store.get(attrs_key);
  if (!raw) return "{}";
  rapidjson::Document doc = json::parse_object(ByteView(*raw).to_string(), attrs_key);
  return json::to_string(doc);
}

std::string write_attributes(Store& store, const std::string& attrs_key, const std::string& json_text) {
  rapidjson::Document doc = json::parse_object(json_text, "attributes for " + attrs_key);
  store.set(attrs_key, json::to_pretty_string(doc));
  return json::to_string(doc);
}

}  // namespace zarr
