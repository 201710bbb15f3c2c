// The zfp codecs (issue 26, libzfp): the registry's "zfp" (array->bytes, v3)
// and numcodecs' zfpy (v2 compressor "zfpy", v3 "numcodecs.zfpy"), at the
// chain and codec level: every mode and type round-trips within its
// promise, the registry's examples build, the fixtures' chunks are what
// libzarr writes for the same values, and every bad configuration or stream
// fails naming the field or the codec (never a crash or a read past the
// stored bytes: the sanitizer build runs this file).
// tests/capi/test_v3_registry_codecs.cpp reads the peer fixtures through the C API.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>

#include "base/error.h"
#include "base/json.h"
#include "codecs/codec.h"
#include "codecs/zfp_stream.h"
#include "support/test_support.h"
#include "support/zarr_extensions_registry.h"
#include "dtype/float_text.h"
#include "v3_chain_helpers.h"

using namespace zarr;
using zarr::test::bytes_of;
using zarr::test::chain;
using zarr::test::error_of;
using zarr::test::repr_of;
using zarr::test::values_of;
namespace zfp = zarr::codecs::zfp;

namespace {

// A smooth field of n values of T (all >= 0 before `scale`): what zfp is made for.
template <typename T>
std::vector<T> smooth(size_t n, double scale = 1) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>(scale * (std::sin(0.3 * static_cast<double>(i)) * 100 + 100 + i));
  return v;
}

std::string zfp(const std::string& configuration) {
  return R"([{"name": "zfp", "configuration": )" + configuration + "}]";
}

std::string registry_dir() { return zarr::test::registry_extension_dir(zarr::ExtensionPoint::Codec, "zfp"); }

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Encodes and decodes `values` through `codecs` on a chunk of `shape`.
template <typename T>
std::vector<T> round_trip(const std::string& codecs, const char* type, const std::vector<uint64_t>& shape,
                          const std::vector<T>& values, size_t* stored_size = nullptr) {
  CodecChain c = chain(codecs, repr_of(type, shape));
  Bytes stored = c.encode_bytes(bytes_of(values));
  if (stored_size) *stored_size = stored.size();
  return values_of<T>(c.decode(ByteView(stored.data(), stored.size()), "c/0"));
}

// ---- zfp: modes and types ------------------------------------------------------

const std::vector<std::vector<uint64_t>> kShapes = {{}, {37}, {9, 7}, {5, 4, 6}, {3, 5, 2, 6}};

uint64_t elements(const std::vector<uint64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), uint64_t{1}, std::multiplies<uint64_t>());
}

TEST(Zfp, ReversibleIsLosslessForEveryTypeAndRank) {
  const std::string codecs = zfp(R"({"mode": "reversible"})");
  for (const auto& shape : kShapes) {
    const size_t n = elements(shape);
    EXPECT_EQ(round_trip(codecs, "float32", shape, smooth<float>(n)), smooth<float>(n));
    EXPECT_EQ(round_trip(codecs, "float64", shape, smooth<double>(n)), smooth<double>(n));
    EXPECT_EQ(round_trip(codecs, "int32", shape, smooth<int32_t>(n, -1000)), smooth<int32_t>(n, -1000));
    EXPECT_EQ(round_trip(codecs, "int64", shape, smooth<int64_t>(n, 1e9)), smooth<int64_t>(n, 1e9));
    std::vector<uint32_t> u32 = smooth<uint32_t>(n, 1e6);
    u32[0] = 0xFFFFFFFFu;  // the extremes survive the top-bit flip
    if (n > 1) u32[1] = 0;
    EXPECT_EQ(round_trip(codecs, "uint32", shape, u32), u32);
    std::vector<uint64_t> u64 = smooth<uint64_t>(n, 1e12);
    u64[0] = ~uint64_t{0};
    EXPECT_EQ(round_trip(codecs, "uint64", shape, u64), u64);
  }
}

