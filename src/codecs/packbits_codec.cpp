// "packbits": numcodecs.PackBits. Each byte of the chunk is a bool (not zero
// is true); encoding stores one byte giving how many bits pad the last byte
// (0..7), then the bits, eight per byte, the first in the highest bit, as
// np.packbits. Decoding gives bytes 0 and 1.
#include "codecs/builtin_codecs.h"
#include "codecs/numpy_arith.h"

namespace zarr::codecs {

namespace {

const std::string kId = "packbits";

class PackBitsCodec final : public BytesCodec {
 public:
  std::string id() const override { return kId; }
  std::string config_json() const override { return FilterConfigWriter(kId).str(); }

  Bytes encode(ByteView decoded) const override {
    size_t n = decoded.size;
    size_t packed = (n + 7) / 8;
    Bytes out(1 + packed, 0);
    out[0] = static_cast<uint8_t>(n % 8 ? 8 - n % 8 : 0);
    for (size_t k = 0; k < n; ++k) {
      if (decoded.data[k] != 0) out[1 + k / 8] |= static_cast<uint8_t>(0x80u >> (k % 8));
    }
    return out;
  }

  // A header byte, then 8 items per byte.
  std::optional<uint64_t> max_encoded_size(uint64_t n) const override { return 1 + n / 8 + (n % 8 != 0); }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    if (encoded.size == 0) codec_error(kId, "truncated input: no header byte");
    size_t padded = encoded.data[0];
    size_t bits = (encoded.size - 1) * 8;
    if (padded > 7 || padded > bits) {
      codec_error(kId, "corrupt input: header says " + std::to_string(padded) + " padding bits with " +
                           std::to_string(bits) + " bits of data");
    }
    size_t n = bits - padded;
    check_output_size(kId, n, expected_size);
    Bytes out(n);
    for (size_t k = 0; k < n; ++k) out[k] = (encoded.data[1 + k / 8] >> (7 - k % 8)) & 1;
    return out;
  }
};

}  // namespace

std::unique_ptr<BytesCodec> make_packbits_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  return std::make_unique<PackBitsCodec>();
}

}  // namespace zarr::codecs
