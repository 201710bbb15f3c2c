// The registry's "zfp" codec (array->bytes, codecs/zfp of zarr-extensions):
// a chunk compressed by libzfp as one field of 1 to 4 dimensions ([ny, nx]
// for a 2-d chunk, [1] for a 0-d one), without zfp's header (the mode is in
// the metadata: "reversible", "expert", "fixed_rate", "fixed_precision",
// "fixed_accuracy"). Types: float32 and float64 as zfp's float and double;
// int32, int64 (and datetime64/timedelta64, int64 underneath) as they are;
// uint32 and uint64 with their top bit flipped (x - 2^(N-1), the README's
// unsigned promotion at N = 32 and 64: order is kept, so smooth data stays
// smooth); int8, int16, uint8 and uint16 promoted to int32 and demoted back
// with the README's formulas (zfp_promote_* / zfp_demote_*); float16 and
// bfloat16 widened to float32 and rounded back (the README's "casting").
#include <cmath>
#include <cstring>
#include <optional>

#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/zfp_stream.h"
#include "dtype/bfloat16.h"
#include "dtype/byte_order.h"
#include "dtype/float_text.h"

namespace zarr::codecs {

namespace {

// How a data type reaches one of zfp's four scalar types.
struct ZfpPlan {
  zfp::Scalar scalar = zfp::Scalar::Float;
  enum Conversion { Direct, FlipTopBit, PromoteSigned, PromoteUnsigned, WidenHalf, WidenBFloat16 } conversion = Direct;
  unsigned bits = 32;  // the data type's width
};

std::optional<ZfpPlan> plan_for(const DataType& t) {
  const size_t n = t.item_size();
  const unsigned bits = static_cast<unsigned>(n * 8);
  switch (t.kind()) {
    case DTypeKind::Float:
      if (n == 2) return ZfpPlan{zfp::Scalar::Float, ZfpPlan::WidenHalf, bits};
      if (n == 4) return ZfpPlan{zfp::Scalar::Float, ZfpPlan::Direct, bits};
      if (n == 8) return ZfpPlan{zfp::Scalar::Double, ZfpPlan::Direct, bits};
      return std::nullopt;
    case DTypeKind::BFloat16: return ZfpPlan{zfp::Scalar::Float, ZfpPlan::WidenBFloat16, bits};
    case DTypeKind::Int:
      if (n >= 4) return ZfpPlan{n == 4 ? zfp::Scalar::Int32 : zfp::Scalar::Int64, ZfpPlan::Direct, bits};
      return ZfpPlan{zfp::Scalar::Int32, ZfpPlan::PromoteSigned, bits};
    case DTypeKind::UInt:
      if (n >= 4) return ZfpPlan{n == 4 ? zfp::Scalar::Int32 : zfp::Scalar::Int64, ZfpPlan::FlipTopBit, bits};
      return ZfpPlan{zfp::Scalar::Int32, ZfpPlan::PromoteUnsigned, bits};
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta: return ZfpPlan{zfp::Scalar::Int64, ZfpPlan::Direct, 64};
    default: return std::nullopt;
  }
}

int64_t load_int(const uint8_t* p, size_t n, bool is_signed) {
  if (n == 1) return is_signed ? int64_t{static_cast<int8_t>(*p)} : int64_t{*p};
  uint16_t u;
  std::memcpy(&u, p, 2);
  return is_signed ? int64_t{static_cast<int16_t>(u)} : int64_t{u};
}

void store_int(uint8_t* p, size_t n, int64_t v) {
  if (n == 1) {
    *p = static_cast<uint8_t>(v);
    return;
  }
  const uint16_t u = static_cast<uint16_t>(v);
  std::memcpy(p, &u, 2);
}

// uint32/uint64 <-> int32/int64: the top bit of each n-byte value flipped
// (native byte order: the top byte is the last one on a little-endian host).
void flip_top_bits(uint8_t* data, size_t size, size_t n) {
  for (size_t i = dtype_detail::host_is_big_endian() ? 0 : n - 1; i < size; i += n) data[i] ^= 0x80;
}

bool widens_float(const ZfpPlan& plan) {
  return plan.conversion == ZfpPlan::WidenHalf || plan.conversion == ZfpPlan::WidenBFloat16;
}

// float16 and bfloat16 as float32, "in the normal way" (the README): exact.
Bytes widen_to_float32(const Bytes& chunk, const ZfpPlan& plan) {
  const size_t count = chunk.size() / 2;
  Bytes out(count * 4);
  for (size_t i = 0; i < count; ++i) {
    uint16_t bits;
    std::memcpy(&bits, chunk.data() + i * 2, 2);
    const float v = static_cast<float>(plan.conversion == ZfpPlan::WidenHalf ? dtype_detail::half_to_double(bits)
                                                                             : dtype_detail::bfloat16_to_double(bits));
    std::memcpy(out.data() + i * 4, &v, 4);
  }
  return out;
}

// And back, rounded to nearest (ties to even); beyond the largest finite
// value is infinity, as IEEE casts give.
void narrow_from_float32(const Bytes& scalars, const ZfpPlan& plan, uint8_t* out, size_t out_size) {
  for (size_t i = 0; i < out_size / 2; ++i) {
    float v;
    std::memcpy(&v, scalars.data() + i * 4, 4);
    const uint16_t bits = plan.conversion == ZfpPlan::WidenHalf ? dtype_detail::double_to_half(v)
                                                                : dtype_detail::double_to_bfloat16(v);
    std::memcpy(out + i * 2, &bits, 2);
  }
}

// The chunk as zfp's scalars (a copy only when the type needs one).
Bytes to_scalars(Bytes chunk, const ZfpPlan& plan) {
  if (plan.conversion == ZfpPlan::Direct) return chunk;
  if (widens_float(plan)) return widen_to_float32(chunk, plan);
  if (plan.conversion == ZfpPlan::FlipTopBit) {
    flip_top_bits(chunk.data(), chunk.size(), plan.bits / 8);
    return chunk;
  }
  const size_t n = plan.bits / 8, count = chunk.size() / n;
  const bool is_signed = plan.conversion == ZfpPlan::PromoteSigned;
  const int64_t offset = is_signed ? 0 : int64_t{1} << (plan.bits - 1);
  Bytes out(count * 4);
  for (size_t i = 0; i < count; ++i) {
    const int64_t v = load_int(chunk.data() + i * n, n, is_signed) - offset;
    const int32_t promoted = static_cast<int32_t>(static_cast<uint32_t>(v) << (31 - plan.bits));
    std::memcpy(out.data() + i * 4, &promoted, 4);
  }
  return out;
}

// zfp's scalars back to the data type, demoting with clamping.
void from_scalars(const Bytes& scalars, const ZfpPlan& plan, uint8_t* out, size_t out_size) {
  if (plan.conversion == ZfpPlan::Direct || plan.conversion == ZfpPlan::FlipTopBit) {
    std::memcpy(out, scalars.data(), out_size);
    if (plan.conversion == ZfpPlan::FlipTopBit) flip_top_bits(out, out_size, plan.bits / 8);
    return;
  }
  if (widens_float(plan)) {
    narrow_from_float32(scalars, plan, out, out_size);
    return;
  }
  const size_t n = plan.bits / 8, count = out_size / n;
  const bool is_signed = plan.conversion == ZfpPlan::PromoteSigned;
  const int64_t half = int64_t{1} << (plan.bits - 1);
  const int64_t lo = is_signed ? -half : 0, hi = is_signed ? half - 1 : 2 * half - 1;
  for (size_t i = 0; i < count; ++i) {
    int32_t v;
    std::memcpy(&v, scalars.data() + i * 4, 4);
    const int64_t shifted = (int64_t{v} >> (31 - plan.bits)) + (is_signed ? 0 : half);
    store_int(out + i * n, n, std::min(std::max(shifted, lo), hi));
  }
}

class ZfpCodec final : public ArrayToBytesCodec {
 public:
  ZfpCodec(ZfpPlan plan, zfp::Mode mode, std::string v3_json)
      : plan_(plan), mode_(mode), v3_json_(std::move(v3_json)) {}