// Reversible mode keeps every bit pattern: NaN, infinities, -0.0,
// subnormals, the extremes (the lossy modes do not carry non-finite values:
// zfp's own limit, said in docs/codecs.md).
TEST(Zfp, ReversibleKeepsNanInfinitiesAndSubnormals) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> d{1.0, std::nan(""), inf, -inf, 0.0, -0.0, 5e-324, 1.7976931348623157e308, -2.5};
  const std::vector<double> back = round_trip(zfp(R"({"mode": "reversible"})"), "float64", {3, 3}, d);
  EXPECT_EQ(std::memcmp(back.data(), d.data(), d.size() * 8), 0);
  const std::vector<float> f{std::nanf(""), std::numeric_limits<float>::infinity(), -0.0f, 1e-45f, 3.4028235e38f};
  const std::vector<float> fb = round_trip(zfp(R"({"mode": "reversible"})"), "float32", {5}, f);
  EXPECT_EQ(std::memcmp(fb.data(), f.data(), f.size() * 4), 0);
}

// int8/int16/uint8/uint16 go through int32 with the README's promotion and
// demotion; reversible mode gives them back exactly, extremes included.
TEST(Zfp, SmallIntegersArePromotedAndDemoted) {
  const std::string codecs = zfp(R"({"mode": "reversible"})");
  const std::vector<int8_t> i8{-128, -1, 0, 1, 127, 5, -7, 100};
  const std::vector<uint8_t> u8{0, 1, 127, 128, 255, 3, 200, 9};
  const std::vector<int16_t> i16{-32768, -1, 0, 1, 32767, 500, -700, 1000};
  const std::vector<uint16_t> u16{0, 1, 32767, 32768, 65535, 300, 20000, 9};
  EXPECT_EQ(round_trip(codecs, "int8", {8}, i8), i8);
  EXPECT_EQ(round_trip(codecs, "uint8", {2, 4}, u8), u8);
  EXPECT_EQ(round_trip(codecs, "int16", {8}, i16), i16);
  EXPECT_EQ(round_trip(codecs, "uint16", {2, 2, 2}, u16), u16);
  // A lossy mode stays within the type (demotion clamps).
  const std::vector<uint8_t> back = round_trip(zfp(R"({"mode": "fixed_precision", "precision": 4})"), "uint8", {8}, u8);
  EXPECT_EQ(back.size(), u8.size());
}

// float16 and bfloat16 go through float32 (the README's casting): every bit
// pattern but NaN payloads comes back in reversible mode, infinities and
// subnormals included; a lossy mode stays near the values.
TEST(Zfp, HalfAndBFloat16AreWidenedToFloat32) {
  const std::string reversible = zfp(R"({"mode": "reversible"})");
  // float16: 1, -2, 65504 (largest), 2^-24 (smallest subnormal), -0, +inf, -inf, 0.333.
  const std::vector<uint16_t> half{0x3c00, 0xc000, 0x7bff, 0x0001, 0x8000, 0x7c00, 0xfc00, 0x3555};
  EXPECT_EQ(round_trip(reversible, "float16", {2, 4}, half), half);
  // bfloat16: 1, -2, the largest finite, the smallest subnormal, -0, +inf, -inf, 0.333.
  const std::vector<uint16_t> bf{0x3f80, 0xc000, 0x7f7f, 0x0001, 0x8000, 0x7f80, 0xff80, 0x3eab};
  EXPECT_EQ(round_trip(reversible, "bfloat16", {8}, bf), bf);
  // A smooth field within the tolerance (plus the type's own rounding).
  std::vector<uint16_t> ramp(64);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = zarr::dtype_detail::double_to_half(0.25 * static_cast<double>(i));
  const std::vector<uint16_t> back = round_trip(zfp(R"({"mode": "fixed_accuracy", "tolerance": 0.01})"), "float16",
                                                {8, 8}, ramp);
  ASSERT_EQ(back.size(), ramp.size());
  for (size_t i = 0; i < ramp.size(); ++i) {
    EXPECT_NEAR(zarr::dtype_detail::half_to_double(back[i]), 0.25 * static_cast<double>(i), 0.01 + 0.008) << i;
  }
}

