// "lz4": numcodecs' LZ4 format, a 4-byte little-endian decoded size followed
// by one LZ4 block (not the LZ4 frame format).
#include <lz4.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "codecs/builtin_codecs.h"
#include "codecs/codec_util.h"

namespace zarr::codecs {

namespace {

const std::string kId = "lz4";
constexpr size_t kHeaderSize = 4;

void store_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

uint32_t load_le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

class Lz4Codec final : public SizedDecoderCodec {
 public:
  explicit Lz4Codec(int acceleration) : acceleration_(acceleration) {}

  std::string id() const override { return kId; }
  std::string config_json() const override {
    return ConfigWriter(kId).add_int("acceleration", acceleration_).str();
  }

  Bytes encode(ByteView decoded) const override { return encode_through_bound(*this, decoded); }

  size_t encoded_bound(size_t decoded_size) const override {
    check_input_size(decoded_size);
    return kHeaderSize + static_cast<size_t>(LZ4_compressBound(static_cast<int>(decoded_size)));
  }

  size_t encode_into(ByteView decoded, uint8_t* out, size_t capacity) const override {
    check_input_size(decoded.size);
    if (capacity < kHeaderSize) codec_error(kId, "no room for the header");
    int src_size = static_cast<int>(decoded.size);
    store_le32(out, static_cast<uint32_t>(src_size));
    // LZ4 itself maps acceleration <= 0 to its default and clamps large
    // values, as numcodecs relies on.
    const size_t room = std::min<size_t>(capacity - kHeaderSize, static_cast<size_t>(INT32_MAX));
    int n = LZ4_compress_fast(reinterpret_cast<const char*>(decoded.data), reinterpret_cast<char*>(out + kHeaderSize),
                              src_size, static_cast<int>(room), acceleration_);
    if (n <= 0) codec_error(kId, "compression failed");
    return kHeaderSize + static_cast<size_t>(n);
  }


 private:
  static void check_input_size(size_t size) {
    if (size > LZ4_MAX_INPUT_SIZE) {
      codec_error(kId, "input of " + std::to_string(size) + " bytes exceeds LZ4's limit of " +
                           std::to_string(LZ4_MAX_INPUT_SIZE));
    }
  }

  // The decoded size the header claims, checked against `expected_size`
  // (0: unknown) and the block before anything is allocated.
  size_t stated_size(ByteView encoded, size_t expected_size) const override {
    if (encoded.size < kHeaderSize) {
      codec_error(kId, "truncated input: " + std::to_string(encoded.size) + " bytes, the size header has 4");
    }
    const size_t claimed = load_le32(encoded.data);
    check_claim(claimed, encoded.size - kHeaderSize, expected_size);
    return claimed;
  }

  // The block after the header into `out`, exactly `claimed` bytes.
  void decompress(ByteView encoded, uint8_t* out, size_t claimed) const override {
    const size_t block_size = encoded.size - kHeaderSize;
    int n = LZ4_decompress_safe(reinterpret_cast<const char*>(encoded.data + kHeaderSize), reinterpret_cast<char*>(out),
                                static_cast<int>(block_size), static_cast<int>(claimed));
    if (n < 0) codec_error(kId, "corrupt or truncated input");
    check_decoded_size(kId, static_cast<size_t>(n), claimed);
  }

  // Refuse a size header before allocating what it claims.
  static void check_claim(size_t claimed, size_t block_size, size_t expected_size) {
    if (expected_size != 0 && claimed != expected_size) {
      codec_error(kId, "size header claims " + std::to_string(claimed) + " decoded bytes, expected " +
                           std::to_string(expected_size));
    }
    if (claimed > LZ4_MAX_INPUT_SIZE || block_size > INT_MAX || claimed > block_size * kLz77MaxExpansion) {
      codec_error(kId, "corrupt input: size header claims " + std::to_string(claimed) + " bytes from a " +
                           std::to_string(block_size) + "-byte block");
    }
  }

  int acceleration_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_lz4_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  return std::make_unique<Lz4Codec>(static_cast<int>(cfg.integer("acceleration", 1, INT_MIN, INT_MAX)));
}

}  // namespace zarr::codecs
