#include "metadata/v3_metadata.h"

#include <set>

#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "base/zarr_extensions.h"
#include "codecs/sharding_codec.h"
#include "codecs/v3_chain.h"
#include "dtype/text_encoding.h"
#include "metadata/rectilinear_grid.h"

namespace zarr {

namespace {

// Members the spec defines for each node type; anything else is an extension.
const std::set<std::string> kArrayMembers = {"zarr_format", "node_type", "shape", "data_type",
                                             "chunk_grid", "chunk_key_encoding", "fill_value", "codecs",
                                             "attributes", "storage_transformers", "dimension_names"};
// consolidated_metadata is zarr-python's; it marks itself must_understand
// false, but libzarr knows it and keeps it.
const std::set<std::string> kGroupMembers = {"zarr_format", "node_type", "attributes", "consolidated_metadata"};

[[noreturn]] void invalid(const std::string& where, const std::string& what) {
  fail(ZARR_ERR_INVALID_METADATA, where + ": " + what);
}

std::string excerpt(const rapidjson::Value& v) {
  std::string text = json::to_string(v);
  return text.size() <= 80 ? text : text.substr(0, 80) + "...";
}

bool ignorable_extension(const rapidjson::Value& v) {
  if (!v.IsObject()) return false;
  const rapidjson::Value* must = json::find(v, "must_understand");
  return must && must->IsBool() && !must->GetBool();
}

// Spec "Extensions": a member the implementation does not recognise fails
// the open unless it says "must_understand": false.
void check_members(const rapidjson::Value& doc, const std::set<std::string>& known, const std::string& where) {
  for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) {
    const std::string key(it->name.GetString(), it->name.GetStringLength());
    if (known.count(key) || ignorable_extension(it->value)) continue;
    fail(ZARR_ERR_UNSUPPORTED, where + ": " + json::unknown("member", key) +
                                   " (an extension libzarr does not support; only objects with "
                                   "\"must_understand\": false may be ignored)");
  }
}

void check_format(const rapidjson::Value& doc, bool required, const std::string& where) {
  const rapidjson::Value* format = json::find(doc, "zarr_format");
  if (!format && !required) return;
  const int64_t f = json::get_int(json::require(doc, "zarr_format", where), "zarr_format", where);
  if (f != 3) invalid(where, "field 'zarr_format' must be 3, got " + std::to_string(f));
}

void check_node_type(const rapidjson::Value& doc, const char* expected, bool required, const std::string& where) {
  const rapidjson::Value* type = json::find(doc, "node_type");
  if (!type && !required) return;
  const std::string t = json::get_string(json::require(doc, "node_type", where), "node_type", where);
  if (t != expected) {
    invalid(where, std::string("field 'node_type' must be \"") + expected + "\", got " + json::quote(t));
  }
}

// An extension point value (chunk_grid, chunk_key_encoding): a short-hand
// name or {"name": ..., "configuration": {...}}.
struct Named {
  std::string name;
  const rapidjson::Value* configuration = nullptr;
};

Named parse_named(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  const std::string fw = where + ": field '" + field + "'";
  Named out;
  if (v.IsString()) {
    out.name.assign(v.GetString(), v.GetStringLength());
    return out;
  }
  if (!v.IsObject()) invalid(fw, "must be a name or an object with \"name\", got " + excerpt(v));
  const rapidjson::Value* name = json::find(v, "name");
  if (!name || !name->IsString()) invalid(fw, "needs a string \"name\", got " + excerpt(v));
  out.name.assign(name->GetString(), name->GetStringLength());
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    const std::string key(it->name.GetString(), it->name.GetStringLength());
    if (key == "name") continue;
    if (key == "configuration") {
      if (!it->value.IsObject()) invalid(fw, "\"configuration\" must be an object, got " + excerpt(it->value));
      out.configuration = &it->value;
    } else if (key == "must_understand") {
      if (!it->value.IsBool()) invalid(fw, "\"must_understand\" must be true or false");
      if (!it->value.GetBool()) invalid(fw, "\"must_understand\": false is not allowed for " + field);
    } else {
      invalid(fw, json::unknown("member", key));
    }
  }
  return out;
}

