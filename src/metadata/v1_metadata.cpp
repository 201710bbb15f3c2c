#include "metadata/v1_metadata.h"

#include "base/error.h"
#include "base/json.h"
#include "metadata/v2_metadata.h"

namespace zarr {

namespace {

// v1 names the compressor and passes its options separately: a dict of
// keyword arguments (blosc, lzma) or one positional level (zlib, bz2).
std::string compressor_config(const rapidjson::Value& doc, const std::string& where) {
  const rapidjson::Value* name = json::find(doc, "compression");
  if (!name || name->IsNull()) return "null";
  std::string id = json::get_string(*name, "compression", where);
  if (id == "none") return "null";
  const rapidjson::Value* opts = json::find(doc, "compression_opts");
  std::string config = "{\"id\":" + json::quote(id);
  if (opts && opts->IsObject()) {
    for (auto it = opts->MemberBegin(); it != opts->MemberEnd(); ++it) {
      config += "," + json::to_string(it->name) + ":" + json::to_string(it->value);
    }
  } else if (opts && opts->IsNumber()) {
    const char* positional = id == "blosc" ? "clevel" : id == "lzma" ? "preset" : "level";
    config += ",\"" + std::string(positional) + "\":" + json::to_string(*opts);
  } else if (opts && !opts->IsNull()) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'compression_opts' must be an object, a number or null");
  }
  return config + "}";
}

}  // namespace

std::string v1_compressor_as_v2_json(const std::string& meta_text, const std::string& where) {
  rapidjson::Document doc = json::parse_object(meta_text, where);
  return compressor_config(doc, where);
}

ArrayMetadata parse_v1_array_metadata(const std::string& text, const std::string& where) {
  rapidjson::Document doc = json::parse_object(text, where);
  int64_t f = json::get_int(json::require(doc, "zarr_format", where), "zarr_format", where);
  if (f != 1) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'zarr_format' must be 1, got " + std::to_string(f));
  // Rebuild the document as v2 and reuse the v2 parser: the two formats share
  // every field but the compressor's spelling.
  std::string v2 = "{\"zarr_format\":2,\"filters\":null,\"compressor\":" + compressor_config(doc, where);
  for (const char* field : {"shape", "chunks", "dtype", "fill_value", "order"}) {
    const rapidjson::Value* v = json::find(doc, field);
    if (!v) {
      if (std::string(field) == "order") continue;  // early v1 arrays were always C order
      json::require(doc, field, where);
    }
    v2 += ",\"" + std::string(field) + "\":" + json::to_string(*v);
  }
  if (!json::find(doc, "order")) v2 += ",\"order\":\"C\"";
  ArrayMetadata meta = parse_v2_array_metadata(v2 + "}", where);
  meta.zarr_format = 1;
  return meta;
}

}  // namespace zarr
