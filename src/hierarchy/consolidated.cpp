#include "hierarchy/consolidated.h"

#include <algorithm>

#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "metadata/nodes.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"
#include "stores/key_rules.h"

namespace zarr {

namespace {

std::string text_of(const Store& store, const std::string& key) {
  std::optional<Bytes> value = store.get(key);
  if (!value) fail(ZARR_ERR_NOT_FOUND, "metadata key '" + key + "' vanished while consolidating");
  return ByteView(*value).to_string();
}

// Every node below `dir` (not `dir` itself), depth first, as (path, info).
void collect_nodes(const Store& store, const std::string& dir, std::vector<std::pair<std::string, NodeInfo>>& out) {
  for (const std::string& name : store.list_dir(dir.empty() ? "" : dir + "/").prefixes) {
    const std::string child = path::join(dir, name);
    NodeInfo info = node_info(store, child);
    if (info.kind == NodeKind::None || info.kind == NodeKind::LegacyV1Array) continue;
    out.emplace_back(child, info);
    if (info.kind == NodeKind::Group) collect_nodes(store, child, out);
  }
}

// "a/b/c" relative to root "a" is "b/c".
std::string relative_to(const std::string& root, const std::string& key) {
  return root.empty() ? key : key.substr(root.size() + 1);
}

// A node path named in a consolidated document: the document is data from
// the store, so each of its '/'-separated parts must be one segment as it
// stands (path::segment_problem: no "." or "..", no '\\', no NUL, none
// empty), else it is bad metadata naming the entry, not a bad argument of
// the caller. A name that normalising would change could name another node.
std::string consolidated_path(const std::string& root, const rapidjson::Value& name, const std::string& document) {
  const std::string entry = json::text(name);
  for (size_t begin = 0; begin <= entry.size();) {
    const size_t end = std::min(entry.find('/', begin), entry.size());
    const std::string problem = path::segment_problem(entry.substr(begin, end - begin));
    if (!problem.empty()) {
      fail(ZARR_ERR_INVALID_METADATA, document + ": consolidated entry " + keys::quote(entry) +
                                          " is not a path of node names: " + problem);
    }
    begin = end + 1;
  }
  return path::join(root, entry);
}

}  // namespace

std::optional<std::map<std::string, std::string>> read_consolidated(const Store& store, const std::string& root) {
  std::map<std::string, std::string> documents;
  const std::string v2_key = path::join(root, kV2ConsolidatedKey);
  if (std::optional<Bytes> raw = store.get(v2_key)) {
    rapidjson::Document doc = json::parse_object(ByteView(*raw).to_string(), v2_key);
    const rapidjson::Value& metadata = json::require(doc, "metadata", v2_key);
    if (!metadata.IsObject()) fail(ZARR_ERR_INVALID_METADATA, v2_key + ": field 'metadata' must be an object");
    for (auto it = metadata.MemberBegin(); it != metadata.MemberEnd(); ++it) {
      documents[consolidated_path(root, it->name, v2_key)] = json::to_string(it->value);
    }
    return documents;
  }
  const std::string v3_key = path::join(root, kV3MetadataKey);
  std::optional<Bytes> raw = store.get(v3_key);
  if (!raw) return std::nullopt;
  std::string text = ByteView(*raw).to_string();
  if (v3_node_type(text, v3_key) != "group") return std::nullopt;
  GroupMetadataV3 group = parse_v3_group_metadata(text, v3_key);
  if (group.consolidated_json.empty()) return std::nullopt;
  rapidjson::Document consolidated = json::parse_object(group.consolidated_json, v3_key + ": consolidated_metadata");
  const rapidjson::Value& metadata = json::require(consolidated, "metadata", v3_key + ": consolidated_metadata");
  if (!metadata.IsObject()) {
    fail(ZARR_ERR_INVALID_METADATA, v3_key + ": field 'consolidated_metadata.metadata' must be an object");
  }
  for (auto it = metadata.MemberBegin(); it != metadata.MemberEnd(); ++it) {
    const std::string node = consolidated_path(root, it->name, v3_key);
    documents[path::join(node, kV3MetadataKey)] = json::to_string(it->value);
  }
  return documents;
}

size_t write_consolidated(Store& store, const std::string& root) {
  NodeInfo root_info = node_info(store, root);
  if (root_info.kind != NodeKind::Group) {
    fail(ZARR_ERR_NOT_FOUND, "cannot consolidate: no group at " + describe_node(store, root));
  }
  std::vector<std::pair<std::string, NodeInfo>> nodes;
  collect_nodes(store, root, nodes);
  if (root_info.zarr_format == 2) {
    // {"metadata": {"<key>": <document>, ...}, "zarr_consolidated_format": 1}
    std::string metadata;
    auto add = [&](const std::string& key) {
      if (!store.exists(key)) return;
      metadata += (metadata.empty() ? "" : ",") + json::quote(relative_to(root, key)) + ":" + text_of(store, key);
    };
    add(path::join(root, kV2GroupKey));
    add(path::join(root, kV2AttrsKey));
    for (const auto& [node, info] : nodes) {
      add(path::join(node, info.metadata_key));
      add(path::join(node, kV2AttrsKey));
    }
    rapidjson::Document doc = json::parse("{\"metadata\":{" + metadata + "},\"zarr_consolidated_format\":1}", kV2ConsolidatedKey);
    json::sort_keys(doc);
    store.set(path::join(root, kV2ConsolidatedKey), json::to_pretty_string(doc));
    return nodes.size();
  }
  // v3: the root group's zarr.json carries every descendant's zarr.json.
  std::string metadata;
  for (const auto& [node, info] : nodes) {
    rapidjson::Document child = json::parse_object(text_of(store, path::join(node, kV3MetadataKey)), node);
    metadata += (metadata.empty() ? "" : ",") + json::quote(relative_to(root, node)) + ":" + json::to_string(child);
  }
  const std::string root_key = path::join(root, kV3MetadataKey);
  GroupMetadataV3 group = parse_v3_group_metadata(text_of(store, root_key), root_key);
  group.consolidated_json = "{\"kind\":\"inline\",\"must_understand\":false,\"metadata\":{" + metadata + "}}";
  store.set(root_key, serialize_v3_group_metadata(group));
  return nodes.size();
}

}  // namespace zarr
