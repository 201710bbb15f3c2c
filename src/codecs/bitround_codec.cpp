// "bitround": the registry's v3 array->array codec, also numcodecs.BitRound
// (the v2 filter "bitround" and the v3 alias "numcodecs.bitround"). One
// rounding serves all three:
//  - floats (the v2 filter: float16, float32, float64, either byte order; v3
//    also bfloat16 and each half of the complex types) keep `keepbits` bits
//    of their mantissa, rounded to nearest with ties to even on the float's
//    bits read as an integer of the same width, wrapping around as numcodecs
//    0.11 does (so the carry may move into the exponent, and NaN or infinity
//    bits may change alike);
//  - integers (v3 only; numcodecs refuses them) keep `keepbits` bits from the
//    most significant set bit of their magnitude, rounded alike, saturating
//    at the type's largest magnitude instead of wrapping (the registry's
//    sample: uint8 255 keeps 3 bits as 224). Signed values round their
//    magnitude and keep their sign.
// Decoding is the identity.
#include <cstring>

#include "codecs/builtin_codecs.h"
#include "codecs/native_word.h"
#include "codecs/numpy_arith.h"

#include "base/error.h"
#include "base/json.h"

namespace zarr::codecs {

namespace {

const std::string kId = "bitround";

// Mantissa bits of float16, float32, float64.
int mantissa_bits(size_t size) { return size == 2 ? 10 : size == 4 ? 23 : 52; }

uint64_t low_bits_mask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

// `bits` (a value of `width` bits) rounded to drop its low `maskbits` bits,
// ties to even, wrapping around at `width` bits.
uint64_t round_bits_wrapping(uint64_t bits, unsigned width, unsigned maskbits) {
  if (maskbits == 0) return bits;
  const uint64_t half_quantum1 = (uint64_t{1} << (maskbits - 1)) - 1;
  bits += ((bits >> maskbits) & 1) + half_quantum1;
  return bits & low_bits_mask(width) & (~uint64_t{0} << maskbits);
}

// The bits below the `keepbits` most significant set bits of `magnitude`.
unsigned dropped_bits(uint64_t magnitude, unsigned keepbits) {
  unsigned significant = 0;
  while (significant < 64 && (magnitude >> significant) != 0) ++significant;
  return significant > keepbits ? significant - keepbits : 0;
}

// A magnitude rounded to keep `keepbits` bits from its most significant set
// bit; past `largest`, largest's own top keepbits bits (saturation).
uint64_t round_magnitude(uint64_t magnitude, unsigned keepbits, uint64_t largest) {
  const unsigned maskbits = dropped_bits(magnitude, keepbits);
  if (maskbits == 0) return magnitude;
  const uint64_t half_quantum1 = (uint64_t{1} << (maskbits - 1)) - 1;
  const uint64_t step = ((magnitude >> maskbits) & 1) + half_quantum1;
  if (magnitude > largest - step) return largest & (~uint64_t{0} << dropped_bits(largest, keepbits));
  return (magnitude + step) & (~uint64_t{0} << maskbits);
}

// ---- numcodecs' v2 filter -------------------------------------------------------------

class BitRoundCodec final : public BytesCodec {
 public:
  BitRoundCodec(int keepbits, NumType dtype) : keepbits_(keepbits), dtype_(dtype) {}

  std::string id() const override { return kId; }
  std::string config_json() const override { return FilterConfigWriter(kId).add_int("keepbits", keepbits_).str(); }

