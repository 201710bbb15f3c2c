// The numcodecs filters and checksum codecs: configurations as numcodecs
// 0.11's get_config() gives them, bytes numcodecs produced (pasted below,
// with the script that made them), round trips over many dtypes, numpy's
// arithmetic details, every error path, thread safety, and the peer arrays
// that use them. The live cross-check with numcodecs is in
// test_numcodecs_python.cpp, the numcodecs fixtures in
// test_numcodecs_fixtures.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <thread>

#include "base/error.h"
#include "base/json.h"
#include "codec_test_util.h"
#include "codecs/builtin_codecs.h"
#include "codecs/checksum32.h"
#include "codecs/codec.h"
#include "codecs/numpy_arith.h"
#include "dtype/float_text.h"
#include "filter_test_util.h"
#include "support/test_support.h"

namespace zarr::test {
namespace {

using codecs::NumKind;
using codecs::NumType;

Bytes from_hex(const std::string& hex) {
  Bytes out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return out;
}

std::string to_hex(const Bytes& b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t c : b) {
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}

// The codec from JSON with the array's dtype known (bitround needs it).
std::unique_ptr<BytesCodec> filter(const std::string& json, const std::string& dtype = "") {
  return codec_from_json(json, ChunkRepr{1, 0, dtype});
}

const char* kFilterIds[] = {"adler32",  "astype", "bitround", "categorize",       "crc32",
                            "crc32c",   "delta",  "fixedscaleoffset", "fletcher32", "packbits",
                            "quantize", "shuffle"};

// --- registry and configurations --------------------------------------------------------

TEST(FilterRegistry, EveryFilterIsRegisteredInEveryBuild) {
  std::vector<std::string> ids = registered_bytes_codecs();
  for (const char* id : kFilterIds) EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
}

// Each config, and what numcodecs 0.11's get_config() gives for it
// (json.dumps(get_codec(c).get_config(), ensure_ascii=False,
// separators=(',', ':'))). crc32c, fletcher32 and "location" are from later
// numcodecs (0.11 lacks them); their expected values follow the same rules.
TEST(FilterConfig, MatchesNumcodecsGetConfig) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"id":"delta","dtype":"<i2"})", R"({"id":"delta","dtype":"<i2","astype":"<i2"})"},
      {R"({"id":"delta","dtype":"int16","astype":"i1"})", R"({"id":"delta","dtype":"<i2","astype":"|i1"})"},
      {R"({"id":"delta","dtype":">f8","astype":"=f4"})", R"({"id":"delta","dtype":">f8","astype":"<f4"})"},
      {R"({"id":"delta","dtype":">u1","astype":">b1"})", R"({"id":"delta","dtype":"|u1","astype":"|b1"})"},
      {R"({"id":"shuffle"})", R"({"id":"shuffle","elementsize":4})"},
      {R"({"id":"shuffle","elementsize":-3})", R"({"id":"shuffle","elementsize":-3})"},
      {R"({"id":"bitround","keepbits":3})", R"({"id":"bitround","keepbits":3})"},
      {R"({"id":"fixedscaleoffset","offset":1000,"scale":10,"dtype":"<f4","astype":"<i2"})",
       R"({"id":"fixedscaleoffset","scale":10,"offset":1000,"dtype":"<f4","astype":"<i2"})"},
      {R"({"id":"fixedscaleoffset","offset":1000.0,"scale":1e-05,"dtype":"<f8"})",
       R"({"id":"fixedscaleoffset","scale":1e-05,"offset":1000.0,"dtype":"<f8","astype":"<f8"})"},
      {R"({"id":"fixedscaleoffset","offset":-0.0,"scale":1e16,"dtype":"|u1","astype":"b1"})",
       R"({"id":"fixedscaleoffset","scale":1e+16,"offset":-0.0,"dtype":"|u1","astype":"|b1"})"},
      {R"({"id":"fixedscaleoffset","offset":0.1,"scale":123456789012345678,"dtype":"f8","astype":"u8"})",
       R"({"id":"fixedscaleoffset","scale":123456789012345678,"offset":0.1,"dtype":"<f8","astype":"<u8"})"},
      {R"({"id":"quantize","digits":3,"dtype":"<f4"})", R"({"id":"quantize","digits":3,"dtype":"<f4","astype":"<f4"})"},
      {R"({"id":"quantize","digits":-1,"dtype":">f8","astype":"f2"})",
       R"({"id":"quantize","digits":-1,"dtype":">f8","astype":"<f2"})"},
      {R"({"id":"packbits"})", R"({"id":"packbits"})"},
      {R"({"id":"astype","encode_dtype":"i2","decode_dtype":"<i4"})",
       R"({"id":"astype","encode_dtype":"<i2","decode_dtype":"<i4"})"},
      {R"({"id":"categorize","labels":["a","ßàř"],"dtype":"<U3"})",
       R"({"id":"categorize","labels":["a","ßàř"],"dtype":"<U3","astype":"|u1"})"},
      {R"({"id":"categorize","labels":[],"dtype":">U1","astype":"<i2"})",
       R"({"id":"categorize","labels":[],"dtype":">U1","astype":"<i2"})"},
      {R"({"id":"adler32"})", R"({"id":"adler32"})"},
      {R"({"id":"crc32"})", R"({"id":"crc32"})"},
      {R"({"id":"crc32","location":null})", R"({"id":"crc32"})"},
      {R"({"id":"crc32","location":"end"})", R"({"id":"crc32","location":"end"})"},
      {R"({"id":"crc32c"})", R"({"id":"crc32c"})"},
      {R"({"id":"crc32c","location":"start"})", R"({"id":"crc32c","location":"start"})"},
      {R"({"id":"adler32","location":"start"})", R"({"id":"adler32","location":"start"})"},
      {R"({"id":"fletcher32"})", R"({"id":"fletcher32"})"},
  };
  for (auto [in, expected] : cases) {
    SCOPED_TRACE(in);
    auto codec = filter(in, "<f4");
    EXPECT_EQ(codec->config_json(), expected);
    // and the written form reads back to itself
    EXPECT_EQ(filter(codec->config_json(), "<f4")->config_json(), expected);
  }
}

TEST(FilterConfig, UnknownKeysAreIgnored) {
  EXPECT_EQ(filter(R"({"id":"delta","dtype":"<i4","future":[1]})")->config_json(),
            R"({"id":"delta","dtype":"<i4","astype":"<i4"})");
  EXPECT_EQ(filter(R"({"id":"fletcher32","location":"start"})")->config_json(), R"({"id":"fletcher32"})");
}

