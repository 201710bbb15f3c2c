// The zarr-extensions registry's array->array codecs (issue 26): bitround,
// cast_value, scale_offset, reshape, and the array->bytes codec packbits;
// each codec's README examples, edge cases and errors, at the chain level
// (tests/capi/test_v3_registry_codecs.cpp opens and writes whole arrays).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "base/error.h"
#include "base/json.h"
#include "codecs/v3_chain.h"

using namespace zarr;

namespace {

// Any v3 data_type name (from_v3_name knows only the core ones).
ArrayRepr repr_of(const char* v3_type, std::vector<uint64_t> shape) {
  rapidjson::Document name = json::parse(json::quote(v3_type), "data_type");
  DataType t = DataType::parse_v3(name, "data_type");
  return ArrayRepr{std::move(shape), t, Bytes(t.item_size(), 0)};
}

CodecChain chain(const std::string& codecs, const ArrayRepr& decoded) {
  rapidjson::Document doc = json::parse(codecs, "codecs");
  return make_v3_codec_chain(doc, decoded, "zarr.json: field 'codecs'");
}

// The error building the chain gives: code and message.
std::pair<int, std::string> error_of(const std::string& codecs, const ArrayRepr& decoded) {
  try {
    chain(codecs, decoded);
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {ZARR_OK, ""};
}

#define EXPECT_ERROR(codecs, decoded, code, fragment)                                  \
  do {                                                                                 \
    auto e_ = error_of(codecs, decoded);                                               \
    EXPECT_EQ(e_.first, code) << e_.second;                                            \
    EXPECT_NE(e_.second.find(fragment), std::string::npos) << e_.second;               \
  } while (0)

template <typename T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T>
std::vector<T> values_of(const Bytes& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
  return v;
}

const char* kBytes = R"({"name": "bytes", "configuration": {"endian": "little"}})";

std::string with_bytes(const std::string& codec) { return "[" + codec + "," + kBytes + "]"; }

}  // namespace

// ---- bitround ---------------------------------------------------------------------------

// The registry's sample data (sample_data/README.md): float32 and uint8, keepbits 3.
TEST(BitRound, RegistrySampleFloat32) {
  CodecChain c = chain(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 3}})"), repr_of("float32", {9}));
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> in{0.0f, 0.1f, 1.2f, 12.3f, 123.4f, 1234.5f, std::nanf(""), inf, -inf};
  std::vector<float> out = values_of<float>(c.encode_bytes(bytes_of(in)));
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 0.1015625f);
  EXPECT_EQ(out[2], 1.25f);
  EXPECT_EQ(out[3], 12.0f);
  EXPECT_EQ(out[4], 120.0f);
  EXPECT_EQ(out[5], 1280.0f);
  EXPECT_TRUE(std::isnan(out[6]));
  EXPECT_EQ(out[7], inf);
  EXPECT_EQ(out[8], -inf);
}

TEST(BitRound, RegistrySampleUint8) {
  CodecChain c = chain(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 3}})"), repr_of("uint8", {10}));
  Bytes in{0, 1, 10, 11, 100, 123, 200, 208, 209, 255};
  EXPECT_EQ(c.encode_bytes(in), (Bytes{0, 1, 10, 12, 96, 128, 192, 192, 224, 224}));
  EXPECT_EQ(c.decode(c.encode_bytes(in), "k"), (Bytes{0, 1, 10, 12, 96, 128, 192, 192, 224, 224}));
  EXPECT_EQ(v3_codecs_json(c), R"([{"name":"bitround","configuration":{"keepbits":3}},)"
                               R"({"name":"bytes","configuration":{"endian":"little"}}])");
}

// Signed integers round their magnitude and saturate at the type's extremes.
TEST(BitRound, SignedIntegersRoundTheirMagnitude) {
  CodecChain c = chain(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 2}})"), repr_of("int16", {6}));
  std::vector<int16_t> in{11, -11, 32767, -32768, -32767, 0};
  EXPECT_EQ(values_of<int16_t>(c.encode_bytes(bytes_of(in))),
            (std::vector<int16_t>{12, -12, 24576, -32768, -32768, 0}));
}

