// The registry's bitround, cast_value, scale_offset, reshape and packbits
// codecs (issue 26) through the C API: the registry's sample data opens and
// reads to the values its README gives, and each README example's metadata
// creates an array that round-trips and writes its codecs back.
// (tests/codecs/test_v3_array_codecs.cpp covers each codec's cases and errors.)
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <cstring>
#include <filesystem>
#include <limits>

#include "capi_helpers.h"
#include "support/test_support.h"
#include "support/zarr_extensions_registry.h"
#include "zarr_config.h"

using namespace zarr::test;

namespace {

std::string registry_codec_dir(const std::string& codec) {
  return registry_extension_dir(zarr::ExtensionPoint::Codec, codec);
}

// capi_helpers' v3_one_chunk_meta, by a short name: this file writes many.
std::string meta(const std::string& type, const std::string& shape, const std::string& codecs,
                 const std::string& fill = "0") {
  return v3_one_chunk_meta(type, shape, codecs, fill);
}

// The codecs list zarr.json holds now.
std::string stored_codecs(const zarr_array* a) {
  rapidjson::Document d;
  d.Parse(metadata_of(a).c_str());
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  d["codecs"].Accept(w);
  return sb.GetString();
}

}  // namespace

TEST(RegistryCodecs, BitroundSampleDataReadsAsItsReadmeSays) {
  const std::string dir = registry_codec_dir("bitround") + "/sample_data";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no registry sample data at " << dir;
  ArrayPtr f = open_array(dir + "/bitround_float32.zarr");
  const std::vector<float> got = read_all<float>(f);
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> expected{0.0f, 0.1015625f, 1.25f, 12.0f, 120.0f, 1280.0f};
  ASSERT_EQ(got.size(), 9u);
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(got[i], expected[i]) << i;
  EXPECT_TRUE(std::isnan(got[6]));
  EXPECT_EQ(got[7], inf);
  EXPECT_EQ(got[8], -inf);
  ArrayPtr u = open_array(dir + "/bitround_uint8.zarr");
  EXPECT_EQ(read_all<uint8_t>(u), (std::vector<uint8_t>{0, 1, 10, 12, 96, 128, 192, 192, 224, 224}));
}

// Writing the sample's original values with libzarr stores the sample's bytes.
TEST(RegistryCodecs, BitroundWritesTheSampleChunk) {
  const std::string dir = registry_codec_dir("bitround") + "/sample_data/bitround_uint8.zarr";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no registry sample data at " << dir;
  TempDir tmp;
  const std::string codecs = R"([{"name": "bitround", "configuration": {"keepbits": 3}}, {"name": "bytes"}])";
  ArrayPtr a = create_array(tmp / "u", meta("uint8", "[10]", codecs));
  ASSERT_OK(write_region<uint8_t>(a, {0}, {10}, {0, 1, 10, 11, 100, 123, 200, 208, 209, 255}));
  EXPECT_EQ(read_file(tmp / "u/c/0"), read_file(dir + "/c/0"));
  EXPECT_EQ(stored_codecs(a), R"([{"name":"bitround","configuration":{"keepbits":3}},{"name":"bytes"}])");
}

