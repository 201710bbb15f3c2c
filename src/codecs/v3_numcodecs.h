// numcodecs (v2) implementations under v3 names. The v3 adapters of gzip,
// zstd, blosc and crc32c (each in its codec's file) and the v3 chain parser's
// "numcodecs.<id>" and plugin codecs (v3_chain.cpp) translate a v3
// configuration into the numcodecs one, build the v2 codec from the
// registry, and keep the v3 form to write back: the stored bytes are the
// same either way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <rapidjson/document.h>

#include "codecs/codec.h"

namespace zarr::codecs {

inline constexpr const char* kNumcodecsPrefix = "numcodecs.";

// A bytes->bytes codec as the v3 metadata named it, so it is written back
// under the same name and configuration.
class V3NamedCodec final : public BytesCodec {
 public:
  V3NamedCodec(std::unique_ptr<BytesCodec> inner, std::string v3_json)
      : inner_(std::move(inner)), v3_json_(std::move(v3_json)) {}
  std::string id() const override { return inner_->id(); }
  std::string config_json() const override { return inner_->config_json(); }
  Bytes encode(ByteView decoded) const override { return inner_->encode(decoded); }
  Bytes decode(ByteView encoded, size_t expected_size) const override { return inner_->decode(encoded, expected_size); }
  Bytes decode_at_most(ByteView encoded, size_t max_size) const override {
    return inner_->decode_at_most(encoded, max_size);
  }
  std::optional<uint64_t> max_encoded_size(uint64_t decoded_size) const override {
    return inner_->max_encoded_size(decoded_size);
  }
  // The accelerations too, or v3 arrays would lose them to this wrapper.
  void decode_into(ByteView encoded, uint8_t* out, size_t out_size) const override {
    inner_->decode_into(encoded, out, out_size);
  }
  bool decode_in_pieces(ByteView encoded, size_t out_size, const PieceArrived& arrived) const override {
    return inner_->decode_in_pieces(encoded, out_size, arrived);
  }
  bool decodes_by_blocks() const override { return inner_->decodes_by_blocks(); }
  size_t encoded_bound(size_t decoded_size) const override { return inner_->encoded_bound(decoded_size); }
  size_t encode_into(ByteView decoded, uint8_t* out, size_t capacity) const override {
    return inner_->encode_into(decoded, out, capacity);
  }
  const std::string& v3_json() const { return v3_json_; }

 private:
  std::unique_ptr<BytesCodec> inner_;
  std::string v3_json_;
};

// A v3 "configuration" object's members (nullptr: none) copied into a
// numcodecs configuration {"id": id, ...}.
std::string v2_config(const std::string& id, const rapidjson::Value* configuration);

// The v2 codec of a numcodecs configuration, from the registry; its errors
// name `where`.
std::unique_ptr<BytesCodec> make_from_v2(const std::string& config, const ChunkRepr& repr, const std::string& where);

// The codec's numcodecs configuration as a v3 "configuration" object: every
// member but "id", defaults filled in.
std::string configuration_of(const BytesCodec& codec);

// A v2 codec written back as `v3_json` (zarr-python 3's form of a core codec).
V3Codec named_v2_codec(std::unique_ptr<BytesCodec> codec, std::string v3_json);

// A core v3 codec whose implementation is the numcodecs codec `id` (gzip,
// zstd): built from the v3 configuration, written back by `to_v3`.
using V3JsonOf = std::string (*)(const BytesCodec& codec, size_t item_size);
V3Codec v3_codec_from_v2(const char* id, const V3CodecRequest& request, V3JsonOf to_v3);

}  // namespace zarr::codecs