TEST(Zfp, FixedAccuracyKeepsItsTolerance) {
  for (const auto& shape : kShapes) {
    const size_t n = elements(shape);
    const std::vector<double> v = smooth<double>(n);
    const std::vector<double> back = round_trip(zfp(R"({"mode": "fixed_accuracy", "tolerance": 0.05})"), "float64", shape, v);
    for (size_t i = 0; i < n; ++i) EXPECT_LE(std::fabs(back[i] - v[i]), 0.05) << i;
    const std::vector<float> f = smooth<float>(n);
    const std::vector<float> fb = round_trip(zfp(R"({"mode": "fixed_accuracy", "tolerance": 0.01})"), "float32", shape, f);
    for (size_t i = 0; i < n; ++i) EXPECT_LE(std::fabs(fb[i] - f[i]), 0.01) << i;
  }
}

// Fixed rate: every 4^d block takes rate * 4^d bits, so the stored size is
// known in advance; fixed precision and expert keep the values close.
TEST(Zfp, FixedRatePrecisionAndExpertModes) {
  const std::vector<float> v = smooth<float>(64);
  size_t stored = 0;
  round_trip(zfp(R"({"mode": "fixed_rate", "rate": 8})"), "float32", {8, 8}, v, &stored);
  EXPECT_EQ(stored, 64u);  // 4 blocks of 16 values * 8 bits
  const std::vector<float> p = round_trip(zfp(R"({"mode": "fixed_precision", "precision": 24})"), "float32", {8, 8}, v);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(p[i], v[i], 1e-2) << i;
  const std::vector<float> e = round_trip(
      zfp(R"({"mode": "expert", "minbits": 1, "maxbits": 2000, "maxprec": 32, "minexp": -20})"), "float32", {64}, v);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(e[i], v[i], 1e-3) << i;
}

// Each example of the registry's examples/ folder builds a chain that
// round-trips and writes its configuration back unchanged.
TEST(Zfp, RegistryExamplesBuildAndRoundTrip) {
  const std::string dir = registry_dir() + "/examples";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no registry examples at " << dir;
  size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string example = read_text(entry.path().string());
    SCOPED_TRACE(entry.path().filename().string());
    // What each example promises for these values (range +-150): reversible
    // exact, tolerance 0.05, 19 bit planes, 10.5 bits a value; the expert
    // example keeps only 13 bits a block, so only its size is checked.
    const std::string name = entry.path().stem().string();
    const double bound = name == "reversible" ? 0 : name == "fixed_accuracy" ? 0.05
                       : name == "fixed_precision" ? 0.01 : name == "fixed_rate" ? 1.0 : -1;
    const std::vector<double> v = smooth<double>(48);
    size_t stored = 0;
    const std::vector<double> back = round_trip("[" + example + "]", "float64", {4, 12}, v, &stored);
    ASSERT_EQ(back.size(), v.size());
    if (bound >= 0) {
      for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(back[i], v[i], bound) << i;
    } else {
      EXPECT_LE(stored, (3 * 13 + 7) / 8 + 8u);  // 3 blocks of at most 13 bits, a word of flush
    }
    CodecChain c = chain("[" + example + "]", repr_of("float64", {4, 12}));
    rapidjson::Document given = json::parse(example, "example"), written = json::parse(v3_codecs_json(c), "written");
    EXPECT_TRUE(written[0] == given) << v3_codecs_json(c);
    ++seen;
  }
  EXPECT_EQ(seen, 5u);
}

// ---- zfp: configuration errors ------------------------------------------------