// The README examples of scale_offset and cast_value (with the fill values
// they need to survive the codecs), written, reopened and read back.
TEST(RegistryCodecs, ScaleOffsetAndCastValueReadmeExamplesRoundTrip) {
  TempDir tmp;
  {
    ArrayPtr a = create_array(tmp / "f32", meta("float32", "[4]",
        // The README writes a bare "bytes" here, which the core spec does not allow
        // for a multi-byte type: libzarr asks for "endian".
        R"([{"name": "scale_offset", "configuration": {"offset": 5, "scale": 0.1}},
            {"name": "bytes", "configuration": {"endian": "little"}}])"));
    ASSERT_OK(write_region<float>(a, {0}, {4}, {5.0f, 15.0f, 25.0f, -5.0f}));
    const std::vector<float> back = read_all<float>(open_array(tmp / "f32"));
    EXPECT_FLOAT_EQ(back[1], 15.0f);
    EXPECT_FLOAT_EQ(back[3], -5.0f);
  }
  {
    ArrayPtr a = create_array(tmp / "u16", meta("uint16", "[3]",
        R"([{"name": "scale_offset", "configuration": {"offset": 1000}},
            {"name": "cast_value", "configuration": {"data_type": "uint8"}}, "bytes"])", "1000"));
    ASSERT_OK(write_region<uint16_t>(a, {0}, {3}, {1000, 1100, 1255}));
    EXPECT_EQ(read_file(tmp / "u16/c/0"), (zarr::Bytes{0, 100, 255}));
    EXPECT_EQ(read_all<uint16_t>(open_array(tmp / "u16")), (std::vector<uint16_t>{1000, 1100, 1255}));
    // 1300 - 1000 = 300 is no uint8 and no out_of_range is set: the write fails, naming the codec.
    EXPECT_STATUS(write_region<uint16_t>(a, {0}, {1}, {1300}), ZARR_ERR_CODEC, "cast_value");
  }
  {
    ArrayPtr a = create_array(tmp / "f64", meta("float64", "[2, 2]",
        R"([{"name": "scale_offset", "configuration": {"offset": -10, "scale": 0.1}},
            {"name": "cast_value", "configuration": {"data_type": "uint8", "rounding": "nearest-even",
             "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}}}, "bytes"])", "\"NaN\""));
    ASSERT_OK(write_region<double>(a, {0, 0}, {1, 2}, {0.0, 2540.0}));  // the other row stays the fill value
    const std::vector<double> back = read_all<double>(open_array(tmp / "f64"));
    EXPECT_EQ(back[0], 0.0);
    EXPECT_EQ(back[1], 2540.0);
    EXPECT_TRUE(std::isnan(back[2]) && std::isnan(back[3]));
    EXPECT_EQ(read_file(tmp / "f64/c/0/0"), (zarr::Bytes{1, 255, 0, 0}));
  }
  {  // cast_value's NumPy-compatibility example
    ArrayPtr a = create_array(tmp / "np", meta("float64", "[4]",
        R"([{"name": "cast_value", "configuration": {"data_type": "uint8", "rounding": "towards-zero",
             "out_of_range": "wrap", "scalar_map": {"encode": [["NaN", 0], ["+Infinity", 0], ["-Infinity", 0]]}}},
            "bytes"])"));
    ASSERT_OK(write_region<double>(a, {0}, {4}, {std::nan(""), 300.7, -1.5, 2.9}));
    EXPECT_EQ(read_all<double>(open_array(tmp / "np")), (std::vector<double>{0, 44, 255, 2}));
  }
}

TEST(RegistryCodecs, ReshapeAndPackbitsRoundTrip) {
  TempDir tmp;
  ArrayPtr r = create_array(tmp / "r", meta("int16", "[4, 6]",
      R"([{"name": "reshape", "configuration": {"shape": [[0, 1]]}}, {"name": "bytes", "configuration": {"endian": "little"}}])"));
  std::vector<int16_t> values(24);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int16_t>(i * 7 - 50);
  EXPECT_EQ(write_then_read_all<int16_t>(r, {0, 0}, {4, 6}, values), values);
  EXPECT_EQ(stored_codecs(r), R"([{"name":"reshape","configuration":{"shape":[[0,1]]}},)"
                              R"({"name":"bytes","configuration":{"endian":"little"}}])");
  ArrayPtr p = create_array(tmp / "p", meta("uint4", "[5]", R"([{"name": "packbits", "configuration": {"padding_encoding": "first_byte"}}])"));
  ASSERT_OK(write_region<uint8_t>(p, {0}, {5}, {1, 2, 3, 4, 15}));
  EXPECT_EQ(read_file(tmp / "p/c/0"), (zarr::Bytes{4, 0x21, 0x43, 0x0f}));
  EXPECT_EQ(read_all<uint8_t>(open_array(tmp / "p")), (std::vector<uint8_t>{1, 2, 3, 4, 15}));
  // A fill value cast_value cannot carry there and back refuses the array, naming the field.
  zarr_array* bad = nullptr;
  EXPECT_STATUS(zarr_create(&bad, (tmp / "bad").c_str(),
                            meta("float32", "[2]", R"([{"name": "cast_value", "configuration": {"data_type": "int8"}}, "bytes"])", "0.5").c_str()),
                ZARR_ERR_INVALID_METADATA, "the fill value 0.5 does not survive the cast to int8");
  zarr_close(bad);
}

