// What sits at a path of a store (array, group, nothing), attributes, and
// creating the parent groups a new node needs.
#pragma once

#include <memory>
#include <string>

#include "stores/store.h"

namespace zarr {

enum class NodeKind { None, Array, Group, LegacyV1Array };

// Kind of node at a normalised path, from the metadata keys present.
NodeKind node_kind(const Store& store, const std::string& path);

// Describe a node for messages: "array at 'a/b' in /data/x.zarr".
std::string describe_node(const Store& store, const std::string& path);

// Fail with ZARR_ERR_EXISTS when any node is at path.
void require_absent(const Store& store, const std::string& path);

// Write .zgroup for every ancestor of path that is not yet a node. An ancestor
// that is an array is ZARR_ERR_INVALID_ARGUMENT (arrays have no children).
void create_parent_groups(Store& store, const std::string& path);

// Attributes of the node (the attrs key: .zattrs for v2, attrs for v1) as a
// JSON object string; "{}" when the key is absent.
std::string read_attributes(const Store& store, const std::string& attrs_key);
// Validate that json is an object and store it (4-space indent, as zarr-python).
void write_attributes(Store& store, const std::string& attrs_key, const std::string& json);

}  // namespace zarr
