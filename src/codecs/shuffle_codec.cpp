// "shuffle": numcodecs.Shuffle, a byte shuffle. With N elements of
// `elementsize` bytes, byte j of element i moves to position j * N + i, so
// the first bytes of all elements come first, then the second bytes, and so
// on. An element size of 1 or less copies the bytes unchanged. A buffer that
// is not a whole number of elements is an error, as in numcodecs.
#include "codecs/builtin_codecs.h"
#include "codecs/numpy_arith.h"

#include <climits>

namespace zarr::codecs {

namespace {

const std::string kId = "shuffle";

class ShuffleCodec final : public BytesCodec {
 public:
  explicit ShuffleCodec(int64_t elementsize) : elementsize_(elementsize) {}

  std::string id() const override { return kId; }
  std::string config_json() const override {
    return FilterConfigWriter(kId).add_int("elementsize", elementsize_).str();
  }

  Bytes encode(ByteView decoded) const override { return run(decoded, true); }

  // n elements of ES bytes <-> ES planes of n bytes, one plane at a time
  // (contiguous writes when shuffling, contiguous reads when unshuffling).
  template <size_t ES>
  static void transpose_bytes(const uint8_t* in, uint8_t* out, size_t n, bool forward) {
    for (size_t j = 0; j < ES; ++j) {
      if (forward) {
        uint8_t* plane = out + j * n;
        for (size_t i = 0; i < n; ++i) plane[i] = in[i * ES + j];
      } else {
        const uint8_t* plane = in + j * n;
        for (size_t i = 0; i < n; ++i) out[i * ES + j] = plane[i];
      }
    }
  }

  std::optional<uint64_t> max_encoded_size(uint64_t n) const override { return n; }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    check_output_size(kId, encoded.size, expected_size);
    return run(encoded, false);
  }

 private:
  Bytes run(ByteView in, bool forward) const {
    if (elementsize_ <= 1) return in.to_bytes();
    size_t es = static_cast<size_t>(elementsize_);
    size_t n = count_items(kId, in.size, es, "input", "element (elementsize " + std::to_string(es) + ")");
    Bytes out(in.size);
    switch (es) {  // the common widths with the width known to the compiler, which vectorises them
      case 2: transpose_bytes<2>(in.data, out.data(), n, forward); return out;
      case 4: transpose_bytes<4>(in.data, out.data(), n, forward); return out;
      case 8: transpose_bytes<8>(in.data, out.data(), n, forward); return out;
      default: break;
    }
    // Element-major <-> byte-plane-major; walk the element-major side
    // sequentially for locality.
    for (size_t i = 0; i < n; ++i) {
      const size_t base = i * es;
      if (forward) {
        for (size_t j = 0; j < es; ++j) out[j * n + i] = in.data[base + j];
      } else {
        for (size_t j = 0; j < es; ++j) out[base + j] = in.data[j * n + i];
      }
    }
    return out;
  }

  int64_t elementsize_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_shuffle_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  return std::make_unique<ShuffleCodec>(cfg.integer("elementsize", 4, INT64_MIN, INT64_MAX));
}

}  // namespace zarr::codecs