#if ZARR_HAVE_ZFP
// The three zfpy fixtures (zarr-python 3 with numcodecs 0.16: v2, v3 under
// zarrs' folder with v2 chunk keys, v3 of zarr-python): float32 [10, 10]
// arange(100), each value within 0.01 (mode 4, tolerance 0.01), attributes
// {"key": "value"}.
TEST(RegistryCodecs, ZfpyFixturesReadWithinTheirTolerance) {
  const std::string dir = peer_data_dir();
  if (dir.empty()) GTEST_SKIP() << "peer data not found at " << peer_data_expected_location();
  for (const char* path : {"zarrs-data/v2/array_zfpy_C.zarr", "zarrs-data/v3/array_zfpy.zarr",
                           "zarrs-data/v3_zarr_python/array_zfpy.zarr"}) {
    SCOPED_TRACE(path);
    ArrayPtr a = open_array(dir + "/" + path);
    const std::vector<float> got = read_all<float>(a);
    ASSERT_EQ(got.size(), 100u);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], static_cast<float>(i), 0.01) << i;
    EXPECT_EQ(attributes_of(a), R"({"key":"value"})");
    // A region across the four chunks reads as the same slice.
    const std::vector<float> part = read_region<float>(a, {3, 3}, {4, 4});
    for (size_t r = 0; r < 4; ++r)
      for (size_t c = 0; c < 4; ++c) EXPECT_EQ(part[r * 4 + c], got[(r + 3) * 10 + c + 3]);
  }
}

// Each README example of zfp, as the codec of a float64 array: created,
// written, reopened and read back (near the values but for the expert
// example's 13 bits a block), the codec written back as given.
TEST(RegistryCodecs, ZfpReadmeExamplesRoundTrip) {
  const std::string dir = registry_codec_dir("zfp") + "/examples";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no registry examples at " << dir;
  TempDir tmp;
  std::vector<double> values(60);
  for (size_t i = 0; i < values.size(); ++i) values[i] = std::sin(0.2 * static_cast<double>(i)) * 10;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().stem().string();
    SCOPED_TRACE(name);
    rapidjson::Document example;
    example.Parse(std::string(reinterpret_cast<const char*>(read_file(entry.path().string()).data()),
                              read_file(entry.path().string()).size()).c_str());
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w(sb);
    example.Accept(w);
    const std::string codec = sb.GetString();
    ArrayPtr a = create_array(tmp / name, meta("float64", "[6, 10]", "[" + codec + "]"));
    ASSERT_OK(write_region<double>(a, {0, 0}, {6, 10}, values));
    const std::vector<double> back = read_all<double>(open_array(tmp / name));
    ASSERT_EQ(back.size(), values.size());
    // The expert example keeps 13 bits a block of 16 values: no value survives
    // that, so only the others are held to a bound.
    if (name != "expert") {
      for (size_t i = 0; i < values.size(); ++i) EXPECT_NEAR(back[i], values[i], 0.5) << i;
    }
    EXPECT_EQ(stored_codecs(a), "[" + codec + "]");
  }
}

// A v2 array with the zfpy compressor: written by libzarr, the .zarray holds
// numcodecs' configuration, and reads back exactly in reversible mode.
TEST(RegistryCodecs, ZfpyV2ArrayRoundTrips) {
  TempDir tmp;
  ArrayPtr a = create_array(tmp / "z", array_meta("[6, 7]", "[4, 4]", "<i4",
                                                  {{"compressor", R"({"id": "zfpy", "mode": 4, "tolerance": -1})"}}));
  std::vector<int32_t> values(42);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i * i) - 300;
  EXPECT_EQ(write_then_read_all<int32_t>(a, {0, 0}, {6, 7}, values), values);
  EXPECT_EQ(read_all<int32_t>(open_array(tmp / "z")), values);
  const std::string zarray(reinterpret_cast<const char*>(read_file(tmp / "z/.zarray").data()),
                           read_file(tmp / "z/.zarray").size());
  EXPECT_NE(zarray.find(R"("id": "zfpy")"), std::string::npos) << zarray;
  EXPECT_NE(zarray.find(R"("compression_kwargs")"), std::string::npos) << zarray;
}
#endif