TEST(FilterConfig, PythonFloatRepr) {
  // repr(float) as json.dumps writes it, checked with /usr/bin/python3.
  const std::pair<double, const char*> cases[] = {
      {0.0, "0.0"},           {-0.0, "-0.0"},        {1.0, "1.0"},         {1000.0, "1000.0"},
      {0.1, "0.1"},           {1e-05, "1e-05"},      {0.0001, "0.0001"},   {1.5e-07, "1.5e-07"},
      {1e16, "1e+16"},        {1.234e16, "1.234e+16"}, {9999999999999998.0, "9999999999999998.0"},
      {123456789.125, "123456789.125"}, {1e300, "1e+300"}, {-2.5e-300, "-2.5e-300"}, {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"}, {0.30000000000000004, "0.30000000000000004"},
      {std::numeric_limits<double>::infinity(), "Infinity"}, {-std::numeric_limits<double>::infinity(), "-Infinity"},
      {std::nan(""), "NaN"}};
  for (auto [x, expected] : cases) EXPECT_EQ(codecs::python_float_repr(x), expected) << expected;
}

// --- numpy's numerics -------------------------------------------------------------------

TEST(FilterNumerics, TypestrsAndNames) {
  const std::pair<const char*, const char*> ok[] = {
      {"<i2", "<i2"}, {">i2", ">i2"}, {"i2", "<i2"},   {"=u4", "<u4"},    {"|i8", "<i8"},   {"<b1", "|b1"},
      {"b1", "|b1"},  {"|u1", "|u1"}, {">f2", ">f2"},  {"float64", "<f8"}, {"bool", "|b1"}, {"uint16", "<u2"}};
  for (auto [in, str] : ok) {
    auto t = codecs::parse_num_type(in);
    ASSERT_TRUE(t) << in;
    EXPECT_EQ(t->str(), str);
  }
  for (const char* bad : {"", "<", "<i3", "<f1", "<b2", "<c8", "|O", "<M8[ns]", "|S5", "<U4", "i16", "int", "xi2", "<i2 "}) {
    EXPECT_FALSE(codecs::parse_num_type(bad)) << bad;
  }
}

TEST(FilterNumerics, HalfPrecisionConversions) {
  // every half survives half -> double -> half (NaN payloads included)
  for (uint32_t h = 0; h < 0x10000; ++h) {
    ASSERT_EQ(dtype_detail::double_to_half(dtype_detail::half_to_double(static_cast<uint16_t>(h))), h) << h;
  }
  // rounding: np.array([...], 'f8').astype('f2').view('u2')
  const std::pair<double, uint16_t> cases[] = {
      {65504.0, 0x7bff}, {65519.99, 0x7bff}, {65520.0, 0x7c00}, {1e10, 0x7c00},  {-1e10, 0xfc00},
      {2049.0, 0x6800},  {2051.0, 0x6802},   {6e-8, 0x0001},    {2.9e-8, 0x0000}, {3.0e-8, 0x0001},
      {0.1, 0x2e66},     {-0.0, 0x8000},     {6.1035e-05, 0x0400}, {1.0009765625, 0x3c01}};
  for (auto [x, h] : cases) EXPECT_EQ(dtype_detail::double_to_half(x), h) << x;
}

TEST(FilterNumerics, CastsAsNumpyOnX86) {
  // np.array(v, 'f8').astype(t) for arrays of 4 (numpy's vector loop); the
  // last rows: the per-element loop numpy uses for the last n % 4 elements.
  const NumType f8{NumKind::Float, 8, false};
  struct Row {
    double v;
    const char* type;
    uint64_t expected;  // the result's bits, zero-extended
  } rows[] = {
      {300.7, "|i1", 44},         {-300.7, "|u1", 212},        {70000.5, "<i2", 4464},  {3e9, "<i2", 0},
      {std::nan(""), "<i4", 0x80000000u}, {-1.5, "<u4", 0xffffffffu}, {3e9, "<u4", 3000000000u},
      {5e9, "<u4", 0},            {-3e9, "<u4", 0x80000000u},  {1e30, "<i8", 0x8000000000000000u},
      {-1e30, "<u8", 0x8000000000000000u}, {2e19, "<u8", 0},     {1e19, "<u8", 10000000000000000000u},
      {-3e9, "<u8", 18446744070709551616u}, {std::nan(""), "|b1", 1}, {0.0, "|b1", 0},
  };
  for (const Row& r : rows) {
    NumType t = *codecs::parse_num_type(r.type);
    codecs::Num v{0, r.v};
    uint64_t got = codecs::cast(v, f8, t).i;
    if (t.size < 8) got &= (uint64_t{1} << (8 * t.size)) - 1;
    EXPECT_EQ(got, r.expected) << r.v << " -> " << r.type;
  }
  const NumType u4{NumKind::UInt, 4, false};
  EXPECT_EQ(codecs::cast_in_run(codecs::Num{0, -3e9}, f8, u4, 4, 5).i, 1294967296u);  // the tail
  EXPECT_EQ(codecs::cast_in_run(codecs::Num{0, -3e9}, f8, u4, 3, 5).i, 0x80000000u);
  EXPECT_EQ(codecs::cast_in_run(codecs::Num{0, std::nan("")}, f8, u4, 0, 1).i, 0u);
}

TEST(FilterNumerics, ValueBasedPromotion) {
  // (np.zeros(3, dtype) - scalar).dtype with numpy 1.24, for these scalars:
  const char* scalars[] = {"0", "127", "128", "255", "256", "40000", "70000", "2147483648", "9223372036854775808",
                           "-1", "-129", "-40000", "0.5", "1e300"};
  const std::pair<const char*, const char*> rows[] = {
      {"|b1", "i8 i8 i8 i8 i8 i8 i8 i8 u8 i8 i8 i8 f8 f8"},
      {"|i1", "i1 i1 i2 i2 i2 i4 i4 i8 f8 i1 i2 i4 f8 f8"},
      {"|u1", "u1 u1 u1 u1 u2 u2 u4 u4 u8 i2 i2 i4 f8 f8"},
      {"<i2", "i2 i2 i2 i2 i2 i4 i4 i8 f8 i2 i2 i4 f8 f8"},
      {"<u2", "u2 u2 u2 u2 u2 u2 u4 u4 u8 i4 i4 i4 f8 f8"},
      {"<u4", "u4 u4 u4 u4 u4 u4 u4 u4 u8 i8 i8 i8 f8 f8"},
      {"<u8", "u8 u8 u8 u8 u8 u8 u8 u8 u8 f8 f8 f8 f8 f8"},
      {"<f2", "f2 f2 f2 f2 f4 f4 f8 f8 f8 f2 f4 f8 f2 f8"},
      {"<f4", "f4 f4 f4 f4 f4 f4 f8 f8 f8 f4 f4 f8 f4 f8"},
      {">f8", "f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8"},
  };
  for (auto [dtype, expected] : rows) {
    std::string got;
    for (const char* s : scalars) {
      rapidjson::Document doc = json::parse(std::string(R"({"x":)") + s + "}", "test");
      codecs::ConfigReader cfg(doc, "test");
      NumType r = codecs::result_type(*codecs::parse_num_type(dtype), codecs::read_py_number(cfg, "x"));
      got += (got.empty() ? "" : " ") + r.str().substr(1);
    }
    EXPECT_EQ(got, expected) << dtype;
  }
}

// --- bytes numcodecs 0.11 produced ------------------------------------------------------

// config, input dtype, input, numcodecs' encoding, numcodecs' decoding of it.
// Made with /usr/bin/python3 (numcodecs 0.11, numpy 1.24):
//   codec = numcodecs.get_codec(config)
//   e = np.asarray(codec.encode(a.copy())).tobytes()
//   d = np.asarray(codec.decode(e)).tobytes()
// for these inputs a:
//   delta <i2: [100,102,104,90,-32768,32767,0]; delta <i4->|i1: [1000,1001,1003,1000,1127,1000]
//   delta >f8-><f4: [1.5,2.25,-1e300,0.1]; delta |b1: [0,1,1,0,1,0,0,1]; shuffle: arange(12, 'u1')
//   bitround 3 <f4: [1.1,2.3,3.3,4.6,pi,-e,inf,3.4e38]; bitround 0 <f2: [1.1,2.3,-65504,nan,0.1]
//   bitround 20 <f8: [1/3,-2/3,1e-310,1e308]
//   fixedscaleoffset: [1000,1000.1,1000.25,1000.35,999.95,4276.8] <f4; [0.5,0.75,1.75,-1,200,nan] <f8;
//     [0,1,-3,40,-50,32767] <i2
//   quantize: linspace(0,1,6); [0.1,3.14159,-2.71828,65504] <f2; [0.1,3.14159,-2.71828] <f2
//   packbits: [1,0,0,1,1,1,0,1,1,1]; astype: [1.9,-1.5,255.5,256.5,-129.9,3e9]
//   categorize: ["a","ßàř","b","","too"] <U3; adler32 b"Wikipedia"; crc32 b"123456789"
struct Known {
  const char* config;
  const char* dtype;
  const char* input;
  const char* encoded;
  const char* decoded;
};

const Known kKnown[] = {
    {R"({"id":"delta","dtype":"<i2"})", "<i2", "6400660068005a000080ff7f0000", "640002000200f2ffa67fffff0180", "6400660068005a000080ff7f0000"},
    {R"({"id":"delta","dtype":"<i4","astype":"|i1"})", "<i4", "e8030000e9030000eb030000e803000067040000e8030000", "e80102fd7f81", "e8ffffffe9ffffffebffffffe8ffffff67000000e8ffffff"},
    {R"({"id":"delta","dtype":">f8","astype":"<f4"})", ">f8", "3ff80000000000004002000000000000fe37e43c8800759c3fb999999999999a", "0000c03f0000403f000080ff0000807f", "3ff80000000000004002000000000000fff0000000000000fff8000000000000"},
    {R"({"id":"delta","dtype":"|b1"})", "|b1", "0001010001000001", "0001000101010001", "0001010101010101"},
    {R"({"id":"shuffle","elementsize":4})", "|u1", "000102030405060708090a0b", "00040801050902060a03070b", "000102030405060708090a0b"},
    {R"({"id":"shuffle","elementsize":3})", "|u1", "000102030405060708090a0b", "000306090104070a0205080b", "000102030405060708090a0b"},
    {R"({"id":"bitround","keepbits":3})", "<f4", "cdcc8c3f333313403333534033339340db0f494054f82dc00000807f9ec97f7f", "0000903f00001040000050400000904000005040000030c00000807f0000807f", "0000903f00001040000050400000904000005040000030c00000807f0000807f"},
    {R"({"id":"bitround","keepbits":0})", "<f2", "663c9a40fffb007e662e", "003c004000fc00800030", "003c004000fc00800030"},
    {R"({"id":"bitround","keepbits":20})", "<f8", "555555555555d53f555555555555e5bf2be6708b68120000a0c8eb85f3cce17f", "000000005555d53f000000005555e5bf000000006912000000000000f4cce17f", "000000005555d53f000000005555e5bf000000006912000000000000f4cce17f"},
    {R"({"id":"fixedscaleoffset","offset":1000,"scale":10,"dtype":"<f4","astype":"<i2"})", "<f4", "00007a4466067a4400107a4466167a44cdfc794466a68545", "000001000200030000000080", "00007a4466067a44cd0c7a4433137a4400007a44cd4c0ec5"},
    {R"({"id":"fixedscaleoffset","offset":0.5,"scale":2,"dtype":"<f8","astype":"|u1"})", "<f8", "000000000000e03f000000000000e83f000000000000fc3f000000000000f0bf0000000000006940000000000000f87f", "000002fd8f00", "000000000000e03f000000000000e03f000000000000f83f0000000000c05f400000000000005240000000000000e03f"},
    {R"({"id":"fixedscaleoffset","offset":-3,"scale":3,"dtype":"<i2","astype":"|i1"})", "<i2", "00000100fdff2800ceffff7f", "090c00817306", "00000100fdffd3ff2300ffff"},
    {R"({"id":"quantize","digits":1,"dtype":"<f8"})", "<f8", "00000000000000009a9999999999c93f9a9999999999d93f343333333333e33f9a9999999999e93f000000000000f03f", "0000000000000000000000000000c83f000000000000d83f000000000000e43f000000000000ea3f000000000000f03f", "0000000000000000000000000000c83f000000000000d83f000000000000e43f000000000000ea3f000000000000f03f"},
    {R"({"id":"quantize","digits":2,"dtype":"<f2","astype":"<f2"})", "<f2", "662e484270c1ff7b", "802e484270c1007c", "802e484270c1007c"},
    {R"({"id":"quantize","digits":6,"dtype":"<f2","astype":"<f4"})", "<f2", "662e484270c1", "00c0cc3d0000494000002ec0", "662e484270c1"},
    {R"({"id":"packbits"})", "|b1", "01000001010100010101", "069dc0", "01000001010100010101"},
    {R"({"id":"astype","encode_dtype":"|u1","decode_dtype":"<f8"})", "<f8", "666666666666fe3f000000000000f8bf0000000000f06f400000000000087040cdcccccccc3c60c0000000c00b5ae641", "01ffff007f00", "000000000000f03f0000000000e06f400000000000e06f4000000000000000000000000000c05f400000000000000000"},
    {R"({"id":"categorize","labels":["a","ßàř","ßàř\u0000","toolong"],"dtype":"<U3"})", "<U3", "610000000000000000000000df000000e000000059010000620000000000000000000000000000000000000000000000740000006f0000006f000000", "0103000000", "610000000000000000000000df000000e000000059010000000000000000000000000000000000000000000000000000000000000000000000000000"},
    {R"({"id":"adler32"})", "|u1", "57696b697065646961", "9803e61157696b697065646961", "57696b697065646961"},
    {R"({"id":"crc32"})", "|u1", "313233343536373839", "2639f4cb313233343536373839", "313233343536373839"},
    // later numcodecs (not 0.11): CRC-32C's check value 0xe3069283 after the data;
    // HDF5's Fletcher-32 of "abcde" (0x4ff029c7) after the data
    {R"({"id":"crc32c"})", "|u1", "313233343536373839", "313233343536373839839206e3", "313233343536373839"},
    {R"({"id":"crc32","location":"end"})", "|u1", "313233343536373839", "3132333435363738392639f4cb", "313233343536373839"},
    {R"({"id":"fletcher32"})", "|u1", "6162636465", "6162636465c729f04f", "6162636465"},
};

TEST(FilterBytes, EncodeAndDecodeAsNumcodecs) {
  for (const Known& k : kKnown) {
    SCOPED_TRACE(k.config);
    std::string enc_hex = k.encoded;
    auto codec = filter(k.config, k.dtype);
    Bytes input = from_hex(k.input), encoded = from_hex(enc_hex), decoded = from_hex(k.decoded);
    EXPECT_EQ(to_hex(codec->encode(input)), enc_hex);
    EXPECT_EQ(to_hex(codec->decode(encoded, decoded.size())), k.decoded);
    EXPECT_EQ(to_hex(codec->decode(encoded, 0)), k.decoded);
  }
}

TEST(FilterBytes, ChecksumCheckValues) {
  const std::string check = "123456789";
  const auto* p = reinterpret_cast<const uint8_t*>(check.data());
  EXPECT_EQ(codecs::crc32_checksum(p, check.size()), 0xCBF43926u);
  EXPECT_EQ(codecs::crc32c_checksum(p, check.size()), 0xE3069283u);
  EXPECT_EQ(codecs::adler32_checksum(p, check.size()), 0x091E01DEu);
  EXPECT_EQ(codecs::adler32_checksum(nullptr, 0), 1u);
  EXPECT_EQ(codecs::crc32_checksum(nullptr, 0), 0u);
  // long inputs cross adler32's 5552-byte and fletcher32's 360-word blocks;
  // values from zlib.adler32 / zlib.crc32 and a plain Fletcher-32 (mod 65535)
  Bytes big(100000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 7 + (i >> 8));
  EXPECT_EQ(codecs::adler32_checksum(big.data(), big.size()), 0xd43b9aefu);
  EXPECT_EQ(codecs::crc32_checksum(big.data(), big.size()), 0xe72bddc1u);
  EXPECT_EQ(codecs::crc32c_checksum(big.data(), big.size()), 0x60f0c5bdu);
  Bytes ramp(768);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(codecs::fletcher32_checksum(ramp.data(), ramp.size()), 0x600040bfu);
}

TEST(FilterBytes, FastAndPortableCrcsAgree) {
  // Every length up to 80 at every alignment up to 8, then long buffers: the
  // instruction path (where the CPU has it) and the table path give one CRC.
  Bytes data(100000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 131 + (i >> 5));
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t size = 0; size <= 80; ++size) {
      ASSERT_EQ(codecs::crc32c_checksum(data.data() + offset, size),
                codecs::crc32c_checksum_portable(data.data() + offset, size))
          << "offset " << offset << ", size " << size;
    }
  }
  EXPECT_EQ(codecs::crc32c_checksum(data.data() + 3, data.size() - 3),
            codecs::crc32c_checksum_portable(data.data() + 3, data.size() - 3));
  EXPECT_EQ(codecs::crc32_checksum(data.data() + 3, data.size() - 3),
            codecs::crc32_checksum_portable(data.data() + 3, data.size() - 3));
  const std::string check = "123456789";
  EXPECT_EQ(codecs::crc32_checksum_portable(reinterpret_cast<const uint8_t*>(check.data()), check.size()),
            0xCBF43926u);
  EXPECT_EQ(codecs::crc32c_checksum_portable(reinterpret_cast<const uint8_t*>(check.data()), check.size()),
            0xE3069283u);
}