void expect_only(const rapidjson::Value* configuration, const char* allowed, const std::string& fw) {
  if (!configuration) return;
  for (auto it = configuration->MemberBegin(); it != configuration->MemberEnd(); ++it) {
    const std::string key(it->name.GetString(), it->name.GetStringLength());
    if (key != allowed) invalid(fw, json::unknown("configuration member", key));
  }
}

std::vector<uint64_t> parse_regular_grid(const Named& grid, const std::vector<uint64_t>& shape, const std::string& fw) {
  if (grid.name != "regular") {
    fail(ZARR_ERR_UNSUPPORTED, fw + ": chunk grid " + json::quote(grid.name) + " is not supported" +
                                   registered_but_unimplemented_note(ExtensionPoint::ChunkGrid, grid.name));
  }
  if (!grid.configuration) invalid(fw, "the regular chunk grid needs a \"configuration\" with \"chunk_shape\"");
  expect_only(grid.configuration, "chunk_shape", fw);
  const rapidjson::Value* chunk_shape = json::find(*grid.configuration, "chunk_shape");
  if (!chunk_shape) invalid(fw, "missing configuration member \"chunk_shape\"");
  std::vector<uint64_t> chunks = json::get_uint_list(*chunk_shape, "chunk_shape", fw);
  if (chunks.size() != shape.size()) {
    invalid(fw, "chunk_shape has " + std::to_string(chunks.size()) + " dimensions but 'shape' has " +
                    std::to_string(shape.size()));
  }
  for (size_t d = 0; d < chunks.size(); ++d) {
    if (chunks[d] != 0) continue;
    if (shape[d] != 0) invalid(fw, "chunk_shape item " + std::to_string(d) + " must be positive, got 0");
    chunks[d] = 1;  // an empty axis has no chunks; any positive extent describes it
  }
  return chunks;
}

// Sets meta.chunks, and meta.rectilinear for a rectilinear grid (chunks:
// the largest edge of each axis).
void parse_chunk_grid(const rapidjson::Value& v, ArrayMetadata& meta, const std::string& where) {
  const std::string fw = where + ": field 'chunk_grid'";
  const Named grid = parse_named(v, "chunk_grid", where);
  if (grid.name == "rectilinear") {
    meta.rectilinear = parse_rectilinear_grid(grid.configuration, meta.shape, fw);
    meta.chunks.clear();
    for (const AxisEdges& axis : *meta.rectilinear) meta.chunks.push_back(axis.max_size());
    return;
  }
  meta.chunks = parse_regular_grid(grid, meta.shape, fw);
}

ChunkKeyEncoding parse_key_encoding(const rapidjson::Value& v, const std::string& where) {
  const std::string fw = where + ": field 'chunk_key_encoding'";
  const Named enc = parse_named(v, "chunk_key_encoding", where);
  ChunkKeyEncoding out;
  if (enc.name == "default") {
    out = {ChunkKeyEncoding::Kind::Default, '/'};
  } else if (enc.name == "v2") {
    out = {ChunkKeyEncoding::Kind::V2, '.'};
  } else {
    fail(ZARR_ERR_UNSUPPORTED, fw + ": chunk key encoding " + json::quote(enc.name) + " is not supported" +
                                   registered_but_unimplemented_note(ExtensionPoint::ChunkKeyEncoding, enc.name));
  }
  expect_only(enc.configuration, "separator", fw);
  if (const rapidjson::Value* sep = enc.configuration ? json::find(*enc.configuration, "separator") : nullptr) {
    const std::string s = sep->IsString() ? std::string(sep->GetString(), sep->GetStringLength()) : "";
    if (s != "/" && s != ".") invalid(fw, "\"separator\" must be \"/\" or \".\", got " + excerpt(*sep));
    out.separator = s[0];
  }
  return out;
}