// n5_default: the README's example array opens (no chunk written: all fill);
// its metadata creates an array whose chunks are N5 blocks and whose
// zarr.json keeps the codec; a truncated edge block, as N5's Java library
// writes it, reads padded with the fill value.
TEST(RegistryCodecs, N5DefaultReadmeExampleOpensAndRoundTrips) {
  const std::string example = registry_codec_dir("n5_default") + "/examples/zstd_array";
  if (!std::filesystem::is_directory(example)) GTEST_SKIP() << "no registry example at " << example;
  if (!ZARR_HAVE_ZSTD) GTEST_SKIP() << "libzarr built without zstd";
  ArrayPtr e = open_array(example);
  const std::vector<float> zeros = read_all<float>(e);
  ASSERT_EQ(zeros.size(), 256u * 128u);
  EXPECT_EQ(std::count(zeros.begin(), zeros.end(), 0.0f), 256 * 128);

  TempDir tmp;
  const std::string text = zarr::ByteView(read_file(example + "/zarr.json")).to_string();
  ArrayPtr a = create_array(tmp / "n5", text);
  std::vector<float> values(256 * 128);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  EXPECT_EQ(write_then_read_all<float>(a, {0, 0}, {256, 128}, values), values);
  EXPECT_EQ(read_all<float>(open_array(tmp / "n5")), values);
  const zarr::Bytes block = read_file(tmp / "n5/0/0");
  EXPECT_EQ(zarr::Bytes(block.begin(), block.begin() + 12), (zarr::Bytes{0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 128}));
  EXPECT_EQ(stored_codecs(a), R"([{"name":"n5_default","configuration":{"codecs":[)"
                              R"({"name":"transpose","configuration":{"order":[1,0]}},)"
                              R"({"name":"bytes","configuration":{"endian":"big"}},)"
                              R"({"name":"zstd","configuration":{"level":0,"checksum":false}}]}}])");
}

TEST(RegistryCodecs, N5DefaultTruncatedEdgeBlock) {
  TempDir tmp;
  const std::string codecs = R"([{"name": "n5_default", "configuration": {"codecs": [
      {"name": "transpose", "configuration": {"order": [1, 0]}}, {"name": "bytes", "configuration": {"endian": "big"}}]}}])";
  std::string m = meta("uint16", "[3, 3]", codecs, "7");
  m.replace(m.find("\"chunk_shape\": [3, 3]"), 21, "\"chunk_shape\": [2, 2]");
  ArrayPtr a = create_array(tmp / "t", m);
  // chunk (1, 1) holds element (2, 2) only: a [1, 1] block, value 0x0102
  std::filesystem::create_directories(tmp / "t/c/1");
  std::filesystem::create_directories(tmp / "t/c/0");
  write_file(tmp / "t/c/1/1", zarr::Bytes{0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2});
  EXPECT_EQ(read_all<uint16_t>(open_array(tmp / "t")), (std::vector<uint16_t>{7, 7, 7, 7, 7, 7, 7, 7, 0x0102}));
  // a block wider than the chunk is a codec error naming the chunk
  write_file(tmp / "t/c/0/0", zarr::Bytes{0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6});
  std::vector<uint16_t> out(9);
  EXPECT_STATUS(zarr_read_region(open_array(tmp / "t"), 2, std::vector<uint64_t>{0, 0}.data(),
                                 std::vector<uint64_t>{3, 3}.data(), out.data(), out.size() * 2),
                ZARR_ERR_CODEC, "exceeds the chunk shape");
}

