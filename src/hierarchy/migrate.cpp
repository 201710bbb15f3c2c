#include "hierarchy/migrate.h"

#include <set>

#include "base/error.h"
#include "base/json.h"
#include "base/metadata_keys.h"
#include "base/path.h"
#include "base/text.h"
#include "codecs/v3_chain.h"
#include "hierarchy/consolidated.h"
#include "metadata/element_form.h"
#include "metadata/nodes.h"
#include "metadata/v1_metadata.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"

namespace zarr {

namespace {

// numcodecs filters zarr-python 3 runs as array->array codecs.
const std::set<std::string> kArrayFilters = {"delta", "bitround", "fixedscaleoffset", "quantize", "astype"};

std::string text_at(const Store& store, const std::string& key) {
  std::optional<Bytes> value = store.get(key);
  if (!value) fail(ZARR_ERR_NOT_FOUND, "metadata key '" + key + "' is missing");
  return ByteView(*value).to_string();
}

std::string numcodecs_json(const BytesCodec& codec) {
  rapidjson::Document c = json::parse(codec.config_json(), codec.id());
  c.RemoveMember("id");
  return "{\"name\":\"numcodecs." + codec.id() + "\",\"configuration\":" + json::to_string(c) + "}";
}

// The v3 zarr.json text of a v2 array (validated by parsing it back).
std::string v3_array_document(const ArrayMetadata& v2, const std::string& attributes, const std::string& where) {
  const DataType& type = v2.dtype;
  const V3ElementForm form = v3_element_form(type, v2.v2_object_codec, where);
  std::string codecs;
  auto add = [&](const std::string& codec) { codecs += (codecs.empty() ? "" : ",") + codec; };
  if (v2.order == 'F' && v2.ndim() > 1) {
    std::string order;
    for (size_t d = v2.ndim(); d-- > 0;) order += (order.empty() ? "" : ",") + std::to_string(d);
    add("{\"name\":\"transpose\",\"configuration\":{\"order\":[" + order + "]}}");
  }
  // v2 filters see stored bytes; v3 array filters see native values: the
  // same only when the data is stored little-endian (or has no byte order).
  size_t leading_array_filters = 0;
  while (leading_array_filters < v2.v2_filters.size() && kArrayFilters.count(v2.v2_filters[leading_array_filters]->id())) {
    ++leading_array_filters;
  }
  for (size_t i = leading_array_filters; i < v2.v2_filters.size(); ++i) {
    if (kArrayFilters.count(v2.v2_filters[i]->id())) {
      fail(ZARR_ERR_UNSUPPORTED, where + ": filter '" + v2.v2_filters[i]->id() +
                                     "' follows a bytes filter, an order Zarr v3 codecs cannot express");
    }
  }
  if (leading_array_filters > 0 && type.big_endian() && type.item_size() > 1) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": filters on big-endian data have no Zarr v3 equivalent");
  }
  for (size_t i = 0; i < leading_array_filters; ++i) add(numcodecs_json(*v2.v2_filters[i]));
  // An object array's fill value reads as "" (ArrayMetadata::chunk_repr).
  const std::string fill = type.kind() == DTypeKind::Object
                               ? "\"\""
                               : type.with_byte_order(false).fill_value_to_v3_json(v2.fill_item());
  add(form.serializer);
  for (size_t i = leading_array_filters; i < v2.v2_filters.size(); ++i) add(numcodecs_json(*v2.v2_filters[i]));
  if (v2.v2_compressor) add(v3_codec_json(*v2.v2_compressor, type.item_size()));

  std::string doc = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":" + list_text(v2.shape, ",") +
                    ",\"data_type\":" + form.data_type +
                    ",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":" + list_text(v2.chunks, ",") +
                    "}},\"chunk_key_encoding\":{\"name\":\"v2\",\"configuration\":{\"separator\":" +
                    json::quote(std::string(1, v2.key_encoding.separator)) + "}},\"fill_value\":" + fill +
                    ",\"codecs\":[" + codecs + "],\"attributes\":" + attributes + "}";
  return serialize_v3_array_metadata(parse_v3_array_metadata(doc, where + " (as v3)"));
}

