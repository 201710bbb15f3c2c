// Conversions on read and write (zarr_read_region_as / zarr_write_region_as):
// every pair of numeric types converts the values both hold exactly; a value
// the target cannot hold is ZARR_ERR_RANGE naming the element, and a write
// that meets one writes nothing; non-numeric pairs, unknown type names and
// wrong buffer sizes are refused; a plain region call given a buffer sized
// for another element type says the types probably differ (docs/c-api.md,
// "Conversions").
#include <algorithm>
#include <cmath>
#include <optional>
#include <limits>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

// --- the expected bytes of a value in each type, computed independently ----------

struct TypeCase {
  const char* name;
  char kind;  // 'b' bool, 'i' signed, 'u' unsigned, 'f' IEEE float, 'h' bfloat16, 'c' complex
  size_t size;
};

const TypeCase kTypes[] = {
    {"bool", 'b', 1},    {"int8", 'i', 1},     {"int16", 'i', 2},       {"int32", 'i', 4},
    {"int64", 'i', 8},   {"uint8", 'u', 1},    {"uint16", 'u', 2},      {"uint32", 'u', 4},
    {"uint64", 'u', 8},  {"float16", 'f', 2},  {"float32", 'f', 4},     {"float64", 'f', 8},
    {"bfloat16", 'h', 2}, {"complex64", 'c', 8}, {"complex128", 'c', 16}, {"int4", 'i', 0},
};

// Values across every type's range: each pair is checked with the ones both hold.
const double kValues[] = {0,       1,          0.5,          -3,           100,    127,    -128,   255,
                          -1.5,    2048,       65504,        70000,        -40000, 4294967295.0, 1099511627776.0,
                          9223372036854775808.0, -9223372036854775808.0, 1e300, 3.4028234663852886e38};

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

// v as an IEEE binary16, when exactly representable.
std::optional<uint16_t> exact_half(double v) {
  const double a = std::fabs(v);
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (a == 0) return sign;
  if (a > 65504) return std::nullopt;
  int exp = 0;
  std::frexp(a, &exp);
  const int e = exp - 1;  // a = 1.f * 2^e
  const double scaled = e < -14 ? std::ldexp(a, 24) : (std::ldexp(a, -e) - 1) * 1024;
  if (scaled != std::floor(scaled)) return std::nullopt;
  const auto q = static_cast<uint16_t>(scaled);
  return static_cast<uint16_t>(sign | (e < -14 ? q : static_cast<uint16_t>(((e + 15) << 10) | q)));
}

// v as an integer in [lo, end), when it is one (end exclusive: 2^63 - 1 is
// not a double).
bool whole_in(double v, double lo, double end) { return v == std::floor(v) && v >= lo && v < end; }

// The bytes of v in type t (native order), or nullopt when t cannot hold v exactly.
std::optional<std::vector<uint8_t>> encode(double v, const TypeCase& t) {
  std::vector<uint8_t> out;
  const double p2_63 = 9223372036854775808.0;
  switch (t.kind) {
    case 'b':
      if (v != 0 && v != 1) return std::nullopt;
      out.push_back(v == 1);
      return out;
    case 'i': {
      const double half = t.size == 0 ? 8 : std::ldexp(1.0, static_cast<int>(t.size * 8 - 1));
      if (!whole_in(v, -half, half)) return std::nullopt;
      const int64_t i = v == -p2_63 ? std::numeric_limits<int64_t>::min() : static_cast<int64_t>(v);
      const size_t bytes = t.size == 0 ? 1 : t.size;
      for (size_t k = 0; k < bytes; ++k) out.push_back(static_cast<uint8_t>(static_cast<uint64_t>(i) >> (8 * k)));
      return out;
    }
    case 'u': {
      if (!whole_in(v, 0, std::ldexp(1.0, static_cast<int>(t.size * 8)))) return std::nullopt;
      const uint64_t u = static_cast<uint64_t>(v);
      for (size_t k = 0; k < t.size; ++k) out.push_back(static_cast<uint8_t>(u >> (8 * k)));
      return out;
    }
    case 'h': {
      const float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      if (static_cast<double>(f) != v || (bits & 0xffff) != 0) return std::nullopt;
      put(out, static_cast<uint16_t>(bits >> 16));
      return out;
    }
    case 'c': {
      const TypeCase part{"", 'f', t.size / 2};
      auto re = encode(v, part), im = encode(0, part);
      if (!re) return std::nullopt;
      re->insert(re->end(), im->begin(), im->end());
      return re;
    }
    default: break;
  }
  if (t.size == 2) {
    const auto h = exact_half(v);
    if (!h) return std::nullopt;
    put(out, *h);
  } else if (t.size == 4) {
    if (static_cast<double>(static_cast<float>(v)) != v) return std::nullopt;
    put(out, static_cast<float>(v));
  } else {
    put(out, v);
  }
  return out;
}

