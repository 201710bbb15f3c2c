#include "filter_test_util.h"

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "codecs/numpy_arith.h"

namespace zarr::test {

using codecs::NumKind;
using codecs::NumType;

namespace {

double special_value(std::mt19937_64& rng) {
  static const double kSpecials[] = {
      std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(), 0.0, -0.0, 1e30, -1e30, 3e9, -3e9, 5e9, 1e19, -1e19, 2e19,
      9223372036854775808.0, -9223372036854775808.0, 4294967296.0, 2147483648.0, -2147483649.0, 70000.5,
      65504.0, 65520.0, -65536.0, 1e-40, 5e-324, 6e-8, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 255.5, 256.0, -129.0,
      40000.0, 127.5, 0.1, 1e-5};
  return kSpecials[rng() % (sizeof(kSpecials) / sizeof(kSpecials[0]))];
}

}  // namespace

Bytes typed_data(const std::string& dtype, size_t n, uint32_t seed, Values values) {
  std::optional<NumType> t = codecs::parse_num_type(dtype);
  if (!t) throw std::invalid_argument("typed_data: not a numeric dtype: " + dtype);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const NumType f8{NumKind::Float, 8, false};
  Bytes out(n * t->size);
  for (size_t k = 0; k < n; ++k) {
    // The first element is ordinary: numcodecs' delta cannot encode a NaN
    // there to an integer type.
    Values v = k == 0 ? Values::Typical : values;
    codecs::Num num;
    if (t->kind == NumKind::Bool) {
      num.i = rng() & 1;
    } else if (t->kind == NumKind::Float) {
      double x;
      switch (v) {
        case Values::Small: x = std::round(uniform(rng) * 24) / 8; break;
        case Values::Special: x = (rng() % 2) ? special_value(rng) : 1000 + 100 * uniform(rng); break;
        default: x = 1000 + 100 * uniform(rng); break;
      }
      num = codecs::cast(codecs::Num{0, x}, f8, *t);
    } else if (v == Values::Small) {
      int64_t x = static_cast<int64_t>(rng() % 201) - 100;
      if (t->kind == NumKind::UInt) x = std::abs(x);
      num.i = static_cast<uint64_t>(x);
      num = codecs::cast(num, NumType{NumKind::Int, 8, false}, *t);
    } else {
      num.i = rng();
      num = codecs::cast(num, NumType{NumKind::UInt, 8, false}, *t);
    }
    codecs::store(out.data() + k * t->size, *t, num);
  }
  return out;
}

Bytes unicode_data(const std::string& dtype, size_t n, const std::vector<std::string>& words, uint32_t seed) {
  bool big = dtype[0] == '>';
  size_t chars = std::stoul(dtype.substr(dtype.find('U') + 1));
  std::mt19937 rng(seed);
  Bytes out(n * chars * 4, 0);
  for (size_t k = 0; k < n; ++k) {
    const std::string& w = words[rng() % words.size()];
    // UTF-8 -> code points (the test words are valid UTF-8)
    std::u32string cps;
    for (size_t i = 0; i < w.size();) {
      unsigned char c = static_cast<unsigned char>(w[i]);
      size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
      char32_t cp = len == 1 ? c : c & (0x7f >> len);
      for (size_t j = 1; j < len; ++j) cp = (cp << 6) | (static_cast<unsigned char>(w[i + j]) & 0x3f);
      cps += cp;
      i += len;
    }
    for (size_t c = 0; c < chars && c < cps.size(); ++c) {
      uint8_t* p = out.data() + (k * chars + c) * 4;
      for (int b = 0; b < 4; ++b) p[big ? 3 - b : b] = static_cast<uint8_t>(cps[c] >> (8 * b));
    }
  }
  return out;
}

}  // namespace zarr::test