  Bytes encode(ByteView decoded) const override {
    size_t n = count_items(kId, decoded.size, dtype_.size, "input", "dtype " + dtype_.str());
    Bytes out = decoded.to_bytes();
    const unsigned width = static_cast<unsigned>(dtype_.size * 8);
    const unsigned maskbits = static_cast<unsigned>(mantissa_bits(dtype_.size) - keepbits_);
    const NumType as_uint{NumKind::UInt, dtype_.size, dtype_.big_endian};
    for (size_t k = 0; k < n; ++k) {
      uint8_t* p = out.data() + k * dtype_.size;
      Num b = load(p, as_uint);
      b.i = round_bits_wrapping(b.i, width, maskbits);
      store(p, as_uint, b);
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

// ---- the v3 codec ----------------------------------------------------------------------

// How the v3 codec rounds the items of one data type: floats `parts` values
// of `width` bits with `mantissa` bits each, or an integer.
struct BitRoundPlan {
  bool is_integer = false;
  bool is_signed = false;
  unsigned width = 0;     // bits of one value
  unsigned mantissa = 0;  // floats
  size_t parts = 1;       // 2 for complex types
};

std::optional<BitRoundPlan> plan_for(const DataType& t) {
  const unsigned item_bits = static_cast<unsigned>(t.item_size() * 8);
  auto float_bits = [](DTypeKind kind, unsigned width) -> std::optional<unsigned> {
    if (kind == DTypeKind::BFloat16) return 7u;
    if (kind == DTypeKind::Float) return static_cast<unsigned>(mantissa_bits(width / 8));
    return std::nullopt;
  };
  switch (t.kind()) {
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta:
      return BitRoundPlan{true, t.kind() != DTypeKind::UInt, item_bits, 0, 1};
    case DTypeKind::Float:
    case DTypeKind::BFloat16:
      return BitRoundPlan{false, false, item_bits, *float_bits(t.kind(), item_bits), 1};
    case DTypeKind::Complex:
      if (auto m = float_bits(t.complex_component_kind(), item_bits / 2)) {
        return BitRoundPlan{false, false, item_bits / 2, *m, 2};
      }
      return std::nullopt;
    default: return std::nullopt;
  }
}

uint64_t round_integer(uint64_t bits, const BitRoundPlan& plan, unsigned keepbits) {
  const uint64_t mask = low_bits_mask(plan.width);
  if (!plan.is_signed) return round_magnitude(bits & mask, keepbits, mask);
  const uint64_t sign = uint64_t{1} << (plan.width - 1);
  const bool negative = (bits & sign) != 0;
  const uint64_t magnitude = negative ? ((~bits + 1) & mask) : (bits & mask);
  const uint64_t rounded = round_magnitude(magnitude, keepbits, negative ? sign : sign - 1);
  return negative ? ((~rounded + 1) & mask) : rounded;
}

class BitRoundArrayCodec final : public ArrayToArrayCodec {
 public:
  BitRoundArrayCodec(std::string name, unsigned keepbits, BitRoundPlan plan)
      : name_(std::move(name)), keepbits_(keepbits), plan_(plan) {}

  std::string name() const override { return name_; }
  std::string v3_config_json() const override {
    return "{\"name\":" + json::quote(name_) + ",\"configuration\":{\"keepbits\":" + std::to_string(keepbits_) + "}}";
  }
  ArrayRepr encoded_repr(const ArrayRepr& decoded) const override { return decoded; }

  Bytes encode(Bytes chunk, const ArrayRepr&) const override {
    const size_t size = plan_.width / 8;
    for (size_t at = 0; at + size <= chunk.size(); at += size) {
      uint64_t v = load_native_word(chunk.data() + at, size);
      v = plan_.is_integer ? round_integer(v, plan_, keepbits_)
                           : round_bits_wrapping(v, plan_.width, plan_.mantissa - keepbits_);
      store_native_word(chunk.data() + at, size, v);
    }
    return chunk;
  }
  Bytes decode(Bytes chunk, const ArrayRepr&) const override { return chunk; }

 private:
  std::string name_;
  unsigned keepbits_;
  BitRoundPlan plan_;
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

V3Codec make_bitround_v3(const V3CodecRequest& request, const std::string& name) {
  const std::string& where = request.where;
  if (!request.configuration) fail(ZARR_ERR_INVALID_METADATA, where + ": 'configuration' is required");
  json::check_members(*request.configuration, {"keepbits"}, ZARR_ERR_INVALID_METADATA, where, "configuration member");
  const rapidjson::Value& k = json::require(*request.configuration, "keepbits", where);
  const DataType& t = request.decoded.dtype;
  std::optional<BitRoundPlan> plan = plan_for(t);
  if (!plan) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": bitround rounds integers and float16, bfloat16, float32, float64 "
                                            "and their complex types, not the data type " +
                                        t.v3_name().value_or(t.to_v2_json()));
  }
  const unsigned most = plan->is_integer ? plan->width : plan->mantissa;
  if (!k.IsUint64() || k.GetUint64() < 1 || k.GetUint64() > most) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'keepbits' must be an integer 1.." + std::to_string(most) +
                                        " for this data type, got " + json::to_string(k));
  }
  const unsigned keepbits = static_cast<unsigned>(k.GetUint64());
  return V3Codec{std::make_shared<BitRoundArrayCodec>(name, keepbits, *plan), nullptr, nullptr};
}

}  // namespace zarr::codecs
