#include "array_spec.h"

#include <utility>

#include "base/text.h"
#include "cli_common.h"

namespace zarrtool {
namespace {

// v3 names and their little-endian v2 (NumPy) spellings.
const std::pair<const char*, const char*> kTypeNames[] = {
    {"bool", "|b1"},      {"int8", "|i1"},       {"uint8", "|u1"},     {"int16", "<i2"},
    {"uint16", "<u2"},    {"int32", "<i4"},      {"uint32", "<u4"},    {"int64", "<i8"},
    {"uint64", "<u8"},    {"float16", "<f2"},    {"float32", "<f4"},   {"float64", "<f8"},
    {"complex64", "<c8"}, {"complex128", "<c16"},
};

const char kBytesCodec[] = R"({"name":"bytes","configuration":{"endian":"little"}})";

bool is_json_array(const std::string& json) {
  return json.find_first_not_of(" \t\r\n") != std::string::npos && json[json.find_first_not_of(" \t\r\n")] == '[';
}

// --codec for v3: a list is the whole codec chain; an object is a compressor
// placed after the bytes codec.
std::string v3_codec_chain(const std::string& codec_json) {
  if (codec_json.empty()) return "[" + std::string(kBytesCodec) + "]";
  parse_json(codec_json, "--codec");
  if (is_json_array(codec_json)) return codec_json;
  return "[" + std::string(kBytesCodec) + "," + codec_json + "]";
}

std::string v3_document(const ArraySpec& spec) {
  const std::vector<uint64_t>& grid = spec.shards.empty() ? spec.chunks : spec.shards;
  std::string doc = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":" + zarr::list_text(spec.shape, ",") +
                    ",\"data_type\":" + json_string(v3_data_type(spec.data_type));
  if (!grid.empty()) {
    doc += ",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":" + zarr::list_text(grid, ",") + "}}";
  }
  if (!spec.shards.empty()) {
    if (spec.chunks.empty()) usage_error("--shards needs --chunks (the inner chunk shape)");
    doc += ",\"codecs\":[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":" +
           zarr::list_text(spec.chunks, ",") + ",\"codecs\":" + v3_codec_chain(spec.codec_json) + "}}]";
  } else if (!spec.codec_json.empty()) {
    doc += ",\"codecs\":" + v3_codec_chain(spec.codec_json);
  }
  if (!spec.fill_value_json.empty()) doc += ",\"fill_value\":" + spec.fill_value_json;
  if (!spec.attributes_json.empty()) doc += ",\"attributes\":" + spec.attributes_json;
  if (!spec.dimension_names_json.empty() && spec.dimension_names_json != "null") {
    doc += ",\"dimension_names\":" + spec.dimension_names_json;
  }
  return doc + "}";
}

std::string v2_document(const ArraySpec& spec) {
  if (!spec.shards.empty()) usage_error("--shards needs --format 3: Zarr v2 has no sharding");
  std::string doc = "{\"zarr_format\":2,\"shape\":" + zarr::list_text(spec.shape, ",") +
                    ",\"dtype\":" + json_string(v2_data_type(spec.data_type));
  if (!spec.chunks.empty()) doc += ",\"chunks\":" + zarr::list_text(spec.chunks, ",");
  if (!spec.codec_json.empty()) {
    parse_json(spec.codec_json, "--codec");
    if (is_json_array(spec.codec_json)) usage_error("--codec for --format 2 is one compressor object or null");
    doc += ",\"compressor\":" + spec.codec_json;
  }
  if (!spec.fill_value_json.empty()) doc += ",\"fill_value\":" + spec.fill_value_json;
  return doc + "}";
}

}  // namespace

// NumPy also spells single-byte types with '<' or '>' ("<u1"): same type as "|u1".
static bool same_numpy_type(const std::string& given, const std::string& v2) {
  if (given == v2) return true;
  return v2[0] == '|' && given.size() == v2.size() && (given[0] == '<' || given[0] == '>') &&
         given.compare(1, std::string::npos, v2, 1, std::string::npos) == 0;
}

std::string v3_data_type(const std::string& name) {
  for (const auto& [v3, v2] : kTypeNames) {
    if (same_numpy_type(name, v2)) return v3;
  }
  return name;
}

std::string v2_data_type(const std::string& name) {
  for (const auto& [v3, v2] : kTypeNames) {
    if (name == v3) return v2;
  }
  return name;
}

std::string fill_value_json(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str(), text.size());
  return doc.HasParseError() ? json_string(text) : text;
}

std::string metadata_document(const ArraySpec& spec) {
  if (spec.zarr_format == 3) return v3_document(spec);
  if (spec.zarr_format == 2) return v2_document(spec);
  usage_error("--format must be 2 or 3");
}

}  // namespace zarrtool