  std::string name() const override { return "zfp"; }
  std::string v3_config_json() const override { return v3_json_; }

  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override {
    const Bytes scalars = to_scalars(std::move(chunk), plan_);
    return zfp::compress(scalars.data(), field_of(decoded), mode_, false);
  }

  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override {
    const zfp::Field field = field_of(decoded);
    Bytes out(decoded.byte_size());
    if (plan_.conversion == ZfpPlan::Direct) {
      zfp::decompress(stored, field, mode_, out.data(), "zfp");
      return out;
    }
    Bytes scalars(field.elements() * zfp::scalar_size(plan_.scalar));
    zfp::decompress(stored, field, mode_, scalars.data(), "zfp");
    from_scalars(scalars, plan_, out.data(), out.size());
    return out;
  }

 private:
  zfp::Field field_of(const ArrayRepr& decoded) const {
    return zfp::Field{plan_.scalar, zfp::field_shape(decoded.shape, "codec 'zfp'")};
  }

  ZfpPlan plan_;
  zfp::Mode mode_;
  std::string v3_json_;
};

double number_field(const rapidjson::Value& config, const char* name, const std::string& where) {
  const rapidjson::Value& v = json::require(config, name, where);
  if (!v.IsNumber() || !std::isfinite(v.GetDouble())) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field '" + name + "' must be a finite number, got " + json::to_string(v));
  }
  return v.GetDouble();
}

unsigned uint_field(const rapidjson::Value& config, const char* name, unsigned most, const std::string& where) {
  const rapidjson::Value& v = json::require(config, name, where);
  if (!v.IsUint64() || v.GetUint64() > most) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field '" + name + "' must be an integer 0.." + std::to_string(most) +
                                        ", got " + json::to_string(v));
  }
  return static_cast<unsigned>(v.GetUint64());
}

