// "shuffle": numcodecs.Shuffle, a byte shuffle. With N elements of
// `elementsize` bytes, byte j of element i moves to position j * N + i, so
// the first bytes of all elements come first, then the second bytes, and so
// on. An element size of 1 or less copies the bytes unchanged. A buffer that
// is not a whole number of elements is an error, as in numcodecs.
#include "codecs/builtin_codecs.h"
#include "codecs/filter_util.h"

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