// The bytes of one element of the type named `name` (of kTypes).
size_t size_of(const std::string& name) {
  for (const TypeCase& t : kTypes) {
    if (name == t.name) return t.size == 0 ? 1 : t.size;
  }
  return 0;
}

bool host_is_big_endian() {
  const uint16_t one = 1;
  return *reinterpret_cast<const uint8_t*>(&one) == 0;
}

std::string v3_meta(const std::string& type, uint64_t n, uint64_t chunk = 4) {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [)" + std::to_string(n) + R"(], "data_type": ")" +
         type + R"(", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [)" + std::to_string(chunk) +
         "]}}}";
}

// The values both a and b hold, as bytes of a and of b.
struct PairValues {
  std::vector<uint8_t> as_a, as_b;
  uint64_t n = 0;
};

PairValues pair_values(const TypeCase& a, const TypeCase& b) {
  PairValues values;
  for (double v : kValues) {
    auto in_a = encode(v, a), in_b = encode(v, b);
    if (!in_a || !in_b) continue;
    values.as_a.insert(values.as_a.end(), in_a->begin(), in_a->end());
    values.as_b.insert(values.as_b.end(), in_b->begin(), in_b->end());
    ++values.n;
  }
  return values;
}

// Array of type a holding the values; read as b, and written back from b.
void expect_pair_converts(const TypeCase& a, const TypeCase& b) {
  SCOPED_TRACE(std::string(a.name) + " <-> " + b.name);
  const PairValues values = pair_values(a, b);
  ASSERT_GE(values.n, 2u);  // 0 and 1 are in every type
  const std::string url = "memory://conversions-" + std::string(a.name) + "-" + b.name;
  ArrayPtr array = create_array(url, v3_meta(a.name, values.n));
  const uint64_t start = 0, count = values.n;
  ASSERT_OK(zarr_write_region(array, 1, &start, &count, values.as_a.data(), values.as_a.size()));
  std::vector<uint8_t> got(values.as_b.size());
  ASSERT_OK(zarr_read_region_as(array, 1, &start, &count, b.name, got.data(), got.size()));
  EXPECT_EQ(got, values.as_b);
  ArrayPtr copy = create_array(url + "-back", v3_meta(a.name, values.n));
  ASSERT_OK(zarr_write_region_as(copy, 1, &start, &count, b.name, values.as_b.data(), values.as_b.size()));
  std::vector<uint8_t> stored(values.as_a.size());
  ASSERT_OK(zarr_read_region(copy, 1, &start, &count, stored.data(), stored.size()));
  EXPECT_EQ(stored, values.as_a);
}

// A float64 array [2, 3] holding `values`.
ArrayPtr float64_array(const std::string& url, const std::vector<double>& values) {
  ArrayPtr a = create_array(url, array_meta("[2, 3]", "[1, 2]", "<f8"));
  EXPECT_EQ(write_region(a, {0, 0}, {2, 3}, values), ZARR_OK);
  return a;
}