TEST(BitRound, NumcodecsAliasIsTheSameCodecAndKeepsItsName) {
  const std::string codec = R"({"name": "numcodecs.bitround", "configuration": {"keepbits": 3}})";
  CodecChain c = chain(with_bytes(codec), repr_of("uint8", {2}));
  EXPECT_EQ(c.encode_bytes(Bytes{123, 255}), (Bytes{128, 224}));
  EXPECT_NE(v3_codecs_json(c).find("\"numcodecs.bitround\""), std::string::npos);
}

TEST(BitRound, Bfloat16AndComplexRoundEachFloat) {
  CodecChain b = chain(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 1}})"), repr_of("bfloat16", {1}));
  // 1.75 (0x3fe0: mantissa 1100000) keeps one bit: 2.0 (0x4000).
  EXPECT_EQ(values_of<uint16_t>(b.encode_bytes(bytes_of(std::vector<uint16_t>{0x3fe0}))), std::vector<uint16_t>{0x4000});
  CodecChain c = chain(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 3}})"), repr_of("complex64", {1}));
  EXPECT_EQ(values_of<float>(c.encode_bytes(bytes_of(std::vector<float>{1.2f, 123.4f}))),
            (std::vector<float>{1.25f, 120.0f}));
}

TEST(BitRound, ErrorsNameTheField) {
  EXPECT_ERROR(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 0}})"), repr_of("float32", {1}),
               ZARR_ERR_INVALID_METADATA, "field 'keepbits' must be an integer 1..23");
  EXPECT_ERROR(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 9}})"), repr_of("uint8", {1}),
               ZARR_ERR_INVALID_METADATA, "field 'keepbits' must be an integer 1..8");
  EXPECT_ERROR(with_bytes(R"({"name": "bitround", "configuration": {}})"), repr_of("float32", {1}),
               ZARR_ERR_INVALID_METADATA, "keepbits");
  EXPECT_ERROR(with_bytes(R"({"name": "bitround"})"), repr_of("float32", {1}), ZARR_ERR_INVALID_METADATA,
               "'configuration' is required");
  EXPECT_ERROR(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 3, "x": 1}})"),
               repr_of("float32", {1}), ZARR_ERR_INVALID_METADATA, "unknown configuration member \"x\"");
  EXPECT_ERROR(with_bytes(R"({"name": "bitround", "configuration": {"keepbits": 3}})"), repr_of("bool", {1}),
               ZARR_ERR_INVALID_METADATA, "not the data type bool");
}

// ---- reshape ----------------------------------------------------------------------------

// The README's example (its JSON lacks a comma after "bytes" and lists zstd
// before bytes, which the order of codecs forbids: here with both fixed).
TEST(Reshape, ReadmeExampleGivesTheFlattenedShape) {
  ArrayRepr r = repr_of("uint8", {100, 50, 64, 3});
  const std::string reshape = R"({"name": "reshape", "configuration": {"shape": [[0, 1], [2], 3]}})";
  CodecChain c = chain("[" + reshape + "," + kBytes + R"(, {"name": "zstd", "configuration": {"level": 1, "checksum": true}}])", r);
  ASSERT_EQ(c.array_to_array().size(), 1u);
  EXPECT_EQ(c.array_to_array()[0]->encoded_repr(r).shape, (std::vector<uint64_t>{5000, 64, 3}));
  Bytes data(r.byte_size());
  std::iota(data.begin(), data.end(), uint8_t{0});
  EXPECT_EQ(c.decode(c.encode_bytes(data), "k"), data);
  EXPECT_NE(v3_codecs_json(c).find(R"({"name":"reshape","configuration":{"shape":[[0,1],[2],3]}})"), std::string::npos);
  // As printed (zstd before bytes) the order is refused, naming zstd.
  EXPECT_ERROR("[" + reshape + R"(, {"name": "zstd", "configuration": {"level": 1, "checksum": true}},)" + kBytes + "]",
               r, ZARR_ERR_INVALID_METADATA, "bytes->bytes codec 'zstd' must follow an array->bytes codec");
}

