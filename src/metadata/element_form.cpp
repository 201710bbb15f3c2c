// The elements' names in each format (metadata/element_form.h).
#include "metadata/element_form.h"

#include "base/error.h"
#include "base/json.h"
#include "codecs/vlen_codecs.h"

namespace zarr {
namespace {

// Caller-given JSON text: malformed text is the caller's argument at fault.
rapidjson::Document parse_argument(const std::string& text, const std::string& where) {
  try {
    return json::parse(text, where);
  } catch (const Error& e) {
    fail(ZARR_ERR_INVALID_ARGUMENT, e.what());
  }
}

// The id of an object codec's JSON ({"id": "vlen-utf8"}), checked.
std::string object_codec_id(const std::string& object_codec_json, const std::string& where) {
  const rapidjson::Document codec = parse_argument(object_codec_json, where + ": object codec");
  const rapidjson::Value* id = codec.IsObject() ? json::find(codec, "id") : nullptr;
  if (!id || !id->IsString()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + ": object codec " + object_codec_json + " is not a codec with an \"id\"");
  }
  const std::string name = json::text(*id);
  if (!vlen::is_object_codec(name)) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": object codec '" + name + "' is not supported (vlen-utf8, vlen-bytes or json2)");
  }
  return name;
}

// Whether the type's stored multi-byte components are big-endian. A
// structured type's fields share the one "endian" of the v3 bytes codec:
// fields stored in both orders have no v3 form.
bool stored_big_endian(const DataType& type, const std::string& where) {
  if (type.kind() != DTypeKind::Structured) return type.big_endian();
  std::optional<bool> order;
  for (const Field& f : type.fields()) {
    if (!f.type->has_byte_order()) continue;
    const bool big = stored_big_endian(*f.type, where);
    if (order && *order != big) {
      fail(ZARR_ERR_UNSUPPORTED, where + ": field " + json::quote(f.name) + " is stored in another byte order than "
                                         "the fields before it; a Zarr v3 struct has one byte order (the bytes codec's)");
    }
    order = big;
  }
  return order.value_or(false);
}

}  // namespace

DataType parse_data_type_text(const std::string& text, const std::string& where) {
  if (text.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, where + ": is empty");
  const char first = text.find_first_not_of(" \t\r\n") == std::string::npos ? ' ' : text[text.find_first_not_of(" \t\r\n")];
  if (first == '"' || first == '[' || first == '{') {
    const rapidjson::Document doc = parse_argument(text, where);
    if (doc.IsString()) return parse_data_type_text(json::text(doc), where);
    return doc.IsArray() ? DataType::parse_v2(doc, where) : DataType::parse_v3(doc, where);
  }
  if (first == '<' || first == '>' || first == '|') return DataType::from_typestr(text, where);
  rapidjson::Value value(text.c_str(), static_cast<rapidjson::SizeType>(text.size()));
  return DataType::parse_v3(value, where);
}

std::string object_codec_v3_name(const std::string& object_codec_id) {
  return object_codec_id == "vlen-bytes" ? "variable_length_bytes" : "string";
}

V3ElementForm v3_element_form(const DataType& type, const std::string& object_codec_json, const std::string& where) {
  if (type.kind() == DTypeKind::Object) {
    if (object_codec_json.empty()) {
      fail(ZARR_ERR_UNSUPPORTED, where + ": an object (\"|O\") data type has a Zarr v3 form only with its object "
                                         "codec; name the type \"string\" or \"variable_length_bytes\"");
    }
    const std::string id = object_codec_id(object_codec_json, where);
    if (id == "json2") fail(ZARR_ERR_UNSUPPORTED, where + ": the json2 object codec has no Zarr v3 form");
    return {json::quote(object_codec_v3_name(id)), "{\"name\":\"" + id + "\",\"configuration\":{}}"};
  }
  if (type.kind() == DTypeKind::Optional) {
    // zarrs' layout: the mask packed to bits, the present values as the inner type stores them.
    const std::string data = v3_element_form(*type.optional_inner(), "", where).serializer;
    return {type.to_v3_json(), "{\"name\":\"optional\",\"configuration\":{\"mask_codecs\":[{\"name\":\"packbits\","
                               "\"configuration\":{}}],\"data_codecs\":[" + data + "]}}"};
  }
  if (type.kind() == DTypeKind::VarString) return {type.to_v3_json(), "{\"name\":\"vlen-utf8\",\"configuration\":{}}"};
  if (type.kind() == DTypeKind::VarBytes) return {type.to_v3_json(), "{\"name\":\"vlen-bytes\",\"configuration\":{}}"};
  if (!type.has_byte_order()) return {type.to_v3_json(), "{\"name\":\"bytes\"}"};
  const bool big = stored_big_endian(type, where);
  return {type.to_v3_json(), std::string("{\"name\":\"bytes\",\"configuration\":{\"endian\":\"") +
                                 (big ? "big" : "little") + "\"}}"};
}

V2ElementForm v2_element_form(const DataType& type, const std::string& object_codec_json, const std::string& where) {
  if (type.kind() == DTypeKind::Optional) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": data type " + type.to_v3_json() + " (zarrs' optional) has no Zarr v2 form");
  }
  if (type.kind() == DTypeKind::VarString) return {type.to_v2_json(), "{\"id\":\"vlen-utf8\"}"};
  if (type.kind() == DTypeKind::VarBytes) return {type.to_v2_json(), "{\"id\":\"vlen-bytes\"}"};
  if (type.kind() != DTypeKind::Object) return {type.to_v2_json(), ""};
  if (object_codec_json.empty()) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": an object (\"|O\") data type needs its object codec (vlen-utf8, "
                                       "vlen-bytes or json2); or name the type \"string\" or \"variable_length_bytes\"");
  }
  object_codec_id(object_codec_json, where);
  return {type.to_v2_json(), json::to_string(parse_argument(object_codec_json, where + ": object codec"))};
}

std::string data_type_form_json(const std::string& data_type, const std::string& object_codec_json, int zarr_format) {
  if (zarr_format != 2 && zarr_format != 3) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_format must be 2 or 3, got " + std::to_string(zarr_format));
  }
  const std::string where = "data type " + data_type;
  const DataType type = parse_data_type_text(data_type, "data_type");
  if (zarr_format == 3) {
    const V3ElementForm form = v3_element_form(type, object_codec_json, where);
    return "{\"data_type\":" + form.data_type + ",\"serializer\":" + form.serializer + "}";
  }
  const V2ElementForm form = v2_element_form(type, object_codec_json, where);
  return "{\"dtype\":" + form.dtype + ",\"object_codec\":" + (form.object_codec.empty() ? "null" : form.object_codec) + "}";
}

}  // namespace zarr
