#include "codecs/checksum32.h"

#include <algorithm>
#include <cstdio>

#include "base/error.h"
#include "base/size_limits.h"
#include "codecs/codec_util.h"
#include "codecs/numpy_arith.h"

namespace zarr::codecs {

namespace {

constexpr size_t kChecksumSize = 4;

std::string describe(uint32_t v) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "%08x", static_cast<unsigned>(v));
  return std::to_string(v) + " (0x" + hex + ")";
}

class Checksum32Codec final : public BytesCodec {
 public:
  Checksum32Codec(const Checksum32Spec& spec, bool at_end, bool location_given)
      : spec_(spec), at_end_(at_end), location_given_(location_given) {}

  std::string id() const override { return spec_.id; }
  std::string config_json() const override {
    FilterConfigWriter w(spec_.id);
    // numcodecs' get_config() lists "location" only when it was given.
    if (location_given_) w.add_string("location", at_end_ ? "end" : "start");
    return w.str();
  }

  Bytes encode(ByteView decoded) const override {
    Bytes out(decoded.size + kChecksumSize);
    uint32_t sum = spec_.checksum(decoded.data, decoded.size);
    uint8_t* sum_at = at_end_ ? out.data() + decoded.size : out.data();
    uint8_t* data_at = at_end_ ? out.data() : out.data() + kChecksumSize;
    for (size_t k = 0; k < kChecksumSize; ++k) sum_at[k] = static_cast<uint8_t>(sum >> (8 * k));
    std::copy(decoded.data, decoded.data + decoded.size, data_at);
    return out;
  }

  std::optional<uint64_t> max_encoded_size(uint64_t n) const override { return saturating_add(n, kChecksumSize); }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    if (encoded.size < kChecksumSize) {
      codec_error(spec_.id, "truncated input: " + std::to_string(encoded.size) +
                                " bytes, shorter than the 4-byte checksum");
    }
    size_t n = encoded.size - kChecksumSize;
    check_output_size(spec_.id, n, expected_size);
    const uint8_t* sum_at = at_end_ ? encoded.data + n : encoded.data;
    const uint8_t* data_at = at_end_ ? encoded.data : encoded.data + kChecksumSize;
    uint32_t stored = 0;
    for (size_t k = 0; k < kChecksumSize; ++k) stored |= uint32_t{sum_at[k]} << (8 * k);
    uint32_t computed = spec_.checksum(data_at, n);
    if (stored != computed) {
      codec_error(spec_.id, "checksum mismatch: stored " + describe(stored) + ", computed " + describe(computed) +
                                " over " + std::to_string(n) + " bytes (corrupt data)");
    }
    return Bytes(data_at, data_at + n);
  }

 private:
  Checksum32Spec spec_;
  bool at_end_;
  bool location_given_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_checksum32_codec(const rapidjson::Value& config, const Checksum32Spec& spec) {
  ConfigReader cfg(config, spec.id);
  bool at_end = spec.at_end;
  bool given = false;
  if (spec.has_location) {
    const rapidjson::Value* v = cfg.find("location");
    if (v && !v->IsNull()) {
      std::string loc = v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
      if (loc != "start" && loc != "end") cfg.invalid("location", "\"start\" or \"end\"", *v);
      at_end = loc == "end";
      given = true;
    }
  }
  return std::make_unique<Checksum32Codec>(spec, at_end, given);
}

}  // namespace zarr::codecs