// --- round trips ------------------------------------------------------------------------

struct RoundTripFilter {
  std::string config;
  std::string dtype;  // the array's
  Values values = Values::Typical;
  size_t unit = 1;    // elements come in groups of this many (shuffle: whole elements)
};

std::vector<RoundTripFilter> lossless_cases() {
  std::vector<RoundTripFilter> out;
  const char* ints[] = {"|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", ">i2", ">u4", ">i8"};
  for (const char* t : ints) {
    out.push_back({std::string(R"({"id":"delta","dtype":")") + t + "\"}", t});
    out.push_back({std::string(R"({"id":"astype","encode_dtype":")") + t + R"(","decode_dtype":")" + t + "\"}", t});
  }
  // wider astype keeps every value; so does float64 for 32-bit integers
  for (auto [d, a] : {std::pair{"|i1", "<i2"}, {"|u1", "<i2"}, {"<i2", ">i8"}, {"<u2", "<u4"}, {"<i4", "<f8"}}) {
    out.push_back({std::string(R"({"id":"delta","dtype":")") + d + R"(","astype":")" + a + "\"}", d, Values::Small});
    out.push_back({std::string(R"({"id":"astype","encode_dtype":")") + a + R"(","decode_dtype":")" + d + "\"}", d});
  }
  for (const char* t : {"<f2", "<f4", ">f8"}) {
    out.push_back({std::string(R"({"id":"astype","encode_dtype":"<f8","decode_dtype":")") + t + "\"}", t, Values::Special});
    out.push_back({R"({"id":"bitround","keepbits":)" + std::to_string(t[2] == '2' ? 10 : t[2] == '4' ? 23 : 52) + "}", t,
                   Values::Special});
  }
  for (int es : {-1, 0, 1, 2, 3, 4, 8, 16}) {
    out.push_back({R"({"id":"shuffle","elementsize":)" + std::to_string(es) + "}", "|u1", Values::Typical, 48});
  }
  for (const char* id : {"adler32", "crc32", "crc32c", "fletcher32"}) {
    out.push_back({std::string(R"({"id":")") + id + "\"}", "|u1"});
    out.push_back({std::string(R"({"id":")") + id + R"(","location":"start"})", "|u1"});
    out.push_back({std::string(R"({"id":")") + id + R"(","location":"end"})", "|u1"});
  }
  out.push_back({R"({"id":"packbits"})", "|b1"});
  out.push_back({R"({"id":"categorize","labels":["ƒöõ","ßàř","ßāẑ","ƪùüx","male","female","","x\u00e9yz!"],"dtype":"<U9"})",
                 "<U9"});
  out.push_back({R"({"id":"categorize","labels":["ƒöõ","ßàř","ßāẑ","ƪùüx","male","female","","x\u00e9yz!"],"dtype":">U9","astype":">f8"})",
                 ">U9"});
  return out;
}

Bytes data_for(const RoundTripFilter& c, size_t n, uint32_t seed) {
  if (c.dtype.find('U') != std::string::npos) {
    return unicode_data(c.dtype, n * c.unit, {"ƒöõ", "ßàř", "ßāẑ", "ƪùüx", "male", "female", "", "x\xC3\xA9yz!"}, seed);
  }
  return typed_data(c.dtype, n * c.unit, seed, c.values);
}

class FilterRoundTrip : public ::testing::TestWithParam<RoundTripFilter> {};

TEST_P(FilterRoundTrip, SizesIncludingEmpty) {
  auto codec = filter(GetParam().config, GetParam().dtype);
  // element counts: none, one, a few, not a multiple of 4 or 8, and large
  for (size_t n : {0, 1, 3, 7, 48, 1001, 48000}) {
    Bytes data = data_for(GetParam(), n, static_cast<uint32_t>(n + 1));
    EXPECT_TRUE(round_trips(*codec, data)) << n << " elements";
  }
}

std::string filter_case_name(const ::testing::TestParamInfo<RoundTripFilter>& info) {
  rapidjson::Document doc = json::parse(info.param.config, "case");
  return std::to_string(info.index) + "_" + doc["id"].GetString();
}

INSTANTIATE_TEST_SUITE_P(Filters, FilterRoundTrip, ::testing::ValuesIn(lossless_cases()), filter_case_name);

TEST(FilterLossy, DecodingIsTheInverseWhereNumcodecsSaysSo) {
  // fixedscaleoffset: values within 0.5 / scale of the original
  Bytes x = typed_data("<f8", 5000, 3, Values::Typical);
  auto fso = filter(R"({"id":"fixedscaleoffset","offset":1000,"scale":1000,"dtype":"<f8","astype":"<i4"})");
  Bytes back = fso->decode(fso->encode(x), x.size());
  for (size_t k = 0; k < 5000; ++k) {
    double a, b;
    std::memcpy(&a, x.data() + 8 * k, 8);
    std::memcpy(&b, back.data() + 8 * k, 8);
    ASSERT_LE(std::fabs(a - b), 0.0005 + 1e-9) << k;
  }
  // quantize and bitround: encoding twice changes nothing more
  for (const char* cfg : {R"({"id":"quantize","digits":2,"dtype":"<f4"})", R"({"id":"bitround","keepbits":5})"}) {
    auto q = filter(cfg, "<f4");
    Bytes y = typed_data("<f4", 5000, 4, Values::Special);
    Bytes once = q->encode(y);
    EXPECT_EQ(q->encode(q->decode(once, y.size())), once) << cfg;
  }
}

// --- errors -----------------------------------------------------------------------------

TEST(FilterErrors, BadConfigurationsNameTheCodecAndField) {
  const int bad = ZARR_ERR_INVALID_METADATA;
  const int unsupported = ZARR_ERR_UNSUPPORTED;
  struct Case {
    const char* json;
    int code;
    std::vector<std::string> needles;
    const char* dtype = "<f4";
  } cases[] = {
      {R"({"id":"delta"})", bad, {"codec 'delta'", "field 'dtype'", "required"}},
      {R"({"id":"delta","dtype":4})", bad, {"codec 'delta'", "field 'dtype'", "4"}},
      {R"({"id":"delta","dtype":"<c8"})", unsupported, {"codec 'delta'", "'dtype'", "\"<c8\""}},
      {R"({"id":"delta","dtype":"<i4","astype":"|O"})", unsupported, {"codec 'delta'", "'astype'", "\"|O\""}},
      {R"({"id":"delta","dtype":"<i4","astype":[]})", bad, {"codec 'delta'", "field 'astype'"}},
      {R"({"id":"shuffle","elementsize":"4"})", bad, {"codec 'shuffle'", "field 'elementsize'"}},
      {R"({"id":"shuffle","elementsize":2.5})", bad, {"codec 'shuffle'", "field 'elementsize'"}},
      {R"({"id":"bitround"})", bad, {"codec 'bitround'", "field 'keepbits'", "required"}},
      {R"({"id":"bitround","keepbits":-1})", bad, {"codec 'bitround'", "field 'keepbits'"}},
      {R"({"id":"bitround","keepbits":"3"})", bad, {"codec 'bitround'", "field 'keepbits'"}},
      {R"({"id":"bitround","keepbits":24})", bad, {"codec 'bitround'", "field 'keepbits'", "0..23"}},
      {R"({"id":"bitround","keepbits":11})", bad, {"codec 'bitround'", "field 'keepbits'", "0..10"}, "<f2"},
      {R"({"id":"bitround","keepbits":3})", bad, {"codec 'bitround'", "dtype", "\"<i4\""}, "<i4"},
      {R"({"id":"bitround","keepbits":3})", bad, {"codec 'bitround'", "dtype", "structured"}, ""},
      {R"({"id":"bitround","keepbits":3})", bad, {"codec 'bitround'", "dtype", "\"<c8\""}, "<c8"},
      {R"({"id":"fixedscaleoffset","scale":1,"dtype":"<f8"})", bad, {"codec 'fixedscaleoffset'", "field 'offset'"}},
      {R"({"id":"fixedscaleoffset","offset":1,"dtype":"<f8"})", bad, {"codec 'fixedscaleoffset'", "field 'scale'"}},
      {R"({"id":"fixedscaleoffset","offset":1,"scale":1})", bad, {"codec 'fixedscaleoffset'", "field 'dtype'"}},
      {R"({"id":"fixedscaleoffset","offset":"1","scale":1,"dtype":"<f8"})", bad,
       {"codec 'fixedscaleoffset'", "field 'offset'", "a number"}},
      {R"({"id":"fixedscaleoffset","offset":1,"scale":true,"dtype":"<f8"})", bad,
       {"codec 'fixedscaleoffset'", "field 'scale'"}},
      {R"({"id":"fixedscaleoffset","offset":1,"scale":1,"dtype":"<f8","astype":"<m8[s]"})", unsupported,
       {"codec 'fixedscaleoffset'", "'astype'", "<m8[s]"}},
      {R"({"id":"quantize","dtype":"<f8"})", bad, {"codec 'quantize'", "field 'digits'", "required"}},
      {R"({"id":"quantize","digits":1.5,"dtype":"<f8"})", bad, {"codec 'quantize'", "field 'digits'"}},
      {R"({"id":"quantize","digits":400,"dtype":"<f8"})", bad, {"codec 'quantize'", "field 'digits'", "-300..300"}},
      {R"({"id":"quantize","digits":2})", bad, {"codec 'quantize'", "field 'dtype'"}},
      {R"({"id":"quantize","digits":2,"dtype":"<i4"})", bad, {"codec 'quantize'", "field 'dtype'", "float"}},
      {R"({"id":"quantize","digits":2,"dtype":"<f4","astype":"<i2"})", bad, {"codec 'quantize'", "field 'astype'"}},
      {R"({"id":"astype","decode_dtype":"<f8"})", bad, {"codec 'astype'", "field 'encode_dtype'"}},
      {R"({"id":"astype","encode_dtype":"<f8"})", bad, {"codec 'astype'", "field 'decode_dtype'"}},
      {R"({"id":"astype","encode_dtype":"<f8","decode_dtype":"|S4"})", unsupported, {"codec 'astype'", "|S4"}},
      {R"({"id":"categorize","dtype":"<U4"})", bad, {"codec 'categorize'", "field 'labels'", "required"}},
      {R"({"id":"categorize","labels":"ab","dtype":"<U4"})", bad, {"codec 'categorize'", "field 'labels'"}},
      {R"({"id":"categorize","labels":["a",1],"dtype":"<U4"})", bad, {"codec 'categorize'", "field 'labels'"}},
      {R"({"id":"categorize","labels":["a"]})", bad, {"codec 'categorize'", "field 'dtype'", "required"}},
      {R"({"id":"categorize","labels":["a"],"dtype":"<i4"})", bad, {"codec 'categorize'", "field 'dtype'", "<U4"}},
      {R"({"id":"categorize","labels":["a"],"dtype":"<U0"})", bad, {"codec 'categorize'", "field 'dtype'"}},
      {R"({"id":"categorize","labels":["a"],"dtype":"|O"})", unsupported, {"codec 'categorize'", "object", "|O"}},
      {R"({"id":"categorize","labels":["a"],"dtype":"<U4","astype":"<U4"})", unsupported,
       {"codec 'categorize'", "'astype'"}},
      {R"({"id":"crc32","location":"middle"})", bad, {"codec 'crc32'", "field 'location'", "\"start\" or \"end\""}},
      {R"({"id":"adler32","location":1})", bad, {"codec 'adler32'", "field 'location'"}},
      {R"({"id":"crc32c","location":"END"})", bad, {"codec 'crc32c'", "field 'location'"}},
      {R"({"id":"delta","dtype":"<i4"} )", 0, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    if (c.code == 0) {
      EXPECT_NO_THROW(filter(c.json, c.dtype));
      continue;
    }
    EXPECT_TRUE(fails_with(c.code, std::initializer_list<std::string>(), [&] { filter(c.json, c.dtype); }));
    for (const std::string& needle : c.needles) {
      EXPECT_TRUE(fails_with(c.code, {needle}, [&] { filter(c.json, c.dtype); }));
    }
  }
}

TEST(FilterErrors, ConfigMustBeAnObject) {
  rapidjson::Document doc = json::parse("[1]", "test");
  EXPECT_TRUE(fails_with(ZARR_ERR_INVALID_METADATA, {"codec 'delta'", "JSON object"},
                         [&] { codecs::make_delta_codec(doc, ChunkRepr{}); }));
}

TEST(FilterErrors, ChecksumMismatchNamesBothValues) {
  for (const char* id : {"adler32", "crc32", "crc32c", "fletcher32"}) {
    SCOPED_TRACE(id);
    auto codec = filter(std::string(R"({"id":")") + id + "\"}");
    Bytes data = sample_data(1000, 5);
    Bytes encoded = codec->encode(data);
    Bytes flipped = encoded;
    flipped[encoded.size() / 2] ^= 0x10;  // a payload byte
    std::string stored = std::to_string(static_cast<unsigned long>(
        std::string(id) == "adler32" || std::string(id) == "crc32"
            ? (encoded[0] | encoded[1] << 8 | encoded[2] << 16 | uint32_t{encoded[3]} << 24)
            : (encoded[1000] | encoded[1001] << 8 | encoded[1002] << 16 | uint32_t{encoded[1003]} << 24)));
    EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {std::string("codec '") + id + "'", "checksum mismatch", "stored " + stored,
                                            "computed "},
                           [&] { codec->decode(flipped, data.size()); }));
    // a corrupt checksum itself
    Bytes bad_sum = encoded;
    bad_sum[std::string(id) == "adler32" || std::string(id) == "crc32" ? 0 : encoded.size() - 1] ^= 1;
    EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"checksum mismatch"}, [&] { codec->decode(bad_sum, 0); }));
    // truncated below the checksum, and by one byte
    for (size_t n : {0, 1, 3}) {
      EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {std::string("codec '") + id + "'", "truncated"},
                             [&] { codec->decode(ByteView(encoded.data(), n), 0); }));
    }
    EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {std::string("codec '") + id + "'"},
                           [&] { codec->decode(ByteView(encoded.data(), encoded.size() - 1), 0); }));
    // the size the metadata implies
    EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {std::string("codec '") + id + "'", "999", "1000"},
                           [&] { codec->decode(encoded, 999); }));
    // just a checksum: an empty chunk
    EXPECT_EQ(codec->decode(codec->encode(Bytes()), 0), Bytes());
  }
}