struct Conversion {
  std::string path;
  std::string document;  // the new zarr.json
};

void plan(const Store& store, const std::string& path, std::vector<Conversion>& out) {
  NodeInfo info = node_info(store, path);
  const std::string where = describe_node(store, path);
  if (info.kind == NodeKind::None) fail(ZARR_ERR_NOT_FOUND, "nothing to migrate at " + where);
  if (info.zarr_format != 2) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "cannot migrate " + where + " to v3: it is Zarr v" +
                                        std::to_string(info.zarr_format) + ", not v2");
  }
  const std::string attributes = read_attributes(store, path::join(path, kV2AttrsKey));
  if (info.kind == NodeKind::Array) {
    const std::string key = path::join(path, kV2ArrayKey);
    out.push_back({path, v3_array_document(parse_v2_array_metadata(text_at(store, key), key), attributes, where)});
    return;
  }
  GroupMetadataV3 group;
  group.attributes_json = attributes;
  out.push_back({path, serialize_v3_group_metadata(group)});
  for (const std::string& child : store.list_dir(path.empty() ? "" : path + "/").prefixes) {
    if (node_kind(store, path::join(path, child)) != NodeKind::None) plan(store, path::join(path, child), out);
  }
}

}  // namespace

void migrate_v1_to_v2(Store& store, const std::string& path) {
  const std::string meta_key = path::join(path, kV1MetaKey);
  std::optional<Bytes> meta = store.get(meta_key);
  if (!meta) fail(ZARR_ERR_NOT_FOUND, "no Zarr v1 array at " + describe_node(store, path) + " (no 'meta' key)");
  ArrayMetadata parsed = parse_v1_array_metadata(ByteView(*meta).to_string(), meta_key);
  parsed.zarr_format = 2;
  const std::string attrs_key = path::join(path, kV1AttrsKey);
  if (std::optional<Bytes> attrs = store.get(attrs_key)) {
    write_attributes(store, path::join(path, kV2AttrsKey), ByteView(*attrs).to_string());
  }
  store.set(path::join(path, kV2ArrayKey), serialize_v2_array_metadata(parsed));
  store.erase(attrs_key);
  store.erase(meta_key);
}

size_t migrate_v2_to_v3(Store& store, const std::string& path) {
  std::vector<Conversion> conversions;
  plan(store, path, conversions);
  // A node below a v2 group would leave a v3 node in a v2 hierarchy.
  if (!path.empty() && enclosing_group_format(store, path) == 2) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "cannot migrate " + describe_node(store, path) +
                                        " to v3: it is inside the Zarr v2 group " +
                                        describe_node(store, path::parent(path)) + ", and " +
                                        kOneFormatPerHierarchy + "; migrate the hierarchy from its root group");
  }
  // The groups whose v2 consolidated metadata (.zmetadata) becomes the v3
  // form (the root zarr.json's consolidated_metadata) once every node is v3.
  std::vector<std::string> consolidated;
  for (const Conversion& c : conversions) {
    if (store.exists(path::join(c.path, kV2ConsolidatedKey))) consolidated.push_back(c.path);
  }
  // Write every zarr.json first, then drop the v2 keys: a reader sees the v3
  // node as soon as its zarr.json exists (zarr.json is looked for first), and
  // the chunks it names are the v2 ones, unchanged.
  for (const Conversion& c : conversions) store.set(path::join(c.path, kV3MetadataKey), c.document);
  for (const Conversion& c : conversions) {
    for (const char* key : {kV2ArrayKey, kV2GroupKey, kV2AttrsKey, kV2ConsolidatedKey}) store.erase(path::join(c.path, key));
  }
  // Deepest first (the plan lists a group before its members), so a group's
  // consolidated metadata holds its subgroups' as they end up.
  for (auto it = consolidated.rbegin(); it != consolidated.rend(); ++it) write_consolidated(store, *it);
  return conversions.size();
}

}  // namespace zarr