// conditional: the README's example (its "shuffle" as numcodecs.shuffle: the
// registry has no "shuffle") creates an array; a compressible chunk is stored
// zstd-compressed (header bit 1), noise raw (header 0); both read back.
TEST(RegistryCodecs, ConditionalReadmeExampleRoundTrips) {
  if (!ZARR_HAVE_ZSTD) GTEST_SKIP() << "libzarr built without zstd";
  TempDir tmp;
  std::string m = meta("float32", "[2, 1000]", R"([{"name": "bytes", "configuration": {"endian": "little"}},
      {"name": "conditional", "configuration": {"codecs": [
          {"name": "numcodecs.shuffle", "configuration": {"elementsize": 4}},
          {"name": "zstd", "configuration": {"level": 5}}]}}])");
  m.replace(m.find("\"chunk_shape\": [2, 1000]"), 24, "\"chunk_shape\": [1, 1000]");
  ArrayPtr a = create_array(tmp / "c", m);
  std::vector<float> values(2000);
  uint32_t x = 12345;
  for (size_t i = 0; i < 1000; ++i) values[i] = static_cast<float>(i % 10);
  for (size_t i = 1000; i < 2000; ++i) {
    x = x * 1664525u + 1013904223u;
    std::memcpy(&values[i], &x, 4);
    if (std::isnan(values[i])) values[i] = 0.5f;
  }
  EXPECT_EQ(write_then_read_all<float>(a, {0, 0}, {2, 1000}, values), values);
  const zarr::Bytes compressed = read_file(tmp / "c/c/0/0"), raw = read_file(tmp / "c/c/1/0");
  EXPECT_EQ(compressed[0], 0x02);
  EXPECT_LT(compressed.size(), 1000u);
  EXPECT_EQ(raw[0], 0x00);
  EXPECT_EQ(raw.size(), 4001u);
  EXPECT_EQ(read_all<float>(open_array(tmp / "c")), values);
  EXPECT_EQ(stored_codecs(a), R"([{"name":"bytes","configuration":{"endian":"little"}},)"
                              R"({"name":"conditional","configuration":{"codecs":[)"
                              R"({"name":"numcodecs.shuffle","configuration":{"elementsize":4}},)"
                              R"({"name":"zstd","configuration":{"level":5,"checksum":false}}]}}])");
}

// pcodec: libzarr does not implement the pco format; the fixtures written by
// zarrs and zarr-python (v2 "pcodec", v3 "numcodecs.pcodec") are refused by
// name, saying so, instead of being taken for an unknown codec.
TEST(RegistryCodecs, PcodecFixturesAreRefusedByName) {
  const std::string peer = peer_data_dir();
  if (peer.empty()) GTEST_SKIP() << "no peer data: expected " << peer_data_expected_location();
  for (const char* fixture : {"zarrs-data/v2/array_pcodec_C.zarr", "zarrs-data/v3/array_pcodec.zarr",
                              "zarrs-data/v3_zarr_python/array_pcodec.zarr"}) {
    SCOPED_TRACE(fixture);
    zarr_array* a = nullptr;
    EXPECT_STATUS(zarr_open(&a, (peer + "/" + fixture).c_str(), "r"), ZARR_ERR_UNSUPPORTED,
                  "pcodec (numcodecs.pcodec, the pco format) is not implemented in libzarr");
    zarr_close(a);
  }
  zarr_codec* c = nullptr;
  EXPECT_STATUS(zarr_codec_create(&c, R"({"id": "pcodec", "level": 8})"), ZARR_ERR_UNSUPPORTED,
                "unsupported codec 'pcodec'; pcodec");
  zarr_codec_free(c);
}

// ---- the registry's JSON schemas over what libzarr writes ---------------------------------

