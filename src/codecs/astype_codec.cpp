// "astype": numcodecs.AsType. Encoding reads the chunk as `decode_dtype` and
// casts it to `encode_dtype`, decoding the other way, both with numpy's casts
// (float to integer truncates; narrowing loses data, as numcodecs warns).
#include "codecs/builtin_codecs.h"
#include "codecs/numpy_arith.h"

namespace zarr::codecs {

namespace {

const std::string kId = "astype";

Bytes convert(ByteView in, const NumType& from, const NumType& to, size_t expected_size) {
  size_t n = count_items(kId, in.size, from.size, "input", "type " + from.str());
  check_output_size(kId, n * to.size, expected_size);
  Bytes out(n * to.size);
  for (size_t k = 0; k < n; ++k) {
    store(out.data() + k * to.size, to, cast_in_run(load(in.data + k * from.size, from), from, to, k, n));
  }
  return out;
}

class AsTypeCodec final : public BytesCodec {
 public:
  AsTypeCodec(NumType encode_dtype, NumType decode_dtype) : encode_(encode_dtype), decode_(decode_dtype) {}

  std::string id() const override { return kId; }
  std::string config_json() const override {
    return FilterConfigWriter(kId)
        .add_string("encode_dtype", encode_.str())
        .add_string("decode_dtype", decode_.str())
        .str();
  }

  Bytes encode(ByteView decoded) const override { return convert(decoded, decode_, encode_, 0); }
  std::optional<uint64_t> max_encoded_size(uint64_t n) const override {
    return converted_size(n, decode_.size, encode_.size);
  }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    return convert(encoded, encode_, decode_, expected_size);
  }

 private:
  NumType encode_, decode_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_astype_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  NumType encode_dtype = read_num_type(cfg, "encode_dtype");
  NumType decode_dtype = read_num_type(cfg, "decode_dtype");
  return std::make_unique<AsTypeCodec>(encode_dtype, decode_dtype);
}

}  // namespace zarr::codecs