TEST(Zfp, ConfigurationErrorsNameTheField) {
  const ArrayRepr f32 = repr_of("float32", {4, 4});
  EXPECT_ERROR(zfp(R"({"mode": "lossy"})"), f32, ZARR_ERR_INVALID_METADATA, "field 'mode'");
  EXPECT_ERROR(zfp(R"({"mode": 4})"), f32, ZARR_ERR_INVALID_METADATA, "mode");
  EXPECT_ERROR(zfp(R"({"tolerance": 0.1})"), f32, ZARR_ERR_INVALID_METADATA, "mode");
  EXPECT_ERROR(zfp(R"({"mode": "fixed_accuracy"})"), f32, ZARR_ERR_INVALID_METADATA, "tolerance");
  EXPECT_ERROR(zfp(R"({"mode": "fixed_rate"})"), f32, ZARR_ERR_INVALID_METADATA, "rate");
  EXPECT_ERROR(zfp(R"({"mode": "fixed_precision"})"), f32, ZARR_ERR_INVALID_METADATA, "precision");
  EXPECT_ERROR(zfp(R"({"mode": "expert", "minbits": 1, "maxbits": 13, "maxprec": 19})"), f32,
               ZARR_ERR_INVALID_METADATA, "minexp");
  EXPECT_ERROR(zfp(R"({"mode": "fixed_accuracy", "tolerance": "0.1"})"), f32, ZARR_ERR_INVALID_METADATA, "'tolerance'");
  EXPECT_ERROR(zfp(R"({"mode": "fixed_accuracy", "tolerance": -1})"), f32, ZARR_ERR_INVALID_METADATA, "'tolerance'");
  EXPECT_ERROR(zfp(R"({"mode": "fixed_rate", "rate": 0})"), f32, ZARR_ERR_INVALID_METADATA, "'rate'");
  EXPECT_ERROR(zfp(R"({"mode": "fixed_precision", "precision": 65})"), f32, ZARR_ERR_INVALID_METADATA, "'precision'");
  EXPECT_ERROR(zfp(R"({"mode": "fixed_precision", "precision": 1.5})"), f32, ZARR_ERR_INVALID_METADATA, "'precision'");
  EXPECT_ERROR(zfp(R"({"mode": "reversible", "tolerance": 0.1})"), f32, ZARR_ERR_INVALID_METADATA, "tolerance");
  EXPECT_ERROR(zfp(R"({"mode": "expert", "minbits": 20, "maxbits": 10, "maxprec": 19, "minexp": -2})"), f32,
               ZARR_ERR_INVALID_METADATA, "minbits <= maxbits");
  EXPECT_ERROR(zfp(R"({"mode": "expert", "minbits": 1, "maxbits": 13, "maxprec": 19, "minexp": -2000})"), f32,
               ZARR_ERR_INVALID_METADATA, "'minexp'");
  EXPECT_ERROR(R"([{"name": "zfp"}])", f32, ZARR_ERR_INVALID_METADATA, "configuration");
}

TEST(Zfp, UnsupportedTypesAndRanksAreRefused) {
  const std::string codecs = zfp(R"({"mode": "reversible"})");
  EXPECT_ERROR(codecs, repr_of("bool", {4}), ZARR_ERR_INVALID_METADATA, "not the data type bool");
  EXPECT_ERROR(codecs, repr_of("complex64", {4}), ZARR_ERR_INVALID_METADATA, "complex64");
  EXPECT_ERROR(codecs, repr_of("float8_e4m3fn", {4}), ZARR_ERR_INVALID_METADATA, "float8_e4m3fn");
  EXPECT_ERROR(codecs, repr_of("float32", {2, 1, 3, 1, 2}), ZARR_ERR_UNSUPPORTED, "1 to 4 dimensions, not 5");
}

// ---- zfp: hostile streams -------------------------------------------------------