template <typename T>
int read_as(zarr_array* a, const char* type, std::vector<T>& out) {
  const uint64_t start[2] = {0, 0}, count[2] = {2, 3};
  return zarr_read_region_as(a, 2, start, count, type, out.data(), out.size() * sizeof(T));
}

template <typename T>
int write_as(zarr_array* a, const char* type, const std::vector<T>& in) {
  const uint64_t start[2] = {0, 0}, count[2] = {2, 3};
  return zarr_write_region_as(a, 2, start, count, type, in.data(), in.size() * sizeof(T));
}

}  // namespace

TEST(Conversions, EveryPairOfNumericTypesConvertsTheValuesBothHoldExactly) {
  for (const TypeCase& a : kTypes) {
    for (const TypeCase& b : kTypes) expect_pair_converts(a, b);
  }
}

TEST(Conversions, FloatsToIntegersTruncateTowardZero) {
  ArrayPtr a = float64_array("memory://conversions-truncate", {2.9, -2.9, -0.5, 0.99, 1e3, -1e3});
  std::vector<int16_t> ints(6);
  ASSERT_OK(read_as(a, "int16", ints));
  EXPECT_EQ(ints, (std::vector<int16_t>{2, -2, 0, 0, 1000, -1000}));
  std::vector<int64_t> wide = {1, 2, 3, 4, 5, 9007199254740993};  // 2^53 + 1 rounds to even
  ASSERT_OK(write_as(a, "int64", wide));
  EXPECT_EQ(read_all<double>(a), (std::vector<double>{1, 2, 3, 4, 5, 9007199254740992.0}));
}

TEST(Conversions, AValueTheTargetCannotHoldIsRangeNamingTheElement) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  struct Case {
    double value;
    const char* type;
    const char* named;
  } cases[] = {
      {300, "int8", "is 300.0, which int8"},       {-129, "int8", "is -129.0, which int8"},
      {-1, "uint32", "is -1.0, which uint32"},     {nan, "int32", "is NaN, which int32"},
      {inf, "int64", "is Infinity, which int64"},  {-inf, "uint8", "is -Infinity, which uint8"},
      {1e39, "float32", "is 1e+39, which float32"}, {70000, "float16", "is 70000.0, which float16"},
      {2, "bool", "is 2.0, which bool"},           {1e20, "uint64", "is 1e+20, which uint64"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.type);
    ArrayPtr a = float64_array(std::string("memory://conversions-range-") + c.type, {1, 0, 1, 0, c.value, 1});
    std::vector<uint8_t> out(6 * 8, 0xee);
    const uint64_t start[2] = {0, 0}, count[2] = {2, 3};
    EXPECT_STATUS(zarr_read_region_as(a, 2, start, count, c.type, out.data(), 6 * size_of(c.type)),
                  ZARR_ERR_RANGE, "element 4 of the region (at [1, 1])");
    EXPECT_NE(std::string(zarr_last_error()).find(c.named), std::string::npos) << zarr_last_error();
  }
  EXPECT_STREQ(zarr_status_name(ZARR_ERR_RANGE), "ZARR_ERR_RANGE");
}

