// What sits at a path of a store (array, group, nothing), attributes, and
// creating the parent groups a new node needs.
#pragma once

#include <memory>
#include <string>

#include "stores/store.h"

namespace zarr {

enum class NodeKind { None, Array, Group, LegacyV1Array };

struct NodeInfo {
  NodeKind kind = NodeKind::None;
  int zarr_format = 0;       // 1, 2 or 3 (0 for None)
  std::string metadata_key;  // ".zarray", ".zgroup", "zarr.json" or "meta" under the node's path
};

// What is at a normalised path, from the metadata keys present: zarr.json
// first (its node_type says array or group), then the v2 keys, then the v1
// "meta" key. Where both zarr.json and .zarray/.zgroup exist (zarrs and some
// converters leave both), the node is v3, as zarr-python 3 decides.
// `only_format` (1, 2 or 3) looks for that format's keys alone; 0: any.
NodeInfo node_info(const Store& store, const std::string& path, int only_format = 0);
inline NodeKind node_kind(const Store& store, const std::string& path) { return node_info(store, path).kind; }

// Describe a node for messages: "array at 'a/b' in /data/x.zarr".
std::string describe_node(const Store& store, const std::string& path);

// Fail with ZARR_ERR_EXISTS when any node is at path.
void require_absent(const Store& store, const std::string& path);

// Erase the node at path and every key below it (its chunks, its children).
// ZARR_ERR_NOT_FOUND when no node is there, so a mistyped path never erases
// keys that are not Zarr data; ZARR_ERR_READ_ONLY on read-only stores.
void erase_node(Store& store, const std::string& path);

// One hierarchy, one format: creating a node of `format` (an "array" or a
// "group" named `name`) in a group of another is ZARR_ERR_INVALID_ARGUMENT,
// with one message: creating through a group, by URL (create_parent_groups
// checks every enclosing group) and zarrtool create alike.
void refuse_format_mixing(int format, const std::string& what, const std::string& name, int group_format,
                          const std::string& group);
// The reason every refusal to mix formats gives (zarr_migrate_v2_to_v3 of a
// node below a v2 group too).
extern const char kOneFormatPerHierarchy[];

// The format of the nearest group above path (2 or 3), 0 when none: the
// format a new node there takes unless told otherwise.
int enclosing_group_format(const Store& store, const std::string& path);

// Make every ancestor of path that is not yet a node a group of the given
// format (.zgroup for 2, zarr.json for 3). An ancestor that is an array, or a
// group of the other format (refuse_format_mixing; `what` is "array" or
// "group"), is ZARR_ERR_INVALID_ARGUMENT and nothing is written.
void create_parent_groups(Store& store, const std::string& path, int zarr_format, const std::string& what);

// Check every segment of a new node's path against the v3 node name rules
// (zarr_format 3 only; v2 names are only normalised).
void validate_node_names(const std::string& path, int zarr_format, const std::string& where);

// The metadata document of an empty group of the given format.
std::string empty_group_document(int zarr_format);

// Attributes of the node (the attrs key: .zattrs for v2, attrs for v1) as a
// JSON object string; "{}" when the key is absent.
std::string read_attributes(const Store& store, const std::string& attrs_key);
// Validate that json is an object and store it (4-space indent, as zarr-python).
// Returns the attributes as read_attributes gives them back.
std::string write_attributes(Store& store, const std::string& attrs_key, const std::string& json);

}  // namespace zarr