// Every truncation and a flipped byte at each position of a stored chunk, in
// each mode: ZARR_ERR_CODEC or some values, never a crash or a read past
// the stored bytes (each candidate is decoded from its own exact-size copy
// so the sanitizers see any overread).
TEST(Zfp, CorruptAndTruncatedStreamsFailCleanly) {
  const char* modes[] = {R"({"mode": "reversible"})", R"({"mode": "fixed_rate", "rate": 12})",
                         R"({"mode": "fixed_accuracy", "tolerance": 0.001})", R"({"mode": "fixed_precision", "precision": 20})",
                         R"({"mode": "expert", "minbits": 64, "maxbits": 600, "maxprec": 30, "minexp": -30})"};
  for (const char* mode : modes) {
    SCOPED_TRACE(mode);
    CodecChain c = chain(zfp(mode), repr_of("float64", {6, 7}));
    const Bytes stored = c.encode_bytes(bytes_of(smooth<double>(42)));
    size_t truncated_failures = 0;
    for (size_t len = 0; len < stored.size(); ++len) {
      std::unique_ptr<uint8_t[]> copy(new uint8_t[len ? len : 1]);
      std::memcpy(copy.get(), stored.data(), len);
      test::Caught e = test::catch_error([&] { c.decode(ByteView(copy.get(), len), "c/0"); });
      if (e.code == ZARR_ERR_CODEC) ++truncated_failures;
      else EXPECT_EQ(e.code, ZARR_OK) << e.message;
    }
    EXPECT_GT(truncated_failures, 0u);  // at least the empty and the shortest ones say so
    for (size_t at = 0; at < stored.size(); ++at) {
      Bytes bad = stored;
      bad[at] ^= 0xA5;
      test::Caught e = test::catch_error([&] { c.decode(ByteView(bad.data(), bad.size()), "c/0"); });
      EXPECT_TRUE(e.code == ZARR_OK || e.code == ZARR_ERR_CODEC) << e.message;
    }
  }
}

TEST(Zfp, TruncatedFixedRateStreamSaysSo) {
  CodecChain c = chain(zfp(R"({"mode": "fixed_rate", "rate": 16})"), repr_of("float32", {16}));
  Bytes stored = c.encode_bytes(bytes_of(smooth<float>(16)));
  ASSERT_EQ(stored.size(), 32u);
  test::Caught e = test::catch_error([&] { c.decode(ByteView(stored.data(), 20), "c/0"); });
  EXPECT_EQ(e.code, ZARR_ERR_CODEC);
  EXPECT_NE(e.message.find("codec 'zfp': stream is truncated"), std::string::npos) << e.message;
}

// ---- numcodecs' zfpy -------------------------------------------------------------

std::unique_ptr<BytesCodec> zfpy_codec(const std::string& config, const ChunkRepr& repr) {
  rapidjson::Document doc = json::parse(config, "config");
  return make_bytes_codec(doc, repr);
}

