#include "codecs/numpy_arith.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/error.h"
#include "base/json.h"
#include "dtype/float_text.h"

namespace zarr::codecs {

// IEEE half precision with numpy's rules (NaN payloads kept): dtype's.
using dtype_detail::double_to_half;
using dtype_detail::half_to_double;

// --- numeric data types -----------------------------------------------------------

namespace {

char kind_char(NumKind k) {
  switch (k) {
    case NumKind::Bool: return 'b';
    case NumKind::Int: return 'i';
    case NumKind::UInt: return 'u';
    case NumKind::Float: return 'f';
  }
  return '?';
}

std::optional<NumType> make_type(char kind, size_t size, bool big_endian) {
  NumType t;
  t.size = size;
  t.big_endian = size > 1 && big_endian;
  switch (kind) {
    case 'b': t.kind = NumKind::Bool; if (size != 1) return std::nullopt; break;
    case 'i': t.kind = NumKind::Int; break;
    case 'u': t.kind = NumKind::UInt; break;
    case 'f': t.kind = NumKind::Float; if (size == 1) return std::nullopt; break;
    default: return std::nullopt;
  }
  if (size != 1 && size != 2 && size != 4 && size != 8) return std::nullopt;
  return t;
}

}  // namespace

std::string NumType::str() const {
  std::string s(1, size == 1 ? '|' : (big_endian ? '>' : '<'));
  s += kind_char(kind);
  s += std::to_string(size);
  return s;
}

NumType NumType::native() const {
  NumType t = *this;
  t.big_endian = false;
  return t;
}

std::optional<NumType> parse_num_type(const std::string& s) {
  static const struct {
    const char* name;
    char kind;
    size_t size;
  } kNames[] = {{"bool", 'b', 1},    {"int8", 'i', 1},    {"int16", 'i', 2},   {"int32", 'i', 4},
                {"int64", 'i', 8},   {"uint8", 'u', 1},   {"uint16", 'u', 2},  {"uint32", 'u', 4},
                {"uint64", 'u', 8},  {"float16", 'f', 2}, {"float32", 'f', 4}, {"float64", 'f', 8}};
  for (const auto& n : kNames) {
    if (s == n.name) return make_type(n.kind, n.size, false);
  }
  size_t pos = 0;
  bool big = false;
  if (!s.empty() && (s[0] == '<' || s[0] == '>' || s[0] == '|' || s[0] == '=')) {
    big = s[0] == '>';
    pos = 1;
  }
  // kind letter and one digit: "i2"
  if (s.size() != pos + 2 || s[pos + 1] < '1' || s[pos + 1] > '8') return std::nullopt;
  return make_type(s[pos], static_cast<size_t>(s[pos + 1] - '0'), big);
}

void missing_field(const ConfigReader& cfg, const char* field) {
  fail(ZARR_ERR_INVALID_METADATA, "codec '" + cfg.id() + "': field '" + field + "' is required");
}

NumType read_num_type(const ConfigReader& cfg, const char* field, std::optional<NumType> fallback) {
  const rapidjson::Value* v = cfg.find(field);
  if (!v || (v->IsNull() && fallback)) {
    if (fallback) return *fallback;
    missing_field(cfg, field);
  }
  if (!v->IsString()) cfg.invalid(field, "a numpy dtype string such as \"<i2\"", *v);
  std::string s(v->GetString(), v->GetStringLength());
  std::optional<NumType> t = parse_num_type(s);
  if (!t) {
    cfg.unsupported("field '" + std::string(field) + "': unsupported dtype " + json::quote(s) +
                    " (supported: b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8 in either byte order)");
  }
  return *t;
}

// --- element values ----------------------------------------------------------------

namespace {

uint64_t normalize(uint64_t bits, const NumType& t) {
  if (t.kind == NumKind::Bool) return bits != 0;
  if (t.size == 8) return bits;
  unsigned width = static_cast<unsigned>(t.size * 8);
  uint64_t mask = (uint64_t{1} << width) - 1;
  bits &= mask;
  if (t.kind == NumKind::Int && (bits >> (width - 1)) != 0) bits |= ~mask;
  return bits;
}

uint64_t double_bits(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  return bits;
}

double bits_double(uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, 8);
  return x;
}

// A NaN with its quiet bit set, as x86 arithmetic and float <-> double
// conversions return a signaling NaN.
double quiet(double x) { return bits_double(double_bits(x) | (uint64_t{1} << 51)); }

// float32 <-> double by hand for NaNs, keeping a signaling NaN signaling
// (numpy copies elements without converting them).
double float_bits_to_double(uint32_t bits) {
  if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0) {
    return bits_double(uint64_t{bits >> 31} << 63 | uint64_t{0x7ff} << 52 | uint64_t{bits & 0x7fffffu} << 29);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t double_to_float_bits(double x) {
  if (std::isnan(x)) {
    uint64_t d = double_bits(x);
    uint32_t payload = static_cast<uint32_t>((d >> 29) & 0x7fffffu);
    return static_cast<uint32_t>(d >> 63) << 31 | 0x7f800000u | (payload ? payload : 0x400000u);
  }
  float f = static_cast<float>(x);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

// Round a double result to what type t holds.
double round_to(double x, const NumType& t) {
  if (t.size == 4) return static_cast<double>(static_cast<float>(x));
  if (t.size == 2) return half_to_double(double_to_half(x));
  return x;
}

// x86's cvttsd2si: truncation toward zero, the "integer indefinite" value
// (the most negative) for NaN and out-of-range input.
int32_t trunc32(double x) {
  if (!(x > -2147483649.0 && x < 2147483648.0)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(x);
}

int64_t trunc64(double x) {
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(x);
}

// numpy 1.24's float -> integer casts on x86-64, measured: up to 32-bit
// signed and 16-bit unsigned targets go through int32 and keep the low bits;
// int64 through int64; uint32 and uint64 take the compiler's unsigned
// sequences (values from 2^31 resp. 2^63 up are offset first). Scalar code
// (float16 sources, converted through float, and the tails of vectorised
// loops) keeps the low 32 bits of an int64 conversion for uint32.
uint64_t float_to_integer_bits(double x, bool scalar_code, const NumType& to) {
  if (to.size < 4 || (to.size == 4 && to.kind == NumKind::Int)) {
    return static_cast<uint64_t>(static_cast<int64_t>(trunc32(x)));
  }
  if (to.size == 8 && to.kind == NumKind::Int) return static_cast<uint64_t>(trunc64(x));
  if (to.size == 4) {
    if (scalar_code) return static_cast<uint64_t>(trunc64(x));
    if (x >= 2147483648.0) return static_cast<uint32_t>(trunc32(x - 2147483648.0)) ^ 0x80000000u;
    return static_cast<uint32_t>(trunc32(x));
  }
  if (x >= 9223372036854775808.0) {
    return static_cast<uint64_t>(trunc64(x - 9223372036854775808.0)) ^ (uint64_t{1} << 63);
  }
  return static_cast<uint64_t>(trunc64(x));
}

double integer_to_float(uint64_t bits, bool is_signed, size_t size) {
  if (size == 4) {
    // numpy casts integers to float32 directly: one rounding.
    float f = is_signed ? static_cast<float>(static_cast<int64_t>(bits)) : static_cast<float>(bits);
    return f;
  }
  double d = is_signed ? static_cast<double>(static_cast<int64_t>(bits)) : static_cast<double>(bits);
  if (size == 2) {
    // numpy goes through float32 for float16 targets.
    float f = is_signed ? static_cast<float>(static_cast<int64_t>(bits)) : static_cast<float>(bits);
    return half_to_double(double_to_half(f));
  }
  return d;
}

}  // namespace

Num load(const uint8_t* p, const NumType& t) {
  uint64_t bits = 0;
  for (size_t k = 0; k < t.size; ++k) {
    size_t src = t.big_endian ? t.size - 1 - k : k;
    bits |= uint64_t{p[src]} << (8 * k);
  }
  Num v;
  if (t.kind != NumKind::Float) {
    v.i = normalize(bits, t);
  } else if (t.size == 2) {
    v.f = half_to_double(static_cast<uint16_t>(bits));
  } else if (t.size == 4) {
    v.f = float_bits_to_double(static_cast<uint32_t>(bits));
  } else {
    std::memcpy(&v.f, &bits, 8);
  }
  return v;
}

void store(uint8_t* p, const NumType& t, const Num& v) {
  uint64_t bits = 0;
  if (t.kind != NumKind::Float) {
    bits = v.i;
  } else if (t.size == 2) {
    bits = double_to_half(v.f);
  } else if (t.size == 4) {
    bits = double_to_float_bits(v.f);
  } else {
    std::memcpy(&bits, &v.f, 8);
  }
  for (size_t k = 0; k < t.size; ++k) {
    size_t dst = t.big_endian ? t.size - 1 - k : k;
    p[dst] = static_cast<uint8_t>(bits >> (8 * k));
  }
}

Num cast(const Num& v, const NumType& from, const NumType& to) { return cast_in_run(v, from, to, 0, 4); }

Num cast_in_run(const Num& v, const NumType& from, const NumType& to, size_t index, size_t run) {
  Num r;
  if (from.kind == NumKind::Float) {
    if (to.kind == NumKind::Float) {
      if (std::isnan(v.f)) {
        // numpy's float16 conversions are bit manipulations that keep the
        // payload; float32 <-> float64 are the CPU's, which quiet it.
        r.f = from.size == to.size || from.size == 2 || to.size == 2 ? v.f : quiet(v.f);
      } else {
        r.f = round_to(v.f, to);
      }
    } else if (to.kind == NumKind::Bool) {
      r.i = v.f != 0;  // NaN is true
    } else {
      bool scalar_code = from.size == 2 || index >= run - run % 4;
      r.i = normalize(float_to_integer_bits(v.f, scalar_code, to), to);
    }
    return r;
  }
  // bool and integers
  if (to.kind == NumKind::Float) {
    r.f = integer_to_float(v.i, from.kind == NumKind::Int, to.size);
  } else {
    r.i = normalize(v.i, to);
  }
  return r;
}

// When both operands of a float operation are NaN, x86 returns the first
// one's (quieted), but compilers swap the operands of commutative operations
// at will, so which NaN comes out is chosen here explicitly, as numpy 1.24's
// loops do it (measured): float16 add keeps the second operand's NaN, every
// other operation the first's.
static bool both_nan(const Num& a, const Num& b) { return std::isnan(a.f) && std::isnan(b.f); }

Num add(const Num& a, const Num& b, const NumType& t) {
  Num r;
  if (t.kind == NumKind::Float) {
    r.f = both_nan(a, b) ? quiet(t.size == 2 ? b.f : a.f) : round_to(a.f + b.f, t);
  } else if (t.kind == NumKind::Bool) {
    r.i = a.i | b.i;
  } else {
    r.i = normalize(a.i + b.i, t);
  }
  return r;
}

Num subtract(const Num& a, const Num& b, const NumType& t) {
  Num r;
  if (t.kind == NumKind::Float) {
    r.f = both_nan(a, b) ? quiet(a.f) : round_to(a.f - b.f, t);
  } else if (t.kind == NumKind::Bool) {
    r.i = a.i ^ b.i;  // np.diff's not_equal
  } else {
    r.i = normalize(a.i - b.i, t);
  }
  return r;
}

Num multiply(const Num& a, const Num& b, const NumType& t) {
  Num r;
  if (t.kind == NumKind::Float) {
    r.f = both_nan(a, b) ? quiet(a.f) : round_to(a.f * b.f, t);
  } else if (t.kind == NumKind::Bool) {
    r.i = a.i & b.i;
  } else {
    r.i = normalize(a.i * b.i, t);
  }
  return r;
}

Num divide(const Num& a, const Num& b, const NumType& t) {
  Num r;
  r.f = both_nan(a, b) ? quiet(a.f) : round_to(a.f / b.f, t);
  return r;
}

Num round_even(const Num& a, const NumType& t) {
  if (t.kind != NumKind::Float) return a;
  Num r;
  r.f = std::nearbyint(a.f);  // the default rounding mode: to nearest, ties to even
  return r;
}


NumType promote_types(const NumType& a0, const NumType& b0) {
  NumType a = a0.native(), b = b0.native();
  if (a.kind == NumKind::Bool) return b;
  if (b.kind == NumKind::Bool) return a;
  if (a.kind == b.kind) return a.size >= b.size ? a : b;
  if (a.kind == NumKind::Float || b.kind == NumKind::Float) {
    const NumType& f = a.kind == NumKind::Float ? a : b;
    const NumType& n = a.kind == NumKind::Float ? b : a;
    size_t need = n.size == 1 ? 2 : n.size == 2 ? 4 : 8;  // the smallest float holding every value
    NumType r = f;
    r.size = std::max(f.size, need);
    return r;
  }
  const NumType& s = a.kind == NumKind::Int ? a : b;
  const NumType& u = a.kind == NumKind::Int ? b : a;
  if (s.size > u.size) return s;
  if (u.size < 8) return NumType{NumKind::Int, u.size * 2, false};
  return NumType{NumKind::Float, 8, false};
}

// --- Python numbers -------------------------------------------------------------------

std::string PyNumber::json() const {
  if (!is_int) return python_float_repr(f);
  return above_int64 ? std::to_string(u) : std::to_string(i);
}

PyNumber read_py_number(const ConfigReader& cfg, const char* field) {
  const rapidjson::Value* v = cfg.find(field);
  if (!v) missing_field(cfg, field);
  PyNumber n;
  if (v->IsInt64()) {
    n.i = v->GetInt64();
  } else if (v->IsUint64()) {
    n.above_int64 = true;
    n.u = v->GetUint64();
  } else if (v->IsDouble()) {
    // An integer literal beyond uint64 arrives here too; numpy would make it
    // an object, libzarr a float.
    n.is_int = false;
    n.f = v->GetDouble();
  } else {
    cfg.invalid(field, "a number", *v);
  }
  return n;
}

namespace {

struct MinType {
  NumType type;
  bool small_unsigned = false;  // unsigned, but fits the signed type of its size
};

// numpy's min_scalar_type, as its value-based casting uses it.
MinType min_scalar_type(const PyNumber& n) {
  if (!n.is_int) {
    double v = n.f;
    if ((v > -65000 && v < 65000) || !std::isfinite(v)) return {{NumKind::Float, 2, false}};
    if (v > -3.4e38 && v < 3.4e38) return {{NumKind::Float, 4, false}};
    return {{NumKind::Float, 8, false}};
  }
  if (n.above_int64) return {{NumKind::UInt, 8, false}, false};
  if (n.i >= 0) {
    uint64_t v = static_cast<uint64_t>(n.i);
    if (v <= 0xff) return {{NumKind::UInt, 1, false}, v <= 0x7f};
    if (v <= 0xffff) return {{NumKind::UInt, 2, false}, v <= 0x7fff};
    if (v <= 0xffffffffu) return {{NumKind::UInt, 4, false}, v <= 0x7fffffff};
    return {{NumKind::UInt, 8, false}, true};
  }
  if (n.i >= -128) return {{NumKind::Int, 1, false}};
  if (n.i >= -32768) return {{NumKind::Int, 2, false}};
  if (n.i >= std::numeric_limits<int32_t>::min()) return {{NumKind::Int, 4, false}};
  return {{NumKind::Int, 8, false}};
}

int category(NumKind k) { return k == NumKind::Bool ? 0 : k == NumKind::Float ? 2 : 1; }

}  // namespace

NumType result_type(const NumType& t, const PyNumber& n) {
  int scalar_category = n.is_int ? 1 : 2;
  if (scalar_category > category(t.kind)) {
    // The number's own type: Python int is int64 (uint64 above), float float64.
    NumType own = !n.is_int ? NumType{NumKind::Float, 8, false}
                            : NumType{n.above_int64 ? NumKind::UInt : NumKind::Int, 8, false};
    return promote_types(t, own);
  }
  MinType m = min_scalar_type(n);
  if (m.small_unsigned && t.kind != NumKind::Bool && t.kind != NumKind::UInt) m.type.kind = NumKind::Int;
  return promote_types(t, m.type);
}

Num py_number_to(const PyNumber& n, const NumType& t) {
  Num v;
  if (!n.is_int) {
    v.f = n.f;
    return cast(v, NumType{NumKind::Float, 8, false}, t);
  }
  if (n.above_int64) {
    v.i = n.u;
    return cast(v, NumType{NumKind::UInt, 8, false}, t);
  }
  v.i = static_cast<uint64_t>(n.i);
  return cast(v, NumType{NumKind::Int, 8, false}, t);
}

// --- configuration output -----------------------------------------------------------

FilterConfigWriter::FilterConfigWriter(const std::string& codec_id) : writer_(buf_) {
  writer_.StartObject();
  add_string("id", codec_id);
}

FilterConfigWriter& FilterConfigWriter::add_int(const char* name, int64_t value) {
  writer_.Key(name);
  writer_.Int64(value);
  return *this;
}

FilterConfigWriter& FilterConfigWriter::add_string(const char* name, const std::string& value) {
  writer_.Key(name);
  writer_.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  return *this;
}

FilterConfigWriter& FilterConfigWriter::add_number(const char* name, const PyNumber& value) {
  writer_.Key(name);
  std::string text = value.json();
  writer_.RawValue(text.data(), text.size(), rapidjson::kNumberType);
  return *this;
}

FilterConfigWriter& FilterConfigWriter::add_strings(const char* name, const std::vector<std::string>& values) {
  writer_.Key(name);
  writer_.StartArray();
  for (const std::string& v : values) writer_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  writer_.EndArray();
  return *this;
}

std::string FilterConfigWriter::str() {
  writer_.EndObject();
  return std::string(buf_.GetString(), buf_.GetSize());
}

// --- chunk sizes --------------------------------------------------------------------

size_t count_items(const std::string& id, size_t size, size_t item, const std::string& what,
                   const std::string& type) {
  if (item == 0 || size % item != 0) {
    codec_error(id, what + " of " + std::to_string(size) + " bytes is not a multiple of the " +
                        std::to_string(item) + "-byte " + type);
  }
  return size / item;
}

void check_output_size(const std::string& id, size_t size, size_t expected) {
  if (expected != 0 && size != expected) {
    codec_error(id, "input decodes to " + std::to_string(size) + " bytes, expected " + std::to_string(expected));
  }
}

}  // namespace zarr::codecs