std::vector<std::optional<std::string>> parse_dimension_names(const rapidjson::Value& v, size_t ndim,
                                                              const std::string& where) {
  std::vector<std::optional<std::string>> names;
  if (v.IsNull()) return names;  // zarr-python 3 reads null as "no names"
  const std::string fw = where + ": field 'dimension_names'";
  if (!v.IsArray()) invalid(fw, "must be a list of strings or nulls, got " + excerpt(v));
  if (v.Size() != ndim) {
    invalid(fw, "has " + std::to_string(v.Size()) + " entries but 'shape' has " + std::to_string(ndim) + " dimensions");
  }
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    if (v[i].IsNull()) {
      names.emplace_back(std::nullopt);
    } else if (v[i].IsString()) {
      names.emplace_back(std::string(v[i].GetString(), v[i].GetStringLength()));
    } else {
      invalid(fw, "item " + std::to_string(i) + " must be a string or null, got " + excerpt(v[i]));
    }
  }
  return names;
}

void check_storage_transformers(const rapidjson::Value& v, const std::string& where) {
  if (v.IsNull()) return;
  const std::string fw = where + ": field 'storage_transformers'";
  if (!v.IsArray()) invalid(fw, "must be a list, got " + excerpt(v));
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    const rapidjson::Value& t = v[i];
    if (ignorable_extension(t)) continue;
    std::string name;
    if (t.IsString()) {
      name.assign(t.GetString(), t.GetStringLength());
    } else if (t.IsObject() && json::find(t, "name") && json::find(t, "name")->IsString()) {
      name = json::text(*json::find(t, "name"));
    } else {
      invalid(fw, "item " + std::to_string(i) + " must be a name or an object with \"name\", got " + excerpt(t));
    }
    fail(ZARR_ERR_UNSUPPORTED, fw + ": storage transformer " + json::quote(name) + " is not supported" +
                                 registered_but_unimplemented_note(ExtensionPoint::StorageTransformer, name));
  }
}

std::string parse_attributes(const rapidjson::Value& doc, const std::string& where) {
  const rapidjson::Value* attrs = json::find(doc, "attributes");
  if (!attrs) return "{}";
  if (!attrs->IsObject()) invalid(where, "field 'attributes' must be an object, got " + excerpt(*attrs));
  return json::to_string(*attrs);
}

// The stored byte order a legacy "structured" array's base64 fill value is in:
// the "endian" of its "bytes" codec (inside a sharding codec's chain if that
// is where it is), little-endian when absent (the registry's "structured"
// README). Malformed chains are left for the codec chain to report.
bool bytes_codec_is_big_endian(const rapidjson::Value* codecs) {
  if (!codecs || !codecs->IsArray()) return false;
  for (const rapidjson::Value& codec : codecs->GetArray()) {
    const rapidjson::Value* name = codec.IsObject() ? json::find(codec, "name") : nullptr;
    const rapidjson::Value* configuration = codec.IsObject() ? json::find(codec, "configuration") : nullptr;
    if (!name || !name->IsString() || !configuration || !configuration->IsObject()) continue;
    if (json::text(*name) == "sharding_indexed") return bytes_codec_is_big_endian(json::find(*configuration, "codecs"));
    if (json::text(*name) != "bytes") continue;
    const rapidjson::Value* endian = json::find(*configuration, "endian");
    return endian && endian->IsString() && json::text(*endian) == "big";
  }
  return false;
}

// The fill_value member in native byte order. A struct's fill value may be
// the legacy base64 of the stored record, in the bytes codec's byte order.
Bytes parse_fill_value(const rapidjson::Value& doc, const rapidjson::Value& fill, const DataType& type,
                       const std::string& where) {
  if (type.kind() != DTypeKind::Structured || !fill.IsString()) return type.parse_fill_value_v3(fill, where);
  return type.with_byte_order(bytes_codec_is_big_endian(json::find(doc, "codecs"))).parse_fill_value_v3(fill, where);
}

// zarr-python 3's codecs for a user who gives none (see the header).
std::string default_codecs_json(const DataType& t) {
  if (t.kind() == DTypeKind::VarString) return R"([{"name":"vlen-utf8","configuration":{}}])";
  if (t.kind() == DTypeKind::VarBytes) return R"([{"name":"vlen-bytes","configuration":{}}])";
  if (t.has_byte_order()) return R"([{"name":"bytes","configuration":{"endian":"little"}}])";
  return R"([{"name":"bytes"}])";
}