Bytes from_hex(const std::string& hex) {
  Bytes out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

std::string peer(const std::string& path) {
  const std::string dir = test::peer_data_dir();
  return dir.empty() ? "" : dir + "/" + path;
}

// numcodecs 0.11's get_config(): compression_kwargs from the mode, -1 for
// the unused parameters, members in its order.
TEST(Zfpy, ConfigurationIsWrittenAsNumcodecsDoes) {
  const ChunkRepr repr{8, 8 * 24, "<f8"};
  EXPECT_EQ(zfpy_codec(R"({"id": "zfpy", "mode": 2, "rate": 8})", repr)->config_json(),
            R"({"id":"zfpy","mode":2,"compression_kwargs":{"rate":8},"tolerance":-1,"rate":8,"precision":-1})");
  EXPECT_EQ(zfpy_codec(R"({"id": "zfpy", "tolerance": 0.01})", repr)->config_json(),
            R"({"id":"zfpy","mode":4,"compression_kwargs":{"tolerance":0.01},"tolerance":0.01,"rate":-1,"precision":-1})");
  // What numcodecs 0.16 writes (compression_kwargs included) reads back the same.
  EXPECT_EQ(zfpy_codec(R"({"id":"zfpy","mode":3,"compression_kwargs":{"precision":10},"tolerance":-1,"rate":-1,"precision":10})",
                       repr)->config_json(),
            R"({"id":"zfpy","mode":3,"compression_kwargs":{"precision":10},"tolerance":-1,"rate":-1,"precision":10})");
}

// The streams zfpy 1.0.0 (numcodecs 0.11, Debian) wrote for these values
// and parameters, hex: libzarr writes the same bytes.
TEST(Zfpy, StreamsAreByteIdenticalToNumcodecs) {
  std::vector<double> f8(24);
  for (size_t i = 0; i < 24; ++i) f8[i] = std::sin(0.3 * static_cast<double>(i)) * 100 + static_cast<double>(i);
  std::vector<int32_t> i4(24);
  for (int i = 0; i < 24; ++i) i4[static_cast<size_t>(i)] = (i - 12) * 1000;
  struct Case {
    const char* config;
    bool is_double;
    const char* hex;
  };
  const Case cases[] = {
      {R"({"id":"zfpy","mode":2,"rate":8})", true,
       "7a667005570000300000f0070d28800044084005c250c186c404ca440d485011157014420426006104605022"},
      {R"({"id":"zfpy","mode":3,"precision":10})", true,
       "7a66700557000030000090800d28800044084005c250c186c404ca441a90a0222ae02884084c00c208c0a04408"},
      {R"({"id":"zfpy","mode":4,"tolerance":0.5})", true,
       "7a66700557000030000020cb0d28800044084005c250c186c404ca444444d6a5100a540f1a90a0222ae02884084c00c208c0a044884a0802884a284c08"},
      {R"({"id":"zfpy","mode":4,"tolerance":0})", false,
       "7a667005380020001000f0ff008088e0af8707002080000490810334104005004400000003301040030244200006011000400400000000"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.config);
    ChunkRepr repr = k.is_double ? ChunkRepr{8, 8 * 24, "<f8", {4, 6}} : ChunkRepr{4, 4 * 24, "<i4", {2, 3, 4}};
    auto codec = zfpy_codec(k.config, repr);
    const Bytes data = k.is_double ? bytes_of(f8) : bytes_of(i4);
    const Bytes stored = codec->encode(ByteView(data.data(), data.size()));
    EXPECT_EQ(stored, from_hex(k.hex));
    const Bytes back = codec->decode(ByteView(stored.data(), stored.size()), data.size());
    if (!k.is_double) EXPECT_EQ(back, data);  // tolerance 0 on integers: exact
  }
}

// Mode 4 with tolerance -1 (numcodecs' default) compresses reversibly, as
// zfpy's compress_numpy does when no parameter is >= 0.
TEST(Zfpy, NegativeParameterMeansReversible) {
  const std::vector<double> v = smooth<double>(24);
  auto codec = zfpy_codec(R"({"id":"zfpy","mode":4})", ChunkRepr{8, 8 * 24, "<f8", {4, 6}});
  const Bytes stored = codec->encode(ByteView(bytes_of(v).data(), v.size() * 8));
  EXPECT_EQ(values_of<double>(codec->decode(ByteView(stored.data(), stored.size()), v.size() * 8)), v);
}

// The fixtures' chunks (zarr-python 3 and numcodecs 0.16, zfpy 1.0.1) are
// what libzarr writes for the same values, and decode within 0.01.
TEST(Zfpy, FixtureChunksAreWhatLibzarrWrites) {
  const std::string chunk = peer("zarrs-data/v3_zarr_python/array_zfpy.zarr/c/0/1");
  if (chunk.empty()) GTEST_SKIP() << "peer data not found at " << test::peer_data_expected_location();
  const Bytes stored = test::read_file(chunk);
  std::vector<float> values;  // arange(100) as [10, 10], the chunk at [0:5, 5:10]
  for (int r = 0; r < 5; ++r)
    for (int c = 5; c < 10; ++c) values.push_back(static_cast<float>(r * 10 + c));
  CodecChain c = chain(R"([{"name": "numcodecs.zfpy", "configuration": {"mode": 4, "tolerance": 0.01}}])",
                       repr_of("float32", {5, 5}));
  // zfpy 1.0.1's wheel (the fixture's writer) builds zfp with 64-bit stream
  // words and so pads the stream to 8 bytes; Debian's libzfp uses byte words
  // and stops at the last byte (as Debian's own zfpy does): the same stream.
  Bytes ours = c.encode_bytes(bytes_of(values));
  ASSERT_LE(ours.size(), stored.size());
  EXPECT_EQ(stored.size(), (ours.size() + 7) / 8 * 8);
  ours.resize(stored.size(), 0);
  EXPECT_EQ(ours, stored);
  const std::vector<float> back = values_of<float>(c.decode(ByteView(stored.data(), stored.size()), "c/0/1"));
  for (size_t i = 0; i < values.size(); ++i) EXPECT_NEAR(back[i], values[i], 0.01) << i;
  // Written back as zarr-python 3 wrote it; without a configuration, numcodecs' full form.
  EXPECT_EQ(v3_codecs_json(c), R"([{"name":"numcodecs.zfpy","configuration":{"mode":4,"tolerance":0.01}}])");
  EXPECT_EQ(v3_codecs_json(chain(R"([{"name": "numcodecs.zfpy"}])", repr_of("float32", {5, 5}))),
            R"([{"name":"numcodecs.zfpy","configuration":{"mode":4,"compression_kwargs":)"
            R"({"tolerance":-1},"tolerance":-1,"rate":-1,"precision":-1}}])");
}

TEST(Zfpy, ConfigurationErrorsNameTheField) {
  const ChunkRepr f4{4, 64, "<f4"};
  const std::pair<const char*, const char*> bad[] = {
      {R"({"id":"zfpy","mode":1})", "field 'mode'"},          {R"({"id":"zfpy","mode":"4"})", "field 'mode'"},
      {R"({"id":"zfpy","tolerance":"x"})", "'tolerance'"},    {R"({"id":"zfpy","mode":3,"precision":1.5})", "'precision'"},
      {R"({"id":"zfpy","mode":3,"precision":65})", "'precision'"}, {R"({"id":"zfpy","rate":[1]})", "'rate'"},
      {R"({"id":"zfpy","level":1})", "level"},                {R"({"id":"zfpy","compression_kwargs":3})", "compression_kwargs"},
  };
  for (const auto& item : bad) {
    const char* config = item.first;
    const char* fragment = item.second;
    test::Caught e = test::catch_error([&] { zfpy_codec(config, f4); });
    EXPECT_EQ(e.code, ZARR_ERR_INVALID_METADATA) << config;
    EXPECT_NE(e.message.find(fragment), std::string::npos) << e.message;
  }
  test::Caught e = test::catch_error([&] { zfpy_codec(R"({"id":"zfpy"})", ChunkRepr{2, 8, "<u2"}); });
  EXPECT_EQ(e.code, ZARR_ERR_INVALID_METADATA);
  EXPECT_NE(e.message.find("\"<u2\""), std::string::npos) << e.message;
  e = test::catch_error([&] { zfpy_codec(R"({"id":"zfpy"})", ChunkRepr{4, 8, ">f4"}); });
  EXPECT_EQ(e.code, ZARR_ERR_INVALID_METADATA) << e.message;
  EXPECT_ERROR(R"([{"name": "numcodecs.zfpy", "configuration": {"mode": 9}}])", repr_of("float32", {4}),
               ZARR_ERR_INVALID_METADATA, "field 'mode'");
  EXPECT_ERROR(R"([{"name": "numcodecs.zfpy"}])", repr_of("uint16", {4}), ZARR_ERR_INVALID_METADATA, "uint16");
}

// A stream whose header describes another type or another number of values
// than the array's chunk, and every truncation and flipped byte of a good
// one: ZARR_ERR_CODEC naming zfpy or some values, never a crash or overread.
TEST(Zfpy, HostileStreamsFailCleanly) {
  const std::vector<double> v = smooth<double>(24);
  auto f8 = zfpy_codec(R"({"id":"zfpy","mode":4,"tolerance":0.001})", ChunkRepr{8, 8 * 24, "<f8", {4, 6}});
  const Bytes stored = f8->encode(ByteView(bytes_of(v).data(), v.size() * 8));
  auto f4 = zfpy_codec(R"({"id":"zfpy"})", ChunkRepr{4, 4 * 48, "<f4"});
  test::Caught e = test::catch_error([&] { f4->decode(ByteView(stored.data(), stored.size()), 4 * 48); });
  EXPECT_EQ(e.code, ZARR_ERR_CODEC);
  EXPECT_NE(e.message.find("codec 'zfpy': the stream holds zfp type 4"), std::string::npos) << e.message;
  e = test::catch_error([&] { f8->decode(ByteView(stored.data(), stored.size()), 8 * 25); });
  EXPECT_EQ(e.code, ZARR_ERR_CODEC);
  EXPECT_NE(e.message.find("other than the chunk's 25 values"), std::string::npos) << e.message;
  size_t failures = 0;
  for (size_t len = 0; len < stored.size(); ++len) {
    std::unique_ptr<uint8_t[]> copy(new uint8_t[len ? len : 1]);
    std::memcpy(copy.get(), stored.data(), len);
    e = test::catch_error([&] { f8->decode(ByteView(copy.get(), len), 8 * 24); });
    if (e.code == ZARR_ERR_CODEC) ++failures;
    else EXPECT_EQ(e.code, ZARR_OK) << e.message;
  }
  EXPECT_GT(failures, 8u);  // at least every cut inside the header
  for (size_t at = 0; at < stored.size(); ++at) {
    for (uint8_t flip : {0x01, 0x80, 0xFF}) {
      Bytes bad = stored;
      bad[at] ^= flip;
      e = test::catch_error([&] { f8->decode(ByteView(bad.data(), bad.size()), 8 * 24); });
      EXPECT_TRUE(e.code == ZARR_OK || e.code == ZARR_ERR_CODEC) << e.message;
    }
  }
  e = test::catch_error([&] { f8->decode(ByteView(stored.data() + 1, stored.size() - 1), 8 * 24); });
  EXPECT_NE(e.message.find("does not start with a zfp header"), std::string::npos) << e.message;
}

// A zfpy stream whose header asks for large blocks (expert mode, minbits =
// maxbits = 4000 bits a block: the decoder skips 500 bytes a block) cut
// short, and random bytes after a good header: ZARR_ERR_CODEC, and the
// decoder never ends past its padded copy (that would be ZARR_ERR_INTERNAL).
TEST(Zfpy, HeadersAskingForLargeBlocksAreHeldToTheStoredBytes) {
  const std::vector<double> v = smooth<double>(64);
  zfp::Mode expert;
  expert.kind = zfp::Mode::Expert;
  expert.minbits = expert.maxbits = 4000;
  expert.maxprec = 64;
  expert.minexp = -1074;
  const zfp::Field field{zfp::Scalar::Double, {8, 8}};
  const Bytes stored = zfp::compress(v.data(), field, expert, true);
  ASSERT_GT(stored.size(), 4u * 500);
  std::vector<double> out(64);
  test::Caught e = test::catch_error([&] { zfp::decompress_with_header(ByteView(stored.data(), 600), zfp::Scalar::Double, 64, out.data(), "zfpy"); });
  EXPECT_EQ(e.code, ZARR_ERR_CODEC);
  EXPECT_NE(e.message.find("stream is truncated"), std::string::npos) << e.message;
  zfp::decompress_with_header(ByteView(stored.data(), stored.size()), zfp::Scalar::Double, 64, out.data(), "zfpy");
  EXPECT_EQ(out, v);  // 4000 bits a block of 16 doubles: lossless here
  // Random payloads after each good header (a few seeds): codec errors or values, nothing else.
  auto f8 = zfpy_codec(R"({"id":"zfpy","mode":4,"tolerance":0.001})", ChunkRepr{8, 8 * 64, "<f8", {8, 8}});
  const Bytes good = f8->encode(ByteView(bytes_of(v).data(), v.size() * 8));
  uint32_t seed = 12345;
  for (int round = 0; round < 200; ++round) {
    Bytes bad = good;
    bad.resize(16 + (round * 7) % 600);
    for (size_t i = 14; i < bad.size(); ++i) {
      seed = seed * 1664525u + 1013904223u;
      bad[i] = static_cast<uint8_t>(seed >> 24);
    }
    e = test::catch_error([&] { f8->decode(ByteView(bad.data(), bad.size()), 8 * 64); });
    EXPECT_TRUE(e.code == ZARR_OK || e.code == ZARR_ERR_CODEC) << e.message;
  }
}

}  // namespace