TEST(FilterErrors, SizesThatAreNotWholeElements) {
  struct Case {
    const char* json;
    const char* dtype;
    size_t bad_encode;  // a byte count encode must refuse (0: none)
    size_t bad_decode;  // a byte count decode must refuse
  } cases[] = {
      {R"({"id":"delta","dtype":"<i4","astype":"<i2"})", "<i4", 6, 5},
      {R"({"id":"shuffle","elementsize":4})", "|u1", 6, 7},
      {R"({"id":"bitround","keepbits":3})", "<f8", 12, 0},
      {R"({"id":"fixedscaleoffset","offset":0,"scale":1,"dtype":"<f8","astype":"<i2"})", "<f8", 12, 3},
      {R"({"id":"quantize","digits":1,"dtype":"<f8","astype":"<f4"})", "<f8", 4, 6},
      {R"({"id":"astype","encode_dtype":"<f4","decode_dtype":"<f8"})", "<f8", 4, 6},
      {R"({"id":"categorize","labels":["a"],"dtype":"<U2","astype":"<i2"})", "<U2", 12, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    auto codec = filter(c.json, c.dtype);
    rapidjson::Document doc = json::parse(c.json, "case");
    std::string id = std::string("codec '") + doc["id"].GetString() + "'";
    if (c.bad_encode) {
      EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {id, "not a multiple"}, [&] { codec->encode(Bytes(c.bad_encode, 1)); }));
    }
    if (c.bad_decode) {
      EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {id, "not a multiple"}, [&] { codec->decode(Bytes(c.bad_decode, 1), 0); }));
    }
    // a decoded size the metadata does not imply
    Bytes ok = codec->encode(Bytes(48, 0));
    EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {id, "expected 40"}, [&] { codec->decode(ok, 40); }));
  }
}