TEST(Reshape, MinusOneAndEmptyListsAndTranspose) {
  ArrayRepr r = repr_of("int16", {4, 6});
  auto shape_of = [&](const std::string& shape) {
    CodecChain c = chain(with_bytes(R"({"name": "reshape", "configuration": {"shape": )" + shape + "}}"), r);
    return c.array_to_array()[0]->encoded_repr(r).shape;
  };
  EXPECT_EQ(shape_of("[-1]"), (std::vector<uint64_t>{24}));
  EXPECT_EQ(shape_of("[2, -1, 3]"), (std::vector<uint64_t>{2, 4, 3}));
  EXPECT_EQ(shape_of("[[], [0], [1]]"), (std::vector<uint64_t>{1, 4, 6}));
  EXPECT_EQ(shape_of("[[0, 1], 1]"), (std::vector<uint64_t>{24, 1}));
  // Then transpose: the elements move as for a (6, 4) array.
  CodecChain c = chain(R"([{"name": "reshape", "configuration": {"shape": [3, 8]}},
                           {"name": "transpose", "configuration": {"order": [1, 0]}},)" + std::string(kBytes) + "]", r);
  std::vector<int16_t> in(24);
  std::iota(in.begin(), in.end(), int16_t{0});
  std::vector<int16_t> stored = values_of<int16_t>(c.encode_bytes(bytes_of(in)));
  EXPECT_EQ(stored[0], 0);
  EXPECT_EQ(stored[1], 8);
  EXPECT_EQ(stored[3], 1);
  EXPECT_EQ(c.decode(bytes_of(stored), "k"), bytes_of(in));
}

TEST(Reshape, ErrorsNameTheField) {
  ArrayRepr r = repr_of("int16", {4, 6});
  auto reshape = [](const std::string& config) { return with_bytes(R"({"name": "reshape", "configuration": )" + config + "}"); };
  EXPECT_ERROR(reshape(R"({"shape": [5, 5]})"), r, ZARR_ERR_INVALID_METADATA, "field 'shape' gives 25 elements, the chunk has 24");
  EXPECT_ERROR(reshape(R"({"shape": [-1, -1]})"), r, ZARR_ERR_INVALID_METADATA, "-1 may occur only once");
  EXPECT_ERROR(reshape(R"({"shape": [5, -1]})"), r, ZARR_ERR_INVALID_METADATA, "no size for -1");
  EXPECT_ERROR(reshape(R"({"shape": [[1], [0]]})"), r, ZARR_ERR_INVALID_METADATA, "must increase strictly");
  EXPECT_ERROR(reshape(R"({"shape": [[1, 0]]})"), r, ZARR_ERR_INVALID_METADATA, "must increase strictly");
  EXPECT_ERROR(reshape(R"({"shape": [[2]]})"), r, ZARR_ERR_INVALID_METADATA, "input dimension 2 of a 2-dimensional chunk");
  EXPECT_ERROR(reshape(R"({"shape": [0, 24]})"), r, ZARR_ERR_INVALID_METADATA, "field 'shape' item 0 must be a positive integer");
  EXPECT_ERROR(reshape(R"({"shape": [-2]})"), r, ZARR_ERR_INVALID_METADATA, "field 'shape' item 0 must be");
  EXPECT_ERROR(reshape(R"({"shape": 24})"), r, ZARR_ERR_INVALID_METADATA, "field 'shape' must be a list");
  EXPECT_ERROR(reshape(R"({})"), r, ZARR_ERR_INVALID_METADATA, "shape");
  EXPECT_ERROR(reshape(R"({"shape": [24], "order": "C"})"), r, ZARR_ERR_INVALID_METADATA, "unknown configuration member \"order\"");
  // [2, [1]]: 2 output elements before dimension 1's, the input has 4 there.
  EXPECT_ERROR(reshape(R"({"shape": [2, [1], 2]})"), r, ZARR_ERR_INVALID_METADATA, "item 1: the dimensions before and after");
}
