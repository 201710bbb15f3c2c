// The registry's "scale_offset" codec (array->array): encoding gives
// (x - offset) * scale, decoding x / scale + offset, in the arithmetic of the
// array's data type: floats round each step to the type (nearest, ties to
// even), integers are exact. A step whose result the type does not hold (a
// finite value overflowing, an integer out of range, an integer division
// with a remainder) is an error, as the README requires. The data type does
// not change; the fill value is transformed like an element.
#include <cmath>

#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/numeric_cast.h"
#include "dtype/convert.h"

namespace zarr::codecs {

namespace {

enum class Step { Subtract, Multiply, Divide, Add };

class ScaleOffset {
 public:
  ScaleOffset(DataType t, long double offset, long double scale) : t_(std::move(t)), offset_(offset), scale_(scale) {}

  // One element forward (encoding) or back; nullopt when a step leaves the type.
  std::optional<long double> apply(long double x, bool encoding) const {
    std::optional<long double> a = step(x, encoding ? Step::Subtract : Step::Divide);
    if (!a) return std::nullopt;
    return step(*a, encoding ? Step::Multiply : Step::Add);
  }

  Bytes apply_all(const Bytes& in, bool encoding) const {
    Bytes out(in.size());
    const size_t size = t_.item_size();
    for (size_t at = 0; at + size <= in.size(); at += size) {
      const long double x = load_real(in.data() + at, t_);
      const std::optional<long double> y = apply(x, encoding);
      if (!y) {
        fail(ZARR_ERR_CODEC, std::string("codec 'scale_offset': ") + (encoding ? "encoding" : "decoding") +
                                 " element " + std::to_string(at / size) + " (" + real_text(x) +
                                 ") gives a value " + type_text(t_) + " does not hold");
      }
      store_real(*y, out.data() + at, t_);
    }
    return out;
  }

  const DataType& type() const { return t_; }
  long double offset() const { return offset_; }
  long double scale() const { return scale_; }

 private:
  std::optional<long double> step(long double x, Step s) const {
    if (is_integral(t_)) return integer_step(x, s);
    // In double, rounded once to the type: exact for float64 and, double
    // being more than twice as precise, the same as the type's own rounding
    // for the narrower floats.
    const double a = static_cast<double>(x), b = static_cast<double>(s == Step::Subtract || s == Step::Add ? offset_ : scale_);
    const double r = s == Step::Subtract ? a - b : s == Step::Add ? a + b : s == Step::Multiply ? a * b : a / b;
    const std::optional<long double> rounded = cast_real(r, t_, Rounding::NearestEven, OutOfRange::Fail);
    if (!rounded || (std::isinf(*rounded) && std::isfinite(a))) return std::nullopt;  // overflow
    return rounded;
  }

  std::optional<long double> integer_step(long double x, Step s) const {
    const __int128 a = static_cast<__int128>(x);
    const __int128 b = static_cast<__int128>(s == Step::Subtract || s == Step::Add ? offset_ : scale_);
    __int128 r = 0;
    switch (s) {
      case Step::Subtract: r = a - b; break;
      case Step::Add: r = a + b; break;
      case Step::Multiply:
        if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
        break;
      case Step::Divide:
        if (a % b != 0) return std::nullopt;
        r = a / b;
        break;
    }
    const long double v = static_cast<long double>(r);
    const std::optional<long double> held = cast_real(v, t_, Rounding::NearestEven, OutOfRange::Fail);
    if (!held || static_cast<__int128>(*held) != r) return std::nullopt;
    return held;
  }

  DataType t_;
  long double offset_, scale_;
};

class ScaleOffsetCodec final : public ArrayToArrayCodec {
 public:
  ScaleOffsetCodec(ScaleOffset op, Bytes encoded_fill, std::string v3_json)
      : op_(std::move(op)), encoded_fill_(std::move(encoded_fill)), v3_json_(std::move(v3_json)) {}

  std::string name() const override { return "scale_offset"; }
  std::string v3_config_json() const override { return v3_json_; }
  ArrayRepr encoded_repr(const ArrayRepr& decoded) const override {
    ArrayRepr encoded = decoded;
    encoded.fill_item = encoded_fill_;
    return encoded;
  }
  Bytes encode(Bytes chunk, const ArrayRepr&) const override { return op_.apply_all(chunk, true); }
  Bytes decode(Bytes chunk, const ArrayRepr&) const override { return op_.apply_all(chunk, false); }

 private:
  ScaleOffset op_;
  Bytes encoded_fill_;
  std::string v3_json_;
};

// "offset" or "scale" in the fill value encoding of t; `identity` when absent.
long double read_scalar(const rapidjson::Value* config, const char* field, const DataType& t, long double identity,
                        const std::string& where) {
  const rapidjson::Value* v = config ? json::find(*config, field) : nullptr;
  if (!v) return identity;
  const std::string at = where + ": field '" + field + "'";
  const Bytes item = t.parse_fill_value_v3(*v, at);
  const long double x = load_real(item.data(), t);
  if (!std::isfinite(x)) fail(ZARR_ERR_INVALID_METADATA, at + " must be a finite number, got " + real_text(x));
  if (identity == 1 && x == 0) fail(ZARR_ERR_INVALID_METADATA, at + " must not be 0: decoding divides by it");
  return x;
}

}  // namespace

V3Codec make_scale_offset_v3(const V3CodecRequest& request) {
  const std::string& where = request.where;
  const rapidjson::Value* config = request.configuration;
  if (config) json::check_members(*config, {"offset", "scale"}, ZARR_ERR_INVALID_METADATA, where, "configuration member");
  const DataType& t = request.decoded.dtype;
  if (!is_real_numeric(t)) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": scale_offset works on integers and real floats, not the data type " +
                                        type_text(t));
  }
  ScaleOffset op(t, read_scalar(config, "offset", t, 0, where), read_scalar(config, "scale", t, 1, where));
  Bytes fill = request.decoded.fill_item;
  if (fill.size() == t.item_size()) {
    const long double f = load_real(fill.data(), t);
    const std::optional<long double> encoded = op.apply(f, true);
    if (!encoded) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": the fill value " + real_text(f) + " gives a value " + type_text(t) +
                                          " does not hold");
    }
    store_real(*encoded, fill.data(), t);
  }
  std::string v3 = "{\"name\":\"scale_offset\"";
  if (config) v3 += ",\"configuration\":" + json::to_string(*config);
  return V3Codec{std::make_shared<ScaleOffsetCodec>(std::move(op), std::move(fill), v3 + "}"), nullptr, nullptr};
}

}  // namespace zarr::codecs
