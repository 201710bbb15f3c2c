#include "hierarchy/consolidated.h"

#include <algorithm>
#include <mutex>

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

namespace {

// Consolidated entries, relative to their root: v2 "a/.zarray" -> document
// text, v3 "a" -> the node's zarr.json text.
using Entries = std::map<std::string, std::string>;

// A node's own entries: its zarr.json (v3) or its .zarray / .zgroup and
// .zattrs (v2). Nodes of the other format are not the root's to record.
void add_own_entries(const Store& store, const std::string& root, int format, const std::string& node,
                     const NodeInfo& info, Entries& entries) {
  if (info.zarr_format != format) return;
  if (format == 3) {
    const std::string key = path::join(node, kV3MetadataKey);
    entries[relative_to(root, node)] = json::to_string(json::parse_object(text_of(store, key), key));
    return;
  }
  for (const std::string& key : {path::join(node, info.metadata_key), path::join(node, kV2AttrsKey)}) {
    if (store.exists(key)) entries[relative_to(root, key)] = text_of(store, key);
  }
}

// The entries a node contributes (none for a node that is not there): its
// own, and for a group those of every node below it.
void add_node_entries(const Store& store, const std::string& root, int format, const std::string& node,
                      Entries& entries) {
  NodeInfo info = node_info(store, node);
  if (info.kind == NodeKind::None || info.kind == NodeKind::LegacyV1Array) return;
  std::vector<std::pair<std::string, NodeInfo>> nodes{{node, info}};
  if (info.kind == NodeKind::Group) collect_nodes(store, node, nodes);
  for (const auto& [path, node_info_] : nodes) add_own_entries(store, root, format, path, node_info_, entries);
}

// The root's own v2 documents (.zgroup, .zattrs) are entries too.
void add_v2_root_entries(const Store& store, const std::string& root, Entries& entries) {
  for (const char* name : {kV2GroupKey, kV2AttrsKey}) {
    const std::string key = path::join(root, name);
    if (store.exists(key)) entries[name] = text_of(store, key);
  }
}

void write_entries(Store& store, const std::string& root, int format, const Entries& entries) {
  std::string metadata;
  for (const auto& [name, document] : entries) metadata += (metadata.empty() ? "" : ",") + json::quote(name) + ":" + document;
  if (format == 2) {
    // {"metadata": {"<key>": <document>, ...}, "zarr_consolidated_format": 1}
    rapidjson::Document doc = json::parse("{\"metadata\":{" + metadata + "},\"zarr_consolidated_format\":1}", kV2ConsolidatedKey);
    json::sort_keys(doc);
    store.set(path::join(root, kV2ConsolidatedKey), json::to_pretty_string(doc));
    return;
  }
  // v3: the root group's zarr.json carries every descendant's zarr.json.
  const std::string root_key = path::join(root, kV3MetadataKey);
  GroupMetadataV3 group = parse_v3_group_metadata(text_of(store, root_key), root_key);
  group.consolidated_json = "{\"kind\":\"inline\",\"must_understand\":false,\"metadata\":{" + metadata + "}}";
  store.set(root_key, serialize_v3_group_metadata(group));
}

// The entries stored at `root`, with the format that holds them; nullopt
// when the root has no consolidated metadata.
std::optional<std::pair<int, Entries>> stored_entries(const Store& store, const std::string& root) {
  std::optional<std::map<std::string, std::string>> documents = read_consolidated(store, root);
  if (!documents) return std::nullopt;
  const bool v2 = store.exists(path::join(root, kV2ConsolidatedKey));
  Entries entries;
  for (auto& [key, document] : *documents) {
    const std::string relative = relative_to(root, key);
    entries[v2 ? relative : path::parent(relative)] = std::move(document);
  }
  return std::make_pair(v2 ? 2 : 3, std::move(entries));
}

// Consolidated documents are read, changed and written back whole: one
// writer at a time within the process.
std::mutex& consolidated_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

size_t write_consolidated(Store& store, const std::string& root) {
  NodeInfo root_info = node_info(store, root);
  if (root_info.kind != NodeKind::Group) {
    fail(ZARR_ERR_NOT_FOUND, "cannot consolidate: no group at " + describe_node(store, root));
  }
  std::lock_guard<std::mutex> lock(consolidated_mutex());
  std::vector<std::pair<std::string, NodeInfo>> nodes;
  collect_nodes(store, root, nodes);
  Entries entries;
  if (root_info.zarr_format == 2) add_v2_root_entries(store, root, entries);
  for (const auto& [node, info] : nodes) add_own_entries(store, root, root_info.zarr_format, node, info, entries);
  write_entries(store, root, root_info.zarr_format, entries);
  return nodes.size();
}

void update_consolidated(Store& store, const std::string& node) {
  if (!store.writable()) return;
  std::lock_guard<std::mutex> lock(consolidated_mutex());
  for (std::string root = node;; root = path::parent(root)) {
    if (std::optional<std::pair<int, Entries>> stored = stored_entries(store, root)) {
      auto& [format, entries] = *stored;
      if (root == node) {
        // The root itself changed (its attributes): v2 keeps its own documents as entries.
        if (format == 2) add_v2_root_entries(store, root, entries);
      } else {
        // Every entry of the node and below it goes, then what the store holds now comes back.
        const std::string relative = relative_to(root, node);
        for (auto it = entries.begin(); it != entries.end();) {
          const bool below = it->first == relative || it->first.rfind(relative + "/", 0) == 0;
          it = below ? entries.erase(it) : std::next(it);
        }
        add_node_entries(store, root, format, node, entries);
        // Groups created on the way to a new node (create_parent_groups) are entries too.
        for (std::string above = path::parent(node); above.size() > root.size(); above = path::parent(above)) {
          NodeInfo info = node_info(store, above);
          if (info.kind == NodeKind::Group) add_own_entries(store, root, format, above, info, entries);
        }
      }
      write_entries(store, root, format, entries);
    }
    if (root.empty()) break;
  }
}

}  // namespace zarr
