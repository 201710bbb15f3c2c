// The v3 "bytes" codec, also the stored layout of every v2 chunk.
#include <cstring>

#include "codecs/array_codecs.h"
#include "core/error.h"

namespace zarr {

namespace {

class BytesLayoutCodec final : public ArrayToBytesCodec {
 public:
  BytesLayoutCodec(DataType stored, std::optional<bool> endian_big)
      : stored_(std::move(stored)), endian_big_(endian_big) {}

  std::string name() const override { return "bytes"; }

  std::string v3_config_json() const override {
    if (!endian_big_) return "{\"name\":\"bytes\"}";
    return std::string("{\"name\":\"bytes\",\"configuration\":{\"endian\":\"") + (*endian_big_ ? "big" : "little") +
           "\"}}";
  }

  Bytes encode(Bytes chunk, const ArrayRepr&) const override {
    // Swapping is its own inverse: native -> stored and stored -> native alike.
    if (stored_.needs_byte_swap()) stored_.swap_in_place(chunk.data(), chunk.size() / stored_.item_size());
    return chunk;
  }

  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override {
    if (stored.size != decoded.byte_size()) {
      fail(ZARR_ERR_CODEC, "codec 'bytes': chunk is " + std::to_string(stored.size) + " bytes, expected " +
                               std::to_string(decoded.byte_size()));
    }
    return encode(stored.to_bytes(), decoded);
  }

  size_t fixed_encoded_size(const ArrayRepr& decoded) const override { return decoded.byte_size(); }

 private:
  DataType stored_;
  std::optional<bool> endian_big_;
};

}  // namespace

std::shared_ptr<const ArrayToBytesCodec> make_bytes_layout_codec(const DataType& stored,
                                                                 std::optional<bool> endian_big) {
  return std::make_shared<BytesLayoutCodec>(stored, endian_big);
}

}  // namespace zarr
