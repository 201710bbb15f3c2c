// "bitround": numcodecs.BitRound. Encoding rounds the mantissa of each float
// of the array's dtype (float16, float32 or float64, either byte order) to
// `keepbits` bits, to nearest with ties to even, on the float's bits read as
// a signed integer of the same width (as numcodecs 0.11 does, so the carry
// may move into the exponent and NaN or infinity bits may change alike).
// Decoding is the identity.
#include "codecs/builtin_codecs.h"
#include "codecs/numpy_arith.h"

#include "base/error.h"
#include "base/json.h"

namespace zarr::codecs {

namespace {

const std::string kId = "bitround";

// Mantissa bits of float16, float32, float64.
int mantissa_bits(size_t size) { return size == 2 ? 10 : size == 4 ? 23 : 52; }

class BitRoundCodec final : public BytesCodec {
 public:
  BitRoundCodec(int keepbits, NumType dtype) : keepbits_(keepbits), dtype_(dtype) {}

  std::string id() const override { return kId; }
  std::string config_json() const override { return FilterConfigWriter(kId).add_int("keepbits", keepbits_).str(); }

  Bytes encode(ByteView decoded) const override {
    size_t n = count_items(kId, decoded.size, dtype_.size, "input", "dtype " + dtype_.str());
    Bytes out = decoded.to_bytes();
    const int maskbits = mantissa_bits(dtype_.size) - keepbits_;
    if (maskbits == 0) return out;
    // The float's bits as a signed integer of its width.
    const NumType as_int{NumKind::Int, dtype_.size, dtype_.big_endian};
    const int64_t half_quantum1 = (int64_t{1} << (maskbits - 1)) - 1;
    const uint64_t mask = ~uint64_t{0} << maskbits;
    Num one;
    for (size_t k = 0; k < n; ++k) {
      uint8_t* p = out.data() + k * dtype_.size;
      Num b = load(p, as_int);
      int64_t v = static_cast<int64_t>(b.i);  // sign-extended
      one.i = static_cast<uint64_t>(((v >> maskbits) & 1) + half_quantum1);
      b = add(b, one, as_int);  // wraps around as numpy's in-place add
      b.i &= mask;
      store(p, as_int, b);
    }
    return out;
  }

  std::optional<uint64_t> max_encoded_size(uint64_t n) const override { return n; }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    check_output_size(kId, encoded.size, expected_size);
    return encoded.to_bytes();
  }

 private:
  int keepbits_;
  NumType dtype_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_bitround_codec(const rapidjson::Value& config, const ChunkRepr& repr) {
  ConfigReader cfg(config, kId);
  if (!cfg.find("keepbits")) missing_field(cfg, "keepbits");
  int64_t keepbits = cfg.integer("keepbits", 0, 0, 52);
  std::optional<NumType> dtype = parse_num_type(repr.dtype);
  if (!dtype || !dtype->is_float()) {
    fail(ZARR_ERR_INVALID_METADATA, "codec '" + kId + "': the array's dtype " +
                                        (repr.dtype.empty() ? std::string("(structured or unknown)")
                                                            : json::quote(repr.dtype)) +
                                        " is not a float; bitround rounds float16, float32 and float64");
  }
  int bits = mantissa_bits(dtype->size);
  if (keepbits > bits) {
    fail(ZARR_ERR_INVALID_METADATA, "codec '" + kId + "': field 'keepbits' must be 0.." + std::to_string(bits) +
                                        " for the array's dtype " + json::quote(repr.dtype) + ", got " +
                                        std::to_string(keepbits));
  }
  return std::make_unique<BitRoundCodec>(static_cast<int>(keepbits), *dtype);
}

}  // namespace zarr::codecs