TEST(FilterErrors, PackbitsHeaders) {
  auto codec = filter(R"({"id":"packbits"})");
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'packbits'", "truncated"}, [&] { codec->decode(Bytes(), 0); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'packbits'", "8 padding bits"},
                         [&] { codec->decode(Bytes{8, 0xff}, 0); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'packbits'", "3 padding bits"}, [&] { codec->decode(Bytes{3}, 0); }));
  EXPECT_EQ(codec->decode(Bytes{0}, 0), Bytes());
  EXPECT_EQ(codec->decode(Bytes{7, 0x80}, 0), Bytes{1});
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'packbits'", "expected 2"}, [&] { codec->decode(Bytes{7, 0x80}, 2); }));
}

TEST(FilterErrors, DeltaCannotStoreANonFiniteFirstElementAsAnInteger) {
  // numcodecs fails the same way (numpy raises converting the first element)
  auto codec = filter(R"({"id":"delta","dtype":"<f8","astype":"<i4"})");
  for (double first : {std::nan(""), std::numeric_limits<double>::infinity(), 1e19, -1e30}) {
    Bytes data(16, 0);
    std::memcpy(data.data(), &first, 8);
    EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'delta'", "first element", "<i4"}, [&] { codec->encode(data); }));
  }
  // unsigned targets take numpy's C cast instead, as numcodecs does
  auto to_unsigned = filter(R"({"id":"delta","dtype":"<f8","astype":"<u4"})");
  Bytes data(8, 0);
  double minus = -3e9;
  std::memcpy(data.data(), &minus, 8);
  EXPECT_EQ(to_hex(to_unsigned->encode(data)), "00a22f4d");  // 1294967296: the low bits of int64(-3e9)
}

