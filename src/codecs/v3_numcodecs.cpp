#include "codecs/v3_numcodecs.h"

#include "base/error.h"
#include "base/json.h"

namespace zarr::codecs {

std::string v2_config(const std::string& id, const rapidjson::Value* configuration) {
  std::string out = "{\"id\":" + json::quote(id);
  if (configuration) {
    for (auto it = configuration->MemberBegin(); it != configuration->MemberEnd(); ++it) {
      if (json::text(it->name) == "id") continue;
      out += "," + json::to_string(it->name) + ":" + json::to_string(it->value);
    }
  }
  return out + "}";
}

std::unique_ptr<BytesCodec> make_from_v2(const std::string& config, const ChunkRepr& repr, const std::string& where) {
  rapidjson::Document doc = json::parse(config, where);
  try {
    return make_bytes_codec(doc, repr);
  } catch (const Error& e) {
    fail(e.code(), where + ": " + e.what());
  }
}

std::string configuration_of(const BytesCodec& codec) {
  rapidjson::Document c = json::parse(codec.config_json(), codec.id());
  c.RemoveMember("id");
  return json::to_string(c);
}

V3Codec named_v2_codec(std::unique_ptr<BytesCodec> codec, std::string v3_json) {
  return V3Codec{nullptr, nullptr, std::make_shared<V3NamedCodec>(std::move(codec), std::move(v3_json))};
}

V3Codec v3_codec_from_v2(const char* id, const V3CodecRequest& request, V3JsonOf to_v3) {
  std::unique_ptr<BytesCodec> codec = make_from_v2(v2_config(id, request.configuration), request.bytes_repr, request.where);
  std::string v3 = to_v3(*codec, request.bytes_repr.item_size);
  return named_v2_codec(std::move(codec), std::move(v3));
}

}  // namespace zarr::codecs
