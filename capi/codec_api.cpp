// zarr_codec_*: one codec on plain buffers, outside any array.
#include <cstdlib>
#include <cstring>

#include "base/json.h"
#include "codecs/plugin_codec.h"
#include "codecs/v3_chain.h"
#include "guard.h"

struct zarr_codec {
  std::shared_ptr<const zarr::BytesCodec> impl;
};

namespace zarr::capi {
namespace {

// What a codec outside an array knows of its data: the dtype its
// configuration names (numcodecs filters), else single bytes.
ChunkRepr repr_from(const rapidjson::Value* parameters, const std::string& where) {
  ChunkRepr repr;
  const rapidjson::Value* dtype = parameters ? json::find(*parameters, "dtype") : nullptr;
  if (dtype && dtype->IsString()) {
    DataType t = DataType::from_typestr(json::text(*dtype), where + ": field 'dtype'");
    repr.item_size = t.item_size();
    repr.dtype = json::text(*dtype);
  }
  return repr;
}

std::shared_ptr<const BytesCodec> make_codec(const std::string& text) {
  const std::string where = "codec configuration";
  rapidjson::Document config = json::parse(text, where);
  if (!config.IsObject()) fail(ZARR_ERR_INVALID_ARGUMENT, where + ": expected a JSON object, got " + text);
  // Errors about the dtype hint name the codec, as the codecs' own errors do.
  auto named = [&](const rapidjson::Value* name) {
    return name && name->IsString() ? "codec '" + json::text(*name) + "'" : where;
  };
  if (const rapidjson::Value* id = json::find(config, "id")) {
    return make_bytes_codec(config, repr_from(&config, named(id)));
  }
  if (const rapidjson::Value* name = json::find(config, "name")) {
    const rapidjson::Value* parameters = json::find(config, "configuration");
    return make_v3_bytes_codec(config, repr_from(parameters, named(name)), where);
  }
  fail(ZARR_ERR_INVALID_ARGUMENT, where + ": needs \"id\" (v2 form) or \"name\" (v3 form): " + text);
}

// Copies a result into memory the caller frees with zarr_free.
void hand_out(const Bytes& result, void** out, size_t* out_nbytes) {
  void* p = std::malloc(result.empty() ? 1 : result.size());
  if (!p) throw std::bad_alloc();
  if (!result.empty()) std::memcpy(p, result.data(), result.size());
  *out = p;
  *out_nbytes = result.size();
}

// `function`: the API function's name, for the guard.
template <typename Run>
int run_codec(const char* function, zarr_codec* codec, const void* in, size_t nbytes, void** out,
              size_t* out_nbytes, Run run) {
  if (out) *out = nullptr;
  if (out_nbytes) *out_nbytes = 0;
  return guarded(function, [&] {
    require(codec, "codec");
    require(out, "out");
    require(out_nbytes, "out_nbytes");
    if (!in && nbytes > 0) require(in, "in");
    const ByteView input(static_cast<const uint8_t*>(in), nbytes);
    hand_out(run(*codec->impl, input), out, out_nbytes);
  });
}

}  // namespace
}  // namespace zarr::capi

extern "C" {

ZARR_API int zarr_codec_create(zarr_codec** out, const char* config_json) {
  using namespace zarr::capi;
  if (out) *out = nullptr;
  return guarded(__func__, [&] {
    require(out, "out");
    require(config_json, "config_json");
    *out = new zarr_codec{make_codec(config_json)};
  });
}

ZARR_API int zarr_codec_encode(zarr_codec* codec, const void* in, size_t nbytes, void** out, size_t* out_nbytes) {
  return zarr::capi::run_codec(__func__, codec, in, nbytes, out, out_nbytes,
                               [](const zarr::BytesCodec& c, zarr::ByteView input) { return c.encode(input); });
}

ZARR_API int zarr_codec_decode(zarr_codec* codec, const void* in, size_t nbytes, void** out, size_t* out_nbytes) {
  return zarr::capi::run_codec(__func__, codec, in, nbytes, out, out_nbytes,
                               [](const zarr::BytesCodec& c, zarr::ByteView input) { return c.decode(input, 0); });
}

ZARR_API int zarr_codec_config(const zarr_codec* codec, char** json_out) {
  using namespace zarr::capi;
  if (json_out) *json_out = nullptr;
  return guarded(__func__, [&] {
    require(codec, "codec");
    require(json_out, "json_out");
    *json_out = copy_out(codec->impl->config_json());
  });
}

ZARR_API void zarr_codec_free(zarr_codec* codec) { delete codec; }

ZARR_API int zarr_codec_register(const zarr_codec_vtable* vtable) {
  return zarr::capi::guarded(__func__, [&] { zarr::register_plugin_codec(vtable); });
}

}  // extern "C"