TEST(Conversions, IntegersOutOfRangeAreRangeBothWays) {
  ArrayPtr a = create_array("memory://conversions-ints", array_meta("[2, 3]", "[2, 2]", "<i4"));
  ASSERT_EQ(write_region(a, {0, 0}, {2, 3}, std::vector<int32_t>{1, 2, 3, 4, 5, 6}), ZARR_OK);
  EXPECT_STATUS(write_as(a, "int64", std::vector<int64_t>{1, 2, 2147483648, 4, 5, 6}), ZARR_ERR_RANGE,
                "element 2 of the region (at [0, 2]) is 2147483648, which int32 cannot represent; nothing was written");
  EXPECT_STATUS(write_as(a, "int64", std::vector<int64_t>{1, -2147483649, 3, 4, 5, 6}), ZARR_ERR_RANGE,
                "is -2147483649, which int32");
  EXPECT_STATUS(write_as(a, "uint64", std::vector<uint64_t>{UINT64_MAX, 2, 3, 4, 5, 6}), ZARR_ERR_RANGE,
                "is 18446744073709551615");
  ASSERT_EQ(write_region(a, {0, 0}, {2, 3}, std::vector<int32_t>{1, 2, 3, -4, 5, 6}), ZARR_OK);
  std::vector<uint16_t> unsigned_out(6, 7);
  EXPECT_STATUS(read_as(a, "uint16", unsigned_out), ZARR_ERR_RANGE, "element 3 of the region (at [1, 0]) is -4");
  EXPECT_NE(std::string(zarr_last_error()).find("out holds the elements before it converted"), std::string::npos);
  EXPECT_EQ((std::vector<uint16_t>(unsigned_out.begin(), unsigned_out.begin() + 3)),
            (std::vector<uint16_t>{1, 2, 3}));
  EXPECT_EQ(unsigned_out[5], 7) << "elements after the failing one are untouched";
}

TEST(Conversions, ComplexToRealNeedsAZeroImaginaryPart) {
  ArrayPtr a = create_array("memory://conversions-complex", v3_meta("complex128", 2));
  const uint64_t start = 0, count = 2;
  const double parts[4] = {1.5, 0, 2.5, -1};
  ASSERT_OK(zarr_write_region(a, 1, &start, &count, parts, sizeof parts));
  double re[2] = {0, 0};
  EXPECT_STATUS(zarr_read_region_as(a, 1, &start, &count, "float64", re, sizeof re), ZARR_ERR_RANGE,
                "element 1 of the region (at [1]) is (2.5-1.0j), which float64 cannot represent");
  EXPECT_EQ(re[0], 1.5);
  float narrow[4];
  ASSERT_OK(zarr_read_region_as(a, 1, &start, &count, "complex64", narrow, sizeof narrow));
  EXPECT_EQ(narrow[3], -1.0f);
}

TEST(Conversions, AWriteMeetingAnUnrepresentableValueWritesNothing) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[2, 3]", "[1, 2]", "|u1"));
  ASSERT_EQ(write_region(a, {0, 0}, {2, 3}, std::vector<uint8_t>{1, 2, 3, 4, 5, 6}), ZARR_OK);
  const std::vector<std::string> files = list_files(dir / "a");
  std::vector<zarr::Bytes> before;
  for (const std::string& f : files) before.push_back(read_file(dir / ("a/" + f)));
  // The bad value is in the last chunk: the chunks before it would be fine.
  EXPECT_STATUS(write_as(a, "float64", std::vector<double>{9, 9, 9, 9, 9, 256}), ZARR_ERR_RANGE,
                "element 5 of the region (at [1, 2]) is 256.0, which uint8 cannot represent; nothing was written");
  EXPECT_EQ(list_files(dir / "a"), files);
  for (size_t i = 0; i < files.size(); ++i) EXPECT_EQ(read_file(dir / ("a/" + files[i])), before[i]) << files[i];
  EXPECT_EQ(read_all<uint8_t>(a), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
  ASSERT_OK(write_as(a, "float64", std::vector<double>{9, 9, 9, 9, 9, 255}));
  EXPECT_EQ(read_all<uint8_t>(a), (std::vector<uint8_t>{9, 9, 9, 9, 9, 255}));
}