TEST(FilterErrors, HostileInputNeverCrashes) {
  // Random bytes of every length up to 64 into every decoder: a result or a
  // ZARR_ERR_CODEC, nothing else.
  std::vector<std::pair<std::string, std::string>> codecs_under_test = {
      {R"({"id":"delta","dtype":"<i8","astype":"<i2"})", "<i8"},
      {R"({"id":"shuffle","elementsize":8})", "|u1"},
      {R"({"id":"bitround","keepbits":1})", "<f4"},
      {R"({"id":"fixedscaleoffset","offset":3,"scale":7.5,"dtype":"<f4","astype":"<u8"})", "<f4"},
      {R"({"id":"quantize","digits":2,"dtype":"<f8","astype":"<f2"})", "<f8"},
      {R"({"id":"packbits"})", "|b1"},
      {R"({"id":"astype","encode_dtype":"<i8","decode_dtype":"<f2"})", "<f2"},
      {R"({"id":"categorize","labels":["a","b"],"dtype":"<U3","astype":"<f8"})", "<U3"},
      {R"({"id":"adler32"})", "|u1"}, {R"({"id":"crc32"})", "|u1"}, {R"({"id":"crc32c"})", "|u1"},
      {R"({"id":"fletcher32"})", "|u1"}};
  std::mt19937 rng(9);
  for (const auto& [json, dtype] : codecs_under_test) {
    auto codec = filter(json, dtype);
    for (size_t n = 0; n <= 64; ++n) {
      Bytes junk(n);
      for (uint8_t& b : junk) b = static_cast<uint8_t>(rng());
      for (size_t expected : {size_t{0}, n, size_t{24}}) {
        try {
          codec->decode(junk, expected);
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), ZARR_ERR_CODEC) << json << ": " << e.what();
        }
      }
    }
  }
}