// The codec chain of the document (zarr-python 3's default when the create
// form gives none).
CodecChain parse_codecs(const rapidjson::Value& doc, const ArrayMetadata& meta, bool defaults, const std::string& where) {
  rapidjson::Document default_codecs;
  const rapidjson::Value* codecs = json::find(doc, "codecs");
  if (!codecs) {
    if (!defaults) json::require(doc, "codecs", where);
    default_codecs = json::parse(default_codecs_json(meta.dtype), where);
    codecs = &default_codecs;
  }
  return make_v3_codec_chain(*codecs, meta.chunk_repr(), where + ": field 'codecs'");
}

// A variable-length type needs its vlen codec innermost: the bytes codec
// would store the region-buffer items (pointers) themselves.
void check_vlen_codec(const ArrayMetadata& meta, const std::string& where) {
  if (!meta.dtype.is_variable_length()) return;
  const char* needed = meta.dtype.kind() == DTypeKind::VarString ? "vlen-utf8" : "vlen-bytes";
  // Through any nesting of shards, the innermost array->bytes codec.
  const ArrayToBytesCodec* innermost = meta.codecs.array_to_bytes().get();
  while (const auto* shard = dynamic_cast<const ShardingCodec*>(innermost)) {
    innermost = shard->inner_chain().array_to_bytes().get();
  }
  const std::string actual = innermost->name();
  if (actual != needed) {
    invalid(where, "field 'codecs': data type " + meta.dtype.to_v3_json() + " needs the \"" + needed +
                       "\" codec, not " + json::quote(actual));
  }
}

// Shared by the stored and the create forms: `defaults` says whether a
// missing field takes zarr-python 3's default or is an error.
ArrayMetadata parse_array(const std::string& text, const std::string& where, bool defaults) {
  rapidjson::Document doc = json::parse_object(text, where);
  check_format(doc, !defaults, where);
  check_node_type(doc, "array", !defaults, where);
  check_members(doc, kArrayMembers, where);

  ArrayMetadata meta;
  meta.zarr_format = 3;
  meta.order = 'C';
  meta.shape = json::get_uint_list(json::require(doc, "shape", where), "shape", where);
  meta.dtype = DataType::parse_v3(json::require(doc, "data_type", where), where + ": field 'data_type'");

  if (const rapidjson::Value* grid = json::find(doc, "chunk_grid"); grid || !defaults) {
    parse_chunk_grid(json::require(doc, "chunk_grid", where), meta, where);
  } else {
    meta.chunks = meta.shape;
    for (auto& c : meta.chunks) c = c ? c : 1;
  }
  validate_layout(meta, where, "chunk_grid");

  if (const rapidjson::Value* enc = json::find(doc, "chunk_key_encoding"); enc || !defaults) {
    meta.key_encoding = parse_key_encoding(json::require(doc, "chunk_key_encoding", where), where);
  } else {
    meta.key_encoding = {ChunkKeyEncoding::Kind::Default, '/'};
  }

  // null is not a v3 fill value, but zarrita.js writes it when its caller
  // gives none (and reads it as zero), and zarr-python 3 takes None for "the
  // default" when creating: both mean the data type's default here.
  const rapidjson::Value* fill = json::find(doc, "fill_value");
  if (fill && !fill->IsNull()) {
    meta.fill_value = parse_fill_value(doc, *fill, meta.dtype, where + ": field 'fill_value'");
  } else if (fill || defaults) {
    meta.fill_value = meta.dtype.default_fill_value_v3();
  } else {
    json::require(doc, "fill_value", where);
  }

  if (const rapidjson::Value* names = json::find(doc, "dimension_names")) {
    meta.dimension_names = parse_dimension_names(*names, meta.ndim(), where);
  }
  meta.attributes_json = parse_attributes(doc, where);
  if (const rapidjson::Value* st = json::find(doc, "storage_transformers")) check_storage_transformers(*st, where);

  // Last: the chain needs the chunk shape, the data type and the fill value.
  meta.codecs = parse_codecs(doc, meta, defaults, where);
  check_vlen_codec(meta, where);
  return meta;
}

// As zarr-python 3 writes zarr.json: json.dumps(indent=2), NaN as "NaN".
std::string python_dumps(const std::string& compact, const std::string& what) {
  return json::to_pretty_string(json::parse(compact, what), 2, json::NonFinite::kQuoted);
}