namespace {

struct Written {
  const char* name;  // folder of the array
  std::string metadata;
};

std::string le(const char* codec = nullptr) {
  std::string out = R"([{"name": "bytes", "configuration": {"endian": "little"}})";
  return out + (codec ? std::string(", ") + codec : "") + "]";
}

// An array of every registry extension libzarr writes: each codec (nested
// ones too), each data type with a schema, both chunk key encodings and the
// rectilinear chunk grid.
std::vector<Written> arrays_using_every_extension() {
  std::vector<Written> out = {
      {"bytes", meta("int16", "[4]", le())},
      {"transpose", meta("int16", "[2, 2]", R"([{"name": "transpose", "configuration": {"order": [1, 0]}},
          {"name": "bytes", "configuration": {"endian": "big"}}])")},
      {"crc32c", meta("int16", "[4]", le(R"({"name": "crc32c"})"))},
      {"sharding", meta("int16", "[4]", R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2]}}])")},
      {"bitround", meta("float32", "[4]", R"([{"name": "bitround", "configuration": {"keepbits": 3}},
          {"name": "bytes", "configuration": {"endian": "little"}}])")},
      {"cast_value", meta("float32", "[4]", R"([{"name": "cast_value", "configuration": {"data_type": "uint8",
          "rounding": "towards-zero", "out_of_range": "clamp"}}, "bytes"])")},
      {"scale_offset", meta("float32", "[4]", R"([{"name": "scale_offset", "configuration": {"offset": 5, "scale": 0.5}},
          {"name": "bytes", "configuration": {"endian": "little"}}])")},
      {"reshape", meta("int16", "[2, 2]", R"([{"name": "reshape", "configuration": {"shape": [[0, 1]]}},
          {"name": "bytes", "configuration": {"endian": "little"}}])")},
      // the schema's spelling (the README's "first_byte" is written back as given, and the schema refuses it)
      {"packbits", meta("uint4", "[5]", R"([{"name": "packbits", "configuration": {"padding_encoding": "start_byte"}}])")},
      {"n5_default", meta("int16", "[2, 2]", R"([{"name": "n5_default", "configuration": {"codecs": [
          {"name": "transpose", "configuration": {"order": [1, 0]}}, {"name": "bytes", "configuration": {"endian": "big"}}]}}])")},
      {"conditional", meta("int16", "[4]", le(R"({"name": "conditional", "configuration": {"codecs": [{"name": "crc32c"}]}})"))},
      {"vlen-utf8", meta("string", "[4]", R"([{"name": "vlen-utf8"}])", "\"\"")},
      {"vlen-bytes", meta("bytes", "[4]", R"([{"name": "vlen-bytes"}])", "\"\"")},
  };
#if ZARR_HAVE_ZSTD
  out.push_back({"zstd", meta("int16", "[4]", le(R"({"name": "zstd", "configuration": {"level": 1}})"))});
#endif
#if ZARR_HAVE_ZLIB
  out.push_back({"gzip", meta("int16", "[4]", le(R"({"name": "gzip", "configuration": {"level": 1}})"))});
#endif
#if ZARR_HAVE_ZFP
  // each of zfp's five modes (the schema's oneOf has a branch per mode)
  for (const auto& [name, configuration] : std::vector<std::pair<const char*, const char*>>{
           {"zfp_reversible", R"({"mode": "reversible"})"},
           {"zfp_expert", R"({"mode": "expert", "minbits": 1, "maxbits": 13, "maxprec": 19, "minexp": -2})"},
           {"zfp_fixed_accuracy", R"({"mode": "fixed_accuracy", "tolerance": 0.05})"},
           {"zfp_fixed_rate", R"({"mode": "fixed_rate", "rate": 10.5})"},
           {"zfp_fixed_precision", R"({"mode": "fixed_precision", "precision": 19})"}}) {
    out.push_back({name, meta("float64", "[4, 4]", std::string(R"([{"name": "zfp", "configuration": )") + configuration + "}]")});
  }