// --- numcodecs behaviours worth pinning ---------------------------------------------------

TEST(FilterBehaviour, ShuffleOfOneOrLessCopies) {
  for (const char* cfg : {R"({"id":"shuffle","elementsize":1})", R"({"id":"shuffle","elementsize":0})",
                          R"({"id":"shuffle","elementsize":-5})"}) {
    Bytes odd = sample_data(7);
    EXPECT_EQ(filter(cfg)->encode(odd), odd);  // any size
    EXPECT_EQ(filter(cfg)->decode(odd, 7), odd);
  }
}

TEST(FilterBehaviour, BigEndianArraysRoundTheirValues) {
  // numcodecs 0.11 fails on big-endian floats (KeyError '>f4'); libzarr
  // rounds the value, so ">f4" gives the byte-swapped "<f4" result.
  Bytes le = from_hex("cdcc8c3f33331340");
  Bytes be = {le[3], le[2], le[1], le[0], le[7], le[6], le[5], le[4]};
  Bytes le_out = filter(R"({"id":"bitround","keepbits":3})", "<f4")->encode(le);
  Bytes be_out = filter(R"({"id":"bitround","keepbits":3})", ">f4")->encode(be);
  EXPECT_EQ(be_out, (Bytes{le_out[3], le_out[2], le_out[1], le_out[0], le_out[7], le_out[6], le_out[5], le_out[4]}));
}

