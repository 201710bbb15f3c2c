#include "metadata/node_attributes.h"

#include <memory>
#include <optional>

#include "base/error.h"
#include "base/json.h"
#include "base/metadata_keys.h"
#include "base/path.h"
#include "concurrency/key_lock.h"

namespace zarr {

namespace {

// How messages name a stored document: its key and the store.
std::string stored_file(const AttributesNode& node, const std::string& key) {
  return "'" + key + "' in " + node.store.describe();
}

// The attributes member of a stored v3 document, added ({}) when absent;
// ZARR_ERR_INVALID_METADATA naming the key when it is not an object.
rapidjson::Value& v3_attributes_member(rapidjson::Document& doc, const std::string& file) {
  auto member = doc.FindMember("attributes");
  if (member == doc.MemberEnd()) {
    doc.AddMember("attributes", rapidjson::Value(rapidjson::kObjectType), doc.GetAllocator());
    return doc["attributes"];
  }
  if (!member->value.IsObject()) {
    fail(ZARR_ERR_INVALID_METADATA,
         file + ": field 'attributes' must be an object, got " + json::kind_name(member->value));
  }
  return member->value;
}

std::string attributes_key(const AttributesNode& node) {
  return path::join(node.path, node.zarr_format == 3 ? kV3MetadataKey : kV2AttrsKey);
}

// A v3 node's zarr.json as stored.
rapidjson::Document stored_v3_document(const AttributesNode& node, const std::string& key) {
  std::optional<Bytes> stored = node.store.get(key);
  if (!stored) fail(ZARR_ERR_NOT_FOUND, node.described + " no longer exists (no " + key + ")");
  return json::parse_object(ByteView(*stored).to_string(), stored_file(node, key));
}

// v3: only the attributes member of zarr.json changes.
std::string change_v3_attributes(const AttributesNode& node, const std::string& key, const AttributesChange& change) {
  rapidjson::Document doc = stored_v3_document(node, key);
  rapidjson::Value& attributes = v3_attributes_member(doc, stored_file(node, key));
  change(attributes, doc.GetAllocator());
  std::string now = json::to_string(attributes);
  node.store.set(key, json::to_pretty_string(doc, 2, json::NonFinite::kQuoted));
  return now;
}

// v2: the whole .zattrs document ("{}" when absent).
std::string change_v2_attributes(const AttributesNode& node, const std::string& key, const AttributesChange& change) {
  std::optional<Bytes> stored = node.store.get(key);
  rapidjson::Document doc;
  if (stored) {
    const std::string file = stored_file(node, key);
    doc = json::parse(ByteView(*stored).to_string(), file);
    if (!doc.IsObject()) fail(ZARR_ERR_INVALID_METADATA, file + ": expected a JSON object, got " + json::kind_name(doc));
  } else {
    doc.SetObject();
  }
  change(doc, doc.GetAllocator());
  node.store.set(key, json::to_pretty_string(doc));
  return json::to_string(doc);
}

// The argument of an update: an object whose member names are C strings.
rapidjson::Document parse_update(const std::string& json_object, const std::string& where) {
  rapidjson::Document update = json::parse(json_object, where);
  if (!update.IsObject()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + ": expected a JSON object, got " + json::kind_name(update));
  }
  for (auto it = update.MemberBegin(); it != update.MemberEnd(); ++it) {
    json::nul_free_text(it->name, where + ": attribute name");
  }
  return update;
}

}  // namespace

AttributesChange replacing_attributes(const std::string& json_object, const std::string& where) {
  auto replacement = std::make_shared<rapidjson::Document>(json::parse_object(json_object, where));
  return [replacement](rapidjson::Value& attributes, rapidjson::Document::AllocatorType& allocator) {
    attributes.CopyFrom(*replacement, allocator);
  };
}

AttributesChange merging_attributes(const std::string& json_object, const std::string& where) {
  auto update = std::make_shared<rapidjson::Document>(parse_update(json_object, where));
  return [update](rapidjson::Value& attributes, rapidjson::Document::AllocatorType& allocator) {
    for (auto it = update->MemberBegin(); it != update->MemberEnd(); ++it) {
      auto existing = attributes.FindMember(it->name);
      if (it->value.IsNull()) {
        if (existing != attributes.MemberEnd()) attributes.EraseMember(existing);  // keeps the others' order
      } else if (existing != attributes.MemberEnd()) {
        existing->value.CopyFrom(it->value, allocator);
      } else {
        attributes.AddMember(rapidjson::Value(it->name, allocator), rapidjson::Value(it->value, allocator), allocator);
      }
    }
  };
}

std::string change_stored_attributes(const AttributesNode& node, const AttributesChange& change) {
  std::string now;
  holding_attributes_lock(node, [&] {
    const std::string key = attributes_key(node);
    now = node.zarr_format == 3 ? change_v3_attributes(node, key, change) : change_v2_attributes(node, key, change);
  });
  return now;
}

void holding_attributes_lock(const AttributesNode& node, const std::function<void()>& body) {
  const KeyLock held(node.store.identity(), attributes_key(node), node.lock_folder);
  body();
}

std::string stored_v3_attributes(const AttributesNode& node) {
  const std::string key = attributes_key(node);
  rapidjson::Document doc = stored_v3_document(node, key);
  return json::to_string(v3_attributes_member(doc, stored_file(node, key)));
}

std::string attribute_value(const std::string& attributes_json, const std::string& key,
                            const std::string& described) {
  if (key.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "key: an attribute name must not be empty");
  rapidjson::Document attributes = json::parse_object(attributes_json, "attributes of " + described);
  auto member = attributes.FindMember(rapidjson::Value(rapidjson::StringRef(key.data(), key.size())));
  if (member == attributes.MemberEnd()) {
    fail(ZARR_ERR_NOT_FOUND, "no attribute " + json::quote(key) + " in the attributes of " + described);
  }
  return json::to_string(member->value);
}

}  // namespace zarr