TEST(Conversions, FillValuesShardingV2AndFieldsReadAsRegionsDo) {
  TempDir dir;
  // Unwritten chunks of a sharded v3 int16 array read as its fill value, converted.
  ArrayPtr s = create_array(dir / "s", R"({"zarr_format": 3, "node_type": "array", "shape": [8], "data_type": "int16",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}}, "fill_value": -7,
    "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [2],
    "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}]}}]})");
  const uint64_t start = 0, count = 8, two = 2;
  const float written[2] = {10, 11};
  ASSERT_OK(zarr_write_region_as(s, 1, &start, &two, "float32", written, sizeof written));
  double got[8];
  ASSERT_OK(zarr_read_region_as(s, 1, &start, &count, "float64", got, sizeof got));
  EXPECT_EQ(std::vector<double>(got, got + 8), (std::vector<double>{10, 11, -7, -7, -7, -7, -7, -7}));
  // A big-endian v2 array; a NaN fill value read as integers is RANGE.
  ArrayPtr v2 = create_array(dir / "v2", array_meta("[4]", "[2]", ">f4", {{"fill_value", "\"NaN\""}}));
  const int32_t ints[2] = {-3, 16777216};
  ASSERT_OK(zarr_write_region_as(v2, 1, &start, &two, "<i4", ints, sizeof ints));
  int64_t wide[2];
  ASSERT_OK(zarr_read_region_as(v2, 1, &start, &two, "int64", wide, sizeof wide));
  EXPECT_EQ(wide[1], 16777216);
  const uint64_t four = 4;
  int64_t all[4];
  EXPECT_STATUS(zarr_read_region_as(v2, 1, &start, &four, "int64", all, sizeof all), ZARR_ERR_RANGE,
                "element 2 of the region (at [2]) is NaN");
  // A field of a structured v2 array (zarr_open_spec "field").
  create_array(dir / "r", v2_metadata({{"shape", "[3]"}, {"chunks", "[2]"},
                                       {"dtype", R"([["x", "<i2"], ["y", "<f8"]])"}, {"fill_value", "null"}}));
  ArrayPtr y;
  const std::string spec = R"({"driver": "zarr", "kvstore": {"driver": "file", "path": ")" + (dir / "r") +
                           R"("}, "field": "y"})";
  ASSERT_OK(zarr_open_spec(y.out(), spec.c_str()));
  const uint64_t three = 3;
  const int8_t small[3] = {-1, 2, 3};
  ASSERT_OK(zarr_write_region_as(y, 1, &start, &three, "int8", small, sizeof small));
  EXPECT_EQ(read_all<double>(y), (std::vector<double>{-1, 2, 3}));
  uint8_t bytes[3];
  EXPECT_STATUS(zarr_read_region_as(y, 1, &start, &three, "uint8", bytes, sizeof bytes), ZARR_ERR_RANGE,
                "field 'y' of array");
}

TEST(Conversions, NonNumericPairsAreUnsupportedNamingBothTypes) {
  TempDir dir;
  ArrayPtr text = create_array(dir / "t", v3_meta("string", 2));
  const uint64_t start = 0, count = 2;
  double out[2];
  EXPECT_STATUS(zarr_read_region_as(text, 1, &start, &count, "float64", out, sizeof out), ZARR_ERR_UNSUPPORTED,
                "cannot convert between string and float64");
  EXPECT_STATUS(zarr_write_region_as(text, 1, &start, &count, "float64", out, sizeof out), ZARR_ERR_UNSUPPORTED,
                "string and float64");
  ArrayPtr times = create_array(dir / "m", array_meta("[2]", "[2]", "<M8[ns]"));
  int64_t ticks[2];
  EXPECT_STATUS(zarr_read_region_as(times, 1, &start, &count, "int64", ticks, sizeof ticks), ZARR_ERR_UNSUPPORTED,
                "\"<M8[ns]\" and int64");
  ArrayPtr numbers = create_array(dir / "n", v3_meta("int32", 2));
  EXPECT_STATUS(zarr_read_region_as(numbers, 1, &start, &count, "|S8", out, sizeof out), ZARR_ERR_UNSUPPORTED,
                "int32 and \"|S8\"");
}