#endif
#if ZARR_HAVE_BLOSC
  out.push_back({"blosc", meta("int16", "[4]", le(R"({"name": "blosc", "configuration": {"cname": "lz4", "clevel": 1,
      "shuffle": "shuffle", "typesize": 2, "blocksize": 0}})"))});
#endif
  std::string v2_keys = meta("int16", "[4]", le());
  v2_keys.replace(v2_keys.find(R"({"name": "default"})"), 19, R"({"name": "v2", "configuration": {"separator": "/"}})");
  out.push_back({"v2_keys", v2_keys});
  std::string rectilinear = meta("int16", "[5]", le());
  rectilinear.replace(rectilinear.find(R"({"name": "regular", "configuration": {"chunk_shape": [5]}})"), 58,
                      R"({"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": [[2, [1, 3]]]}})");
  out.push_back({"rectilinear", rectilinear});
  for (const char* t : {"bfloat16", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4", "float8_e4m3",
                        "float8_e4m3b11fnuz", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "int2", "int4",
                        "uint2", "uint4"}) {
    const bool big = std::string(t) == "bfloat16";
    out.push_back({t, meta(t, "[4]", big ? le() : R"([{"name": "bytes"}])")});
  }
  out.push_back({"float8_e8m0fnu", meta("float8_e8m0fnu", "[4]", R"([{"name": "bytes"}])", "1.0")});
  for (const char* t : {"complex_bfloat16", "complex_float16", "complex_float32", "complex_float64"}) {
    out.push_back({t, meta(t, "[4]", le(), "[0, 0]")});
  }
  for (const char* t : {"complex_float4_e2m1fn", "complex_float6_e2m3fn", "complex_float6_e3m2fn", "complex_float8_e3m4",
                        "complex_float8_e4m3", "complex_float8_e4m3b11fnuz", "complex_float8_e4m3fnuz",
                        "complex_float8_e5m2", "complex_float8_e5m2fnuz"}) {
    out.push_back({t, meta(t, "[4]", R"([{"name": "bytes"}])", "[0, 0]")});
  }
  // data types with a configuration: data_type is an object
  auto with_type = [&](const char* name, const std::string& type, const std::string& fill) {
    std::string m = meta("TYPE", "[4]", le(), fill);
    m.replace(m.find("\"TYPE\""), 6, type);
    out.push_back({name, m});
  };
  with_type("datetime64", R"({"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}})", "\"NaT\"");
  with_type("timedelta64", R"({"name": "numpy.timedelta64", "configuration": {"unit": "ms", "scale_factor": 10}})", "0");
  with_type("fixed_length_utf32", R"({"name": "fixed_length_utf32", "configuration": {"length_bytes": 8}})", "\"\"");
  // struct: the README's example type, and one nesting a struct and a configured type
  with_type("struct", R"({"name": "struct", "configuration": {"fields": [
      {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}})", R"({"x": 0.0, "y": 0.0})");
  with_type("struct_nested", R"({"name": "struct", "configuration": {"fields": [
      {"name": "point", "data_type": {"name": "struct", "configuration": {"fields": [
          {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}}},
      {"name": "timestamp", "data_type": {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}}},
      {"name": "flags", "data_type": "uint8"}]}})",
            R"({"point": {"x": 1.0, "y": 2.0}, "timestamp": "NaT", "flags": 0})");
  out.push_back({"complex_float8_e8m0fnu", meta("complex_float8_e8m0fnu", "[4]", R"([{"name": "bytes"}])", "[1.0, 1.0]")});
  return out;
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting_with(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    if (text.compare(at, prefix.size(), prefix) == 0) lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

}  // namespace

TEST(RegistrySchemas, WhatLibzarrWritesValidates) {
  const std::string registry = zarr_extensions_registry_dir();
  if (!zarr_extensions_registry_present()) GTEST_SKIP() << "no zarr-extensions registry at " << registry;
  TempDir tmp;
  std::vector<std::string> refused;
  for (const Written& w : arrays_using_every_extension()) {
    SCOPED_TRACE(w.name);
    zarr_array* a = nullptr;
    const int status = zarr_create(&a, (tmp / w.name).c_str(), w.metadata.c_str());
    if (status == ZARR_ERR_UNSUPPORTED) refused.push_back(std::string(w.name) + ": " + zarr_last_error());
    EXPECT_EQ(status, ZARR_OK) << zarr_last_error();
    zarr_close(a);
  }
  const std::string script = std::string(ZARR_SOURCE_ROOT) + "/tests/capi/registry_schema_check.py";
  const std::string log = tmp / "schema-check.txt";
  const int rc = std::system(("/usr/bin/python3 " + script + " " + registry + " " + tmp.path() + " > " + log + " 2>&1").c_str());
  const std::string out = zarr::ByteView(read_file(log)).to_string();
  if (WIFEXITED(rc) && WEXITSTATUS(rc) == 2) GTEST_SKIP() << out;
  EXPECT_EQ(rc, 0) << out;
  size_t ok = 0;
  for (size_t at = out.find("ok "); at != std::string::npos; at = out.find("\nok ", at + 1)) ++ok;
  EXPECT_GT(ok, 40u) << out;
  EXPECT_EQ(out.find("\nfail"), std::string::npos) << out;
  std::cout << "[ schemas ] " << ok << " entries valid against the registry's schemas\n";
  for (const std::string& line : lines_starting_with(out, "schema-")) std::cout << "[ schemas ] " << line << "\n";
  // Every name libzarr writes for these arrays is the registry's (the "bytes" type was
  // written as zarr-python 3's "variable_length_bytes" until libzarr kept the spelling it
  // was given, so the registry's bytes schema checked nothing).
  EXPECT_EQ(lines_starting_with(out, "unregistered "), std::vector<std::string>{});
}