// The mode and its parameters (each mode names exactly the members it uses).
zfp::Mode parse_mode(const rapidjson::Value& c, const std::string& where) {
  const std::string mode = json::get_string(json::require(c, "mode", where), "mode", where);
  zfp::Mode m;
  if (mode == "reversible") {
    json::check_members(c, {"mode"}, ZARR_ERR_INVALID_METADATA, where, "configuration member");
  } else if (mode == "expert") {
    json::check_members(c, {"mode", "minbits", "maxbits", "maxprec", "minexp"}, ZARR_ERR_INVALID_METADATA, where,
                        "configuration member");
    m.kind = zfp::Mode::Expert;
    m.minbits = uint_field(c, "minbits", zfp::kMaxBlockBits, where);
    m.maxbits = uint_field(c, "maxbits", zfp::kMaxBlockBits, where);
    m.maxprec = uint_field(c, "maxprec", 64, where);
    const int64_t minexp = json::get_int(json::require(c, "minexp", where), "minexp", where);
    if (minexp < -1074 || minexp > 1024) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field 'minexp' must be -1074..1024, got " + std::to_string(minexp));
    }
    m.minexp = static_cast<int>(minexp);
  } else if (mode == "fixed_rate" || mode == "fixed_precision" || mode == "fixed_accuracy") {
    const char* param = mode == "fixed_rate" ? "rate" : mode == "fixed_precision" ? "precision" : "tolerance";
    json::check_members(c, {"mode", param}, ZARR_ERR_INVALID_METADATA, where, "configuration member");
    m.kind = mode == "fixed_rate" ? zfp::Mode::FixedRate
             : mode == "fixed_precision" ? zfp::Mode::FixedPrecision : zfp::Mode::FixedAccuracy;
    m.value = m.kind == zfp::Mode::FixedPrecision ? uint_field(c, param, 64, where) : number_field(c, param, where);
    if (m.kind != zfp::Mode::FixedPrecision && (m.value < 0 || (m.kind == zfp::Mode::FixedRate && m.value == 0))) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field '" + param + "' must be " +
                                          (m.kind == zfp::Mode::FixedRate ? "> 0" : ">= 0"));
    }
  } else {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'mode' must be \"reversible\", \"expert\", \"fixed_rate\", "
                                            "\"fixed_precision\" or \"fixed_accuracy\", got " + json::quote(mode));
  }
  return m;
}

}  // namespace

V3Codec make_zfp_v3(const V3CodecRequest& request) {
  const std::string& where = request.where;
  if (!request.configuration || !request.configuration->IsObject()) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": codec 'zfp' needs a 'configuration' object with its 'mode'");
  }
  const zfp::Mode mode = parse_mode(*request.configuration, where);
  const DataType& t = request.decoded.dtype;
  std::optional<ZfpPlan> plan = plan_for(t);
  if (!plan) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": zfp compresses int8..int64, uint8..uint64, float16, bfloat16, "
                                            "float32, float64 and datetime64/timedelta64, not the data type " +
                                        t.v3_name().value_or(t.to_v2_json()));
  }
  const zfp::Field field{plan->scalar, zfp::field_shape(request.decoded.shape, where)};
  zfp::check_mode(mode, field, where);
  std::string v3 = "{\"name\":\"zfp\",\"configuration\":" + json::to_string(*request.configuration) + "}";
  return V3Codec{nullptr, std::make_shared<ZfpCodec>(*plan, mode, std::move(v3)), nullptr};
}

}  // namespace zarr::codecs
