// A node's attributes as stored, and the one read-modify-write of them that
// zarr_set_attributes and zarr_update_attributes share (for arrays and
// groups alike): under the node's lock, the stored attributes are read, the
// change applied, and the result written back.
//
// Where they live: v2 in the node's .zattrs (written as zarr-python 2 does,
// json.dumps indent 4), v3 in the "attributes" member of its zarr.json (the
// rest of the document kept as it was stored, member order included,
// written as zarr-python 3 does, indent 2).
#pragma once

#include <functional>
#include <string>

#include <rapidjson/document.h>

#include "stores/store.h"

namespace zarr {

// The node whose attributes change: where it is, its format (2 or 3), how
// messages name it, and the "process_lock_dir" of its handle ("" for none).
struct AttributesNode {
  Store& store;
  std::string path;
  int zarr_format;
  std::string described;  // "array " + describe_node(store, path)
  std::string lock_folder;
};

// A change of the attributes: makes the new attributes (a JSON object) from
// the stored ones, in place (`allocator`: the document's).
using AttributesChange = std::function<void(rapidjson::Value& attributes, rapidjson::Document::AllocatorType& allocator)>;

// zarr_set_attributes: every attribute replaced by those of `json_object`.
// Malformed JSON, or JSON that is not an object, is ZARR_ERR_INVALID_METADATA
// (as zarr_set_attributes always answered).
AttributesChange replacing_attributes(const std::string& json_object, const std::string& where);
// zarr_update_attributes: each member of `json_object` replaces the
// attribute of its name, a null member removes it, other attributes stay.
// Malformed JSON is ZARR_ERR_INVALID_METADATA; JSON that is not an object
// is ZARR_ERR_INVALID_ARGUMENT naming what it is, and so is a member name
// holding a NUL byte (which no C string, as zarr_get_attribute takes, can
// name back).
AttributesChange merging_attributes(const std::string& json_object, const std::string& where);

// The read-modify-write, under the KeyLock (concurrency/key_lock.h) of the
// key holding the attributes: the in-process lock every handle on the store
// shares and, with a lock folder, its lock file <folder>/<key>.lock. Stored
// attributes that are not an object are ZARR_ERR_INVALID_METADATA naming the
// key; a v3 node whose zarr.json is gone is ZARR_ERR_NOT_FOUND. Returns the
// attributes written (compact JSON).
std::string change_stored_attributes(const AttributesNode& node, const AttributesChange& change);

// Runs body() under the lock change_stored_attributes takes: a writer of a
// v3 node's whole zarr.json (resize) takes it too, so that it cannot put
// back attributes another handle has changed meanwhile.
void holding_attributes_lock(const AttributesNode& node, const std::function<void()>& body);
// The stored attributes of a v3 node (compact JSON), from its zarr.json.
std::string stored_v3_attributes(const AttributesNode& node);

// The JSON of the attribute `key` in `attributes_json` (a compact object);
// ZARR_ERR_NOT_FOUND naming the key and `described` when absent, an empty
// key ZARR_ERR_INVALID_ARGUMENT.
std::string attribute_value(const std::string& attributes_json, const std::string& key,
                            const std::string& described);

}  // namespace zarr