TEST(FilterBehaviour, ChecksumLocation) {
  Bytes data = {1, 2, 3};
  Bytes start = filter(R"({"id":"crc32c","location":"start"})")->encode(data);
  Bytes end = filter(R"({"id":"crc32c"})")->encode(data);
  EXPECT_EQ(Bytes(start.begin() + 4, start.end()), data);
  EXPECT_EQ(Bytes(end.begin(), end.begin() + 3), data);
  EXPECT_EQ(Bytes(start.begin(), start.begin() + 4), Bytes(end.begin() + 3, end.end()));
}

// --- thread safety ------------------------------------------------------------------------

TEST(FilterConcurrency, OneCodecObjectSharedByThreads) {
  std::vector<RoundTripFilter> cases = lossless_cases();
  for (const RoundTripFilter& c : cases) {
    auto codec = filter(c.config, c.dtype);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        for (uint32_t i = 0; i < 5; ++i) {
          Bytes data = data_for(c, 2000 + 8 * i, t * 100 + i);
          try {
            if (codec->decode(codec->encode(data), data.size()) != data) ++failures;
          } catch (const std::exception&) {
            ++failures;
          }
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0) << c.config;
  }
}

// --- the peer arrays that use filters -----------------------------------------------------

// Every chunk of a v2 array in the peer data decoded with the codecs of its
// .zarray (filters, compressor, the dtype as ChunkRepr) as a v2 pipeline
// runs them; compared with what zarr-python 2.13 read.
struct PeerArray {
  const char* path;
  std::vector<std::string> chunks;
  std::string expected_hex;  // the chunks' decoded bytes, concatenated
};

TEST(FilterPeerArrays, DecodeAsZarrPythonRead) {
  std::string peer = peer_data_dir();
  if (peer.empty()) GTEST_SKIP() << "no peer data: expected " << peer_data_expected_location();
  // values from ../shared/peer-data/manifest.json (zarr-python 2.13.6)
  auto i16 = [](std::initializer_list<int> v) {
    Bytes b;
    for (int x : v) {
      b.push_back(static_cast<uint8_t>(x));
      b.push_back(static_cast<uint8_t>(x >> 8));
    }
    return to_hex(b);
  };
  auto f32 = [](std::initializer_list<float> v) {
    Bytes b(v.size() * 4);
    std::memcpy(b.data(), v.begin(), b.size());
    return to_hex(b);
  };
  std::string u16_0_9999;
  {
    // the four 50x50 chunks of a 100x100 array holding 0..9999 row-major
    Bytes b;
    for (int cy = 0; cy < 2; ++cy) {
      for (int cx = 0; cx < 2; ++cx) {
        for (int y = 0; y < 50; ++y) {
          for (int x = 0; x < 50; ++x) {
            int v = (cy * 50 + y) * 100 + cx * 50 + x;
            b.push_back(static_cast<uint8_t>(v));
            b.push_back(static_cast<uint8_t>(v >> 8));
          }
        }
      }
    }
    u16_0_9999 = to_hex(b);
  }
  const PeerArray arrays[] = {
      {"zarrita-fixtures/v2/data.zarr/1d.contiguous.bitround.f4", {"0"}, f32({1.125f, 2.25f, 3.25f, 4.5f})},
      {"zarrita-fixtures/v2/data.zarr/1d.contiguous.delta.i2", {"0"}, i16({1, 2, 3, 4})},
      {"zarrita-fixtures/v2/data.zarr/1d.contiguous.delta.shuffle.i2", {"0"}, i16({10, 20, 30, 40})},
      {"zarrita-fixtures/v2/data.zarr/1d.contiguous.fixedscaleoffset.f4",
       {"0"},
       f32({1000.0f, 1000.0999755859375f, 1000.2000122070312f, 1000.2999877929688f})},
      {"zarrita-fixtures/v2/data.zarr/1d.contiguous.shuffle.i2", {"0"}, i16({1, 2, 3, 4})},
      {"zarrs-data/zarr_python_compat/adler32.zarr", {"0.0", "0.1", "1.0", "1.1"}, u16_0_9999},
      // zarr-python 2.13 cannot read this one (numcodecs 0.11 lacks fletcher32);
      // its writer stored 0..9999 row-major
      {"zarrs-data/zarr_python_compat/fletcher32.zarr", {"0.0", "0.1", "1.0", "1.1"}, u16_0_9999},
  };
  for (const PeerArray& a : arrays) {
    SCOPED_TRACE(a.path);
    std::string dir = peer + "/" + a.path;
    if (!file_exists(dir + "/.zarray")) {
      ADD_FAILURE() << "missing " << dir;
      continue;
    }
    rapidjson::Document meta = json::parse_object(ByteView(read_file(dir + "/.zarray")).to_string(), dir);
    std::string dtype = meta["dtype"].GetString();
    size_t item = std::stoul(dtype.substr(2));
    size_t chunk_bytes = item;
    for (const auto& c : meta["chunks"].GetArray()) chunk_bytes *= c.GetUint64();
    ChunkRepr repr{item, chunk_bytes, dtype};
    std::vector<std::shared_ptr<const BytesCodec>> filters;
    if (meta["filters"].IsArray()) {
      for (const auto& f : meta["filters"].GetArray()) filters.push_back(make_bytes_codec(f, repr));
    }
    std::shared_ptr<const BytesCodec> compressor;
    if (!meta["compressor"].IsNull()) compressor = make_bytes_codec(meta["compressor"], repr);
    // the v2 pipeline: filters in order then the compressor; decoding
    // backwards, only the last step (filters[0]) told the chunk's size
    auto encode = [&](Bytes data) {
      for (const auto& f : filters) data = f->encode(data);
      return compressor ? compressor->encode(data) : data;
    };
    auto decode = [&](const Bytes& stored) {
      Bytes data = compressor ? compressor->decode(stored, filters.empty() ? chunk_bytes : 0) : stored;
      for (size_t i = filters.size(); i-- > 0;) data = filters[i]->decode(data, i == 0 ? chunk_bytes : 0);
      return data;
    };
    Bytes all;
    for (const std::string& key : a.chunks) {
      Bytes stored = read_file(dir + "/" + key);
      Bytes chunk = decode(stored);
      EXPECT_EQ(chunk.size(), chunk_bytes) << key;
      all.insert(all.end(), chunk.begin(), chunk.end());
      // and libzarr writes the same bytes zarr-python stored
      EXPECT_EQ(encode(chunk), stored) << key;
    }
    EXPECT_EQ(to_hex(all), a.expected_hex);
  }
}

}  // namespace
}  // namespace zarr::test
