// The v3 "bytes" codec, also the stored layout of every v2 chunk.
#include <cstring>

#include "base/error.h"
#include "base/json.h"
#include "base/size_limits.h"
#include "codecs/array_codecs.h"
#include "codecs/builtin_codecs.h"
#include "dtype/byte_order.h"

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
    check_size(stored.size, decoded);
    return encode(stored.to_bytes(), decoded);
  }

  Bytes decode_in_place(Bytes stored, const ArrayRepr& decoded) const override {
    check_size(stored.size(), decoded);
    return encode(std::move(stored), decoded);
  }

  size_t fixed_encoded_size(const ArrayRepr& decoded) const override { return decoded.byte_size(); }
  std::optional<uint64_t> max_encoded_size(const ArrayRepr& decoded) const override {
    return saturating_mul(decoded.elements(), decoded.dtype.item_size());
  }

  bool decodes_in_buffer() const override { return true; }
  bool stores_native_layout() const override { return !stored_.needs_byte_swap(); }

  void decode_in_buffer(uint8_t* data, size_t size, const ArrayRepr& decoded) const override {
    check_size(size, decoded);
    if (stored_.needs_byte_swap()) stored_.swap_in_place(data, size / stored_.item_size());
  }

  // Swapping is its own inverse (see encode).
  void encode_in_buffer(uint8_t* data, size_t size, const ArrayRepr& decoded) const override {
    decode_in_buffer(data, size, decoded);
  }

 private:
  static void check_size(size_t stored_size, const ArrayRepr& decoded) {
    if (stored_size != decoded.byte_size()) {
      fail(ZARR_ERR_CODEC, "codec 'bytes': chunk is " + std::to_string(stored_size) + " bytes, expected " +
                               std::to_string(decoded.byte_size()));
    }
  }

  DataType stored_;
  std::optional<bool> endian_big_;
};

}  // namespace

std::shared_ptr<const ArrayToBytesCodec> make_bytes_layout_codec(const DataType& stored,
                                                                 std::optional<bool> endian_big) {
  return std::make_shared<BytesLayoutCodec>(stored, endian_big);
}

namespace codecs {

// v3 "bytes": {"endian": "little" | "big"}, required for types with a byte order.
V3Codec make_bytes_v3(const V3CodecRequest& request) {
  std::optional<bool> big;
  if (request.configuration) {
    if (const rapidjson::Value* e = json::find(*request.configuration, "endian")) {
      const std::string endian = json::get_string(*e, "endian", request.where);
      if (endian != "little" && endian != "big") {
        fail(ZARR_ERR_INVALID_METADATA, request.where + ": field 'endian' must be \"little\" or \"big\", got " +
                                            json::quote(endian));
      }
      big = endian == "big";
    }
  }
  const DataType& t = request.decoded.dtype;
  // A struct without "endian" is little-endian: legacy "structured" arrays
  // were written so (the registry's "structured" README).
  const bool struct_default = !big && t.kind() == DTypeKind::Structured;
  const DataType stored = t.with_byte_order(big.value_or(struct_default ? false : dtype_detail::host_is_big_endian()));
  if (!big && !struct_default && stored.with_byte_order(!dtype_detail::host_is_big_endian()).needs_byte_swap()) {
    fail(ZARR_ERR_INVALID_METADATA, request.where + ": field 'endian' is required for data type " +
                                        (t.v3_name() ? json::quote(*t.v3_name()) : t.to_v2_json()));
  }
  return V3Codec{nullptr, make_bytes_layout_codec(stored, big), nullptr};
}

}  // namespace codecs

}  // namespace zarr