bool only_periods(const std::string& s) {
  for (char c : s) {
    if (c != '.') return false;
  }
  return true;
}

std::string chunk_grid_json(const ArrayMetadata& meta) {
  if (meta.rectilinear) return rectilinear_grid_json(*meta.rectilinear);
  return "{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":" + list_text(meta.chunks, ",") + "}}";
}

}  // namespace

ArrayMetadata parse_v3_array_metadata(const std::string& text, const std::string& where) {
  return parse_array(text, where, false);
}

ArrayMetadata parse_v3_array_metadata_for_create(const std::string& text, const std::string& where) {
  return parse_array(text, where, true);
}

std::string serialize_v3_array_metadata(const ArrayMetadata& meta) {
  const bool v2_keys = meta.key_encoding.kind == ChunkKeyEncoding::Kind::V2;
  std::string c = "{\"shape\":" + list_text(meta.shape, ",") + ",\"data_type\":" + meta.dtype.to_v3_json() +
                  ",\"chunk_grid\":" + chunk_grid_json(meta) + ",\"chunk_key_encoding\":{\"name\":\"" + (v2_keys ? "v2" : "default") +
                  "\",\"configuration\":{\"separator\":" + json::quote(std::string(1, meta.key_encoding.separator)) +
                  "}},\"fill_value\":" + meta.dtype.fill_value_to_v3_json(meta.fill_item()) +
                  ",\"codecs\":" + v3_codecs_json(meta.codecs) + ",\"attributes\":" + meta.attributes_json;
  if (!meta.dimension_names.empty()) {
    c += ",\"dimension_names\":[";
    for (size_t i = 0; i < meta.dimension_names.size(); ++i) {
      c += (i ? "," : "") + (meta.dimension_names[i] ? json::quote(*meta.dimension_names[i]) : std::string("null"));
    }
    c += "]";
  }
  c += ",\"zarr_format\":3,\"node_type\":\"array\",\"storage_transformers\":[]}";
  return python_dumps(c, "zarr.json");
}

GroupMetadataV3 parse_v3_group_metadata(const std::string& text, const std::string& where) {
  rapidjson::Document doc = json::parse_object(text, where);
  check_format(doc, true, where);
  check_node_type(doc, "group", true, where);
  check_members(doc, kGroupMembers, where);
  GroupMetadataV3 group;
  group.attributes_json = parse_attributes(doc, where);
  if (const rapidjson::Value* c = json::find(doc, "consolidated_metadata"); c && !c->IsNull()) {
    if (!c->IsObject()) invalid(where, "field 'consolidated_metadata' must be an object or null, got " + excerpt(*c));
    group.consolidated_json = json::to_string(*c);
  }
  return group;
}

std::string serialize_v3_group_metadata(const GroupMetadataV3& group) {
  const std::string consolidated = group.consolidated_json.empty() ? "null" : group.consolidated_json;
  return python_dumps("{\"attributes\":" + group.attributes_json + ",\"zarr_format\":3,\"consolidated_metadata\":" +
                          consolidated + ",\"node_type\":\"group\"}",
                      "zarr.json");
}

std::string v3_node_type(const std::string& text, const std::string& where) {
  rapidjson::Document doc = json::parse_object(text, where);
  check_format(doc, true, where);
  const std::string t = json::get_string(json::require(doc, "node_type", where), "node_type", where);
  if (t != "array" && t != "group") {
    invalid(where, "field 'node_type' must be \"array\" or \"group\", got " + json::quote(t));
  }
  return t;
}

void validate_v3_node_name(const std::string& name, const std::string& where) {
  auto bad = [&](const std::string& why) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + ": node name " + json::quote(name) + " " + why);
  };
  if (name.empty()) bad("must not be empty");
  if (name.find('/') != std::string::npos) bad("must not contain \"/\"");
  if (only_periods(name)) bad("must not consist only of periods");
  if (name.rfind("__", 0) == 0) bad("must not start with the reserved prefix \"__\"");
  if (!dtype_detail::utf8_to_utf32(name)) bad("is not valid UTF-8");
}

}  // namespace zarr