TEST(Conversions, TypeNamesBufferSizesAndArgumentsAreChecked) {
  ArrayPtr a = create_array("memory://conversions-args", v3_meta("float64", 10));
  const uint64_t start = 0, count = 10;
  std::vector<uint8_t> buffer(80);
  EXPECT_STATUS(zarr_read_region_as(a, 1, &start, &count, "float65", buffer.data(), 80), ZARR_ERR_INVALID_ARGUMENT,
                "data_type 'float65' is neither");
  EXPECT_STATUS(zarr_write_region_as(a, 1, &start, &count, "", buffer.data(), 80), ZARR_ERR_INVALID_ARGUMENT,
                "data_type ''");
  const char* other_order = host_is_big_endian() ? "<f8" : ">f8";
  EXPECT_STATUS(zarr_read_region_as(a, 1, &start, &count, other_order, buffer.data(), 80), ZARR_ERR_INVALID_ARGUMENT,
                "not in native byte order");
  EXPECT_STATUS(zarr_read_region_as(a, 1, &start, &count, nullptr, buffer.data(), 80), ZARR_ERR_INVALID_ARGUMENT,
                "'data_type'");
  EXPECT_STATUS(zarr_read_region_as(a, 1, &start, &count, "int16", buffer.data(), 80), ZARR_ERR_BUFFER_SIZE,
                "buffer is 80 bytes but region [10] of 10 2-byte elements (int16) needs 20");
  EXPECT_EQ(std::string(zarr_last_error()).find("zarr_read_region_as to convert"), std::string::npos)
      << "the caller already converts: " << zarr_last_error();
  EXPECT_STATUS(zarr_write_region_as(a, 1, &start, &count, "|u1", buffer.data(), 11), ZARR_ERR_BUFFER_SIZE,
                "needs 10");
  EXPECT_STATUS(zarr_read_region_as(a, 2, &start, &count, "int16", buffer.data(), 20), ZARR_ERR_INVALID_ARGUMENT,
                "'ndim'");
  const uint64_t past = 8;
  EXPECT_STATUS(zarr_read_region_as(a, 1, &past, &count, "int16", buffer.data(), 20), ZARR_ERR_OUT_OF_BOUNDS, "");
  ASSERT_OK(zarr_write_region_as(a, 1, &start, &count, "<f8", buffer.data(), 80));  // the array's own type
  ArrayPtr read_only = open_array("memory://conversions-args");
  EXPECT_STATUS(zarr_write_region_as(read_only, 1, &start, &count, "int16", buffer.data(), 20), ZARR_ERR_READ_ONLY, "");
}

TEST(Conversions, ABufferSizedForAnotherTypeSaysTheTypesProbablyDiffer) {
  ArrayPtr a = create_array("memory://conversions-mismatch", v3_meta("float64", 100, 10));
  const uint64_t start = 0, count = 100;
  std::vector<float> floats(100);
  const char* hint =
      "400 bytes would fit 100 elements of 4 bytes: the array's elements are float64 (8 bytes), so the types "
      "probably differ: read or write with zarr_read_region_as / zarr_write_region_as to convert";
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, floats.data(), 400), ZARR_ERR_BUFFER_SIZE, hint);
  EXPECT_STATUS(zarr_write_region(a, 1, &start, &count, floats.data(), 400), ZARR_ERR_BUFFER_SIZE, hint);
  std::vector<uint64_t> coords(100);
  EXPECT_STATUS(zarr_read_points(a, 1, 100, coords.data(), floats.data(), 400), ZARR_ERR_BUFFER_SIZE, hint);
  EXPECT_STATUS(zarr_append(a, 0, 1, &count, floats.data(), 400), ZARR_ERR_BUFFER_SIZE, hint);
  // A size no element type explains gets the sizes alone.
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, floats.data(), 396), ZARR_ERR_BUFFER_SIZE, "needs 800");
  EXPECT_EQ(std::string(zarr_last_error()).find("probably differ"), std::string::npos) << zarr_last_error();
}
