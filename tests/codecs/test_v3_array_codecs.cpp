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
#include "v3_chain_helpers.h"

using namespace zarr;
using zarr::test::bytes_of;
using zarr::test::chain;
using zarr::test::error_of;
using zarr::test::repr_of;
using zarr::test::values_of;

namespace {

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

// ---- cast_value -------------------------------------------------------------------------

namespace {

std::string cast_to(const std::string& type, const std::string& more = "") {
  return with_bytes(R"({"name": "cast_value", "configuration": {"data_type": ")" + type + "\"" + more + "}}");
}

// Each value cast from float64 into `type` (one byte wide or int16) under `more`.
template <typename T>
std::vector<T> cast_doubles(const std::string& type, const std::string& more, const std::vector<double>& in,
                            double fill = 0) {
  ArrayRepr r = repr_of("float64", {in.size()});
  std::memcpy(r.fill_item.data(), &fill, sizeof fill);
  CodecChain c = chain(cast_to(type, more), r);
  return values_of<T>(c.encode_bytes(bytes_of(in)));
}

int cast_error_code(const std::string& type, const std::string& more, double v, std::string* message = nullptr,
                    double fill = 0) {
  try {
    cast_doubles<uint8_t>(type, more, {v}, fill);
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.code();
  }
  return ZARR_OK;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST(CastValue, EveryRoundingModeToIntegers) {
  const std::vector<double> in{2.5, 3.5, -2.5, 2.4, -2.6, 0.5};
  EXPECT_EQ(cast_doubles<int8_t>("int8", R"(, "rounding": "nearest-even")", in), (std::vector<int8_t>{2, 4, -2, 2, -3, 0}));
  EXPECT_EQ(cast_doubles<int8_t>("int8", "", in), (std::vector<int8_t>{2, 4, -2, 2, -3, 0}));  // the default
  EXPECT_EQ(cast_doubles<int8_t>("int8", R"(, "rounding": "nearest-away")", in), (std::vector<int8_t>{3, 4, -3, 2, -3, 1}));
  EXPECT_EQ(cast_doubles<int8_t>("int8", R"(, "rounding": "towards-zero")", in), (std::vector<int8_t>{2, 3, -2, 2, -2, 0}));
  EXPECT_EQ(cast_doubles<int8_t>("int8", R"(, "rounding": "towards-positive")", in), (std::vector<int8_t>{3, 4, -2, 3, -2, 1}));
  EXPECT_EQ(cast_doubles<int8_t>("int8", R"(, "rounding": "towards-negative")", in), (std::vector<int8_t>{2, 3, -3, 2, -3, 0}));
}

TEST(CastValue, EveryRoundingModeToAFloat) {
  // 1 + 2^-11 lies halfway between float16's 1 and 1 + 2^-10; 1 + 3*2^-12 above it.
  const double tie = 1 + std::ldexp(1.0, -11), above = 1 + 3 * std::ldexp(1.0, -12);
  auto halves = [&](const char* mode) {
    return cast_doubles<uint16_t>("float16", std::string(R"(, "rounding": ")") + mode + "\"", {tie, -tie, above});
  };
  EXPECT_EQ(halves("nearest-even"), (std::vector<uint16_t>{0x3c00, 0xbc00, 0x3c01}));
  EXPECT_EQ(halves("nearest-away"), (std::vector<uint16_t>{0x3c01, 0xbc01, 0x3c01}));
  EXPECT_EQ(halves("towards-zero"), (std::vector<uint16_t>{0x3c00, 0xbc00, 0x3c00}));
  EXPECT_EQ(halves("towards-positive"), (std::vector<uint16_t>{0x3c01, 0xbc00, 0x3c01}));
  EXPECT_EQ(halves("towards-negative"), (std::vector<uint16_t>{0x3c00, 0xbc01, 0x3c00}));
  // Subnormals round at their own quantum (2^-24).
  EXPECT_EQ(cast_doubles<uint16_t>("float16", R"(, "rounding": "towards-positive")", {std::ldexp(1.0, -30)}),
            std::vector<uint16_t>{0x0001});
}

// The README's int8 and int16 examples of out_of_range.
TEST(CastValue, OutOfRangeFailsClampsOrWraps) {
  EXPECT_EQ(cast_error_code("int8", "", 128.0), ZARR_ERR_CODEC);
  EXPECT_EQ(cast_doubles<int8_t>("int8", R"(, "out_of_range": "clamp")", {128.0, -1000.0}), (std::vector<int8_t>{127, -128}));
  EXPECT_EQ(cast_doubles<int8_t>("int8", R"(, "out_of_range": "wrap")", {128.0}), std::vector<int8_t>{-128});
  EXPECT_EQ(cast_doubles<int16_t>("int16", R"(, "out_of_range": "wrap")", {32768.0, 32769.0, -32769.0}),
            (std::vector<int16_t>{-32768, -32767, 32767}));
  EXPECT_EQ(cast_doubles<uint8_t>("uint8", R"(, "out_of_range": "wrap")", {-1.0, 256.0, 1e20}),
            (std::vector<uint8_t>{255, 0, 0}));  // 1e20 = 2^20 * 5^20: a multiple of 256
  // Rounding comes first: 127.4 is 127 and in range.
  EXPECT_EQ(cast_doubles<int8_t>("int8", "", {127.4}), std::vector<int8_t>{127});
  // Floats clamp to infinity where they have one, else to their largest value.
  EXPECT_EQ(cast_doubles<uint16_t>("float16", R"(, "out_of_range": "clamp")", {1e6, -1e6}),
            (std::vector<uint16_t>{0x7c00, 0xfc00}));
  EXPECT_EQ(cast_error_code("float16", "", 1e6), ZARR_ERR_CODEC);
  EXPECT_EQ(cast_doubles<uint8_t>("float8_e4m3fn", R"(, "out_of_range": "clamp")", {1e6}), std::vector<uint8_t>{0x7e});
  EXPECT_EQ(cast_doubles<uint8_t>("float4_e2m1fn", R"(, "out_of_range": "clamp")", {-100.0}), std::vector<uint8_t>{0x0f});
}

TEST(CastValue, NanAndInfinities) {
  // Kept where the target has them (float16, float8_e5m2), an error where it does not.
  EXPECT_EQ(cast_doubles<uint8_t>("float8_e5m2", "", {kInf, -kInf}), (std::vector<uint8_t>{0x7c, 0xfc}));
  const uint16_t half_nan = cast_doubles<uint16_t>("float16", "", {kNaN})[0];
  EXPECT_TRUE((half_nan & 0x7c00) == 0x7c00 && (half_nan & 0x3ff) != 0) << half_nan;
  std::string message;
  EXPECT_EQ(cast_error_code("uint8", R"(, "out_of_range": "clamp")", kNaN, &message), ZARR_ERR_CODEC);
  EXPECT_NE(message.find("element 0 (NaN) has no value in uint8"), std::string::npos) << message;
  EXPECT_EQ(cast_error_code("int8", R"(, "out_of_range": "clamp")", kInf), ZARR_ERR_CODEC);
  EXPECT_EQ(cast_error_code("float8_e4m3fn", R"(, "out_of_range": "clamp")", kInf), ZARR_ERR_CODEC);  // NaN, no infinity
  EXPECT_EQ(cast_error_code("float4_e2m1fn", "", kNaN), ZARR_ERR_CODEC);
  // Signed zero is kept, also by a value that rounds to zero.
  EXPECT_EQ(cast_doubles<uint16_t>("float16", "", {-0.0, -1e-300}), (std::vector<uint16_t>{0x8000, 0x8000}));
}

// float8_e8m0fnu holds powers of two only, no zero and no negative numbers.
TEST(CastValue, PowersOfTwoOnly) {
  // (A fill value of 1: 0 has no value there.)
  EXPECT_EQ(cast_doubles<uint8_t>("float8_e8m0fnu", "", {0.75, 4.0}, 1.0), (std::vector<uint8_t>{0x7f, 0x81}));
  EXPECT_EQ(cast_doubles<uint8_t>("float8_e8m0fnu", R"(, "rounding": "towards-zero")", {0.75}, 1.0),
            std::vector<uint8_t>{0x7e});
  EXPECT_EQ(cast_error_code("float8_e8m0fnu", "", 0.0, nullptr, 1.0), ZARR_ERR_CODEC);
  EXPECT_EQ(cast_doubles<uint8_t>("float8_e8m0fnu", R"(, "out_of_range": "clamp")", {0.0, -3.0}, 1.0),
            (std::vector<uint8_t>{0x00, 0x00}));
  EXPECT_ERROR(cast_to("float8_e8m0fnu"), repr_of("float64", {1}), ZARR_ERR_INVALID_METADATA,
               "the fill value 0 does not survive the cast to float8_e8m0fnu");
}

// The README's NumPy-compatibility example: NaN and infinities mapped to 0.
TEST(CastValue, ReadmeNumpyExampleMapsNanAndInfinities) {
  const std::string more = R"(, "rounding": "towards-zero", "out_of_range": "wrap",
      "scalar_map": {"encode": [["NaN", 0], ["+Infinity", 0], ["-Infinity", 0]]})";
  EXPECT_EQ(cast_doubles<uint8_t>("uint8", more, {kNaN, kInf, -kInf, 300.7, -1.5}),
            (std::vector<uint8_t>{0, 0, 0, 44, 255}));
}

TEST(CastValue, ScalarMapFirstEntryWinsAndDecodes) {
  const std::string more = R"(, "scalar_map": {"encode": [[1.5, 7], [1.5, 9]], "decode": [[7, -1.0]]})";
  CodecChain c = chain(cast_to("uint8", more), repr_of("float32", {3}));
  const Bytes stored = c.encode_bytes(bytes_of(std::vector<float>{1.5f, 2.0f, 7.0f}));
  EXPECT_EQ(stored, (Bytes{7, 2, 7}));
  EXPECT_EQ(values_of<float>(c.decode(stored, "k")), (std::vector<float>{-1.0f, 2.0f, -1.0f}));
}

// The data type changes for the codecs after it; decoding casts back.
TEST(CastValue, ChangesTheDataTypeTheNextCodecSees) {
  ArrayRepr r = repr_of("float64", {4});
  CodecChain c = chain(R"([{"name": "cast_value", "configuration": {"data_type": "int16"}},
                           {"name": "bytes", "configuration": {"endian": "big"}}])", r);
  const Bytes stored = c.encode_bytes(bytes_of(std::vector<double>{1, -2, 300, 0}));
  EXPECT_EQ(stored, (Bytes{0, 1, 0xff, 0xfe, 1, 0x2c, 0, 0}));
  EXPECT_EQ(values_of<double>(c.decode(stored, "k")), (std::vector<double>{1, -2, 300, 0}));
  EXPECT_EQ(c.array_to_array()[0]->encoded_repr(r).dtype.v3_name(), std::optional<std::string>("int16"));
  // Sub-byte and small float targets, and back.
  CodecChain s = chain(cast_to("int4"), repr_of("int32", {3}));
  EXPECT_EQ(s.encode_bytes(bytes_of(std::vector<int32_t>{-8, 7, -1})), (Bytes{0xf8, 0x07, 0xff}));
  EXPECT_EQ(values_of<int32_t>(s.decode(Bytes{0xf8, 0x07, 0xff}, "k")), (std::vector<int32_t>{-8, 7, -1}));
  // uint64's largest value, 2^64 - 1, into float32 towards zero: the float below 2^64.
  CodecChain u = chain(cast_to("float32", R"(, "rounding": "towards-zero")"), repr_of("uint64", {1}));
  EXPECT_EQ(values_of<float>(u.encode_bytes(bytes_of(std::vector<uint64_t>{UINT64_MAX}))),
            std::vector<float>{std::ldexp(1.0f, 64) * (1 - std::ldexp(1.0f, -24))});
}

TEST(CastValue, TheFillValueMustSurviveTheRoundTrip) {
  ArrayRepr r = repr_of("float64", {2});
  const double half = 0.5;
  std::memcpy(r.fill_item.data(), &half, 8);
  EXPECT_ERROR(cast_to("uint8"), r, ZARR_ERR_INVALID_METADATA, "the fill value 0.5 does not survive the cast to uint8 and back");
  const double nan = kNaN;
  std::memcpy(r.fill_item.data(), &nan, 8);
  EXPECT_ERROR(cast_to("uint8"), r, ZARR_ERR_INVALID_METADATA, "the fill value NaN does not survive");
  // The README's float64 -> uint8 example keeps NaN through its scalar_map.
  CodecChain c = chain(cast_to("uint8", R"(, "rounding": "nearest-even",
      "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]})"), r);
  EXPECT_EQ(c.array_to_array()[0]->encoded_repr(r).fill_item, Bytes{0});
}

TEST(CastValue, ErrorsNameTheField) {
  ArrayRepr r = repr_of("float32", {1});
  EXPECT_ERROR(with_bytes(R"({"name": "cast_value", "configuration": {}})"), r, ZARR_ERR_INVALID_METADATA, "data_type");
  EXPECT_ERROR(with_bytes(R"({"name": "cast_value"})"), r, ZARR_ERR_INVALID_METADATA, "'configuration' is required");
  EXPECT_ERROR(cast_to("uint8", R"(, "rounding": "up")"), r, ZARR_ERR_INVALID_METADATA, "field 'rounding' must be one of");
  EXPECT_ERROR(cast_to("uint8", R"(, "out_of_range": "saturate")"), r, ZARR_ERR_INVALID_METADATA, "field 'out_of_range' must be");
  EXPECT_ERROR(cast_to("float16", R"(, "out_of_range": "wrap")"), r, ZARR_ERR_INVALID_METADATA, "\"wrap\" needs an integer 'data_type'");
  EXPECT_ERROR(cast_to("bool"), r, ZARR_ERR_INVALID_METADATA, "not bool (field 'data_type')");
  EXPECT_ERROR(cast_to("complex64"), r, ZARR_ERR_INVALID_METADATA, "(field 'data_type')");
  EXPECT_ERROR(cast_to("uint8"), repr_of("bool", {1}), ZARR_ERR_INVALID_METADATA, "(the array's data type)");
  EXPECT_ERROR(cast_to("frob"), r, ZARR_ERR_UNSUPPORTED, "frob");
  EXPECT_ERROR(cast_to("uint8", R"(, "extra": 1)"), r, ZARR_ERR_INVALID_METADATA, "unknown configuration member \"extra\"");
  EXPECT_ERROR(cast_to("uint8", R"(, "scalar_map": {"encode": [[1]]})"), r, ZARR_ERR_INVALID_METADATA,
               "field 'scalar_map' 'encode' item 0 must be an [input, output] pair");
  EXPECT_ERROR(cast_to("uint8", R"(, "scalar_map": {"encode": [[1, 300]]})"), r, ZARR_ERR_INVALID_METADATA,
               "field 'scalar_map' 'encode' item 0 output");
  EXPECT_ERROR(cast_to("uint8", R"(, "scalar_map": {"both": []})"), r, ZARR_ERR_INVALID_METADATA, "unknown member \"both\"");
}

// ---- scale_offset -----------------------------------------------------------------------

namespace {
std::string scale_offset(const std::string& config) {
  return with_bytes(R"({"name": "scale_offset")" + (config.empty() ? "" : ", \"configuration\": " + config) + "}");
}
}  // namespace

// The README's float32 example: offset 5, scale 0.1, in float32 arithmetic.
TEST(ScaleOffset, ReadmeFloat32Example) {
  CodecChain c = chain(scale_offset(R"({"offset": 5, "scale": 0.1})"), repr_of("float32", {3}));
  const std::vector<float> in{5.0f, 15.0f, -5.0f};
  const std::vector<float> stored = values_of<float>(c.encode_bytes(bytes_of(in)));
  EXPECT_EQ(stored, (std::vector<float>{0.0f, (15.0f - 5.0f) * 0.1f, (-5.0f - 5.0f) * 0.1f}));
  const std::vector<float> back = values_of<float>(c.decode(bytes_of(stored), "k"));
  EXPECT_EQ(back[1], stored[1] / 0.1f + 5.0f);
  EXPECT_EQ(v3_codecs_json(c).find(R"({"name":"scale_offset","configuration":{"offset":5,"scale":0.1}})"), 1u);
}

ArrayRepr uint16_filled_with(uint16_t fill) {
  ArrayRepr r = repr_of("uint16", {3});
  r.fill_item = bytes_of(std::vector<uint16_t>{fill});
  return r;
}

// The README's uint16 example: offset 1000 then cast_value to uint8. Its
// fill value must be one the offset keeps in uint16 (here 1000): 0 - 1000 is
// no uint16, an error the README requires.
TEST(ScaleOffset, ReadmeUint16RangeReduction) {
  EXPECT_ERROR(R"([{"name": "scale_offset", "configuration": {"offset": 1000}}, "bytes"])", uint16_filled_with(0),
               ZARR_ERR_INVALID_METADATA, "the fill value 0 gives a value uint16 does not hold");
  CodecChain c = chain(R"([{"name": "scale_offset", "configuration": {"offset": 1000}},
      {"name": "cast_value", "configuration": {"data_type": "uint8"}}, "bytes"])", uint16_filled_with(1000));
  const Bytes stored = c.encode_bytes(bytes_of(std::vector<uint16_t>{1000, 1100, 1255}));
  EXPECT_EQ(stored, (Bytes{0, 100, 255}));
  EXPECT_EQ(values_of<uint16_t>(c.decode(stored, "k")), (std::vector<uint16_t>{1000, 1100, 1255}));
  // 999 - 1000 is not a uint16: an error, as the README requires.
  EXPECT_THROW(c.encode_bytes(bytes_of(std::vector<uint16_t>{999, 1000, 1000})), Error);
}

// The README's float64 -> uint8 example, NaN kept through the fill value.
TEST(ScaleOffset, ReadmeFloat64ToUint8WithNan) {
  ArrayRepr r = repr_of("float64", {4});
  const double nan = kNaN;
  std::memcpy(r.fill_item.data(), &nan, 8);
  CodecChain c = chain(R"([{"name": "scale_offset", "configuration": {"offset": -10, "scale": 0.1}},
      {"name": "cast_value", "configuration": {"data_type": "uint8", "rounding": "nearest-even",
       "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}}}, "bytes"])", r);
  const Bytes stored = c.encode_bytes(bytes_of(std::vector<double>{0.0, 2540.0, kNaN, 100.0}));
  EXPECT_EQ(stored, (Bytes{1, 255, 0, 11}));
  const std::vector<double> back = values_of<double>(c.decode(stored, "k"));
  EXPECT_EQ(back[0], 0.0);
  EXPECT_EQ(back[1], 2540.0);
  EXPECT_TRUE(std::isnan(back[2]));
  EXPECT_EQ(back[3], 100.0);
}

TEST(ScaleOffset, NoConfigurationIsTheIdentityAndIntegersAreExact) {
  CodecChain id = chain(scale_offset(""), repr_of("int8", {2}));
  EXPECT_EQ(id.encode_bytes(Bytes{1, 0x80}), (Bytes{1, 0x80}));
  EXPECT_EQ(v3_codecs_json(id).find(R"({"name":"scale_offset"})"), 1u);
  CodecChain c = chain(scale_offset(R"({"offset": -3, "scale": 4})"), repr_of("int16", {2}));
  EXPECT_EQ(values_of<int16_t>(c.encode_bytes(bytes_of(std::vector<int16_t>{1, -3}))), (std::vector<int16_t>{16, 0}));
  EXPECT_EQ(values_of<int16_t>(c.decode(bytes_of(std::vector<int16_t>{16, 0}), "k")), (std::vector<int16_t>{1, -3}));
  // A stored value the scale does not divide is no encoded value: an error.
  EXPECT_THROW(c.decode(bytes_of(std::vector<int16_t>{17, 0}), "k"), Error);
  EXPECT_THROW(c.encode_bytes(bytes_of(std::vector<int16_t>{10000, 0})), Error);  // 40012 > 32767
  // Floats: a finite value that overflows is an error; NaN and infinities pass.
  CodecChain f = chain(scale_offset(R"({"scale": 1e30})"), repr_of("float32", {1}));
  EXPECT_THROW(f.encode_bytes(bytes_of(std::vector<float>{1e10f})), Error);
  EXPECT_TRUE(std::isnan(values_of<float>(f.encode_bytes(bytes_of(std::vector<float>{std::nanf("")})))[0]));
  // Small floats compute in their own precision.
  CodecChain h = chain(scale_offset(R"({"offset": 1.0})"), repr_of("float8_e4m3fn", {1}));
  EXPECT_EQ(h.encode_bytes(Bytes{0x44}), Bytes{0x40});  // 3 - 1 = 2
}

TEST(ScaleOffset, TheFillValueIsTransformed) {
  ArrayRepr r = repr_of("int16", {1});
  r.fill_item = bytes_of(std::vector<int16_t>{7});
  CodecChain c = chain(scale_offset(R"({"offset": 2, "scale": 3})"), r);
  EXPECT_EQ(c.array_to_array()[0]->encoded_repr(r).fill_item, bytes_of(std::vector<int16_t>{15}));
  r.fill_item = bytes_of(std::vector<int16_t>{30000});
  EXPECT_ERROR(scale_offset(R"({"offset": 2, "scale": 3})"), r, ZARR_ERR_INVALID_METADATA, "the fill value 30000");
}

TEST(ScaleOffset, ErrorsNameTheField) {
  ArrayRepr r = repr_of("int16", {1});
  EXPECT_ERROR(scale_offset(R"({"scale": 0})"), r, ZARR_ERR_INVALID_METADATA, "field 'scale' must not be 0");
  EXPECT_ERROR(scale_offset(R"({"scale": 1.5})"), r, ZARR_ERR_INVALID_METADATA, "field 'scale'");
  EXPECT_ERROR(scale_offset(R"({"offset": "NaN"})"), repr_of("float32", {1}), ZARR_ERR_INVALID_METADATA,
               "field 'offset' must be a finite number");
  EXPECT_ERROR(scale_offset(R"({"offset": 1, "astype": "u1"})"), r, ZARR_ERR_INVALID_METADATA,
               "unknown configuration member \"astype\"");
  EXPECT_ERROR(scale_offset(R"({"offset": 1})"), repr_of("complex64", {1}), ZARR_ERR_INVALID_METADATA,
               "not the data type complex64");
}

// ---- packbits ---------------------------------------------------------------------------

namespace {
CodecChain packbits(const char* type, uint64_t n, const std::string& config = "") {
  return chain(R"([{"name": "packbits")" + (config.empty() ? "" : ", \"configuration\": " + config) + "}]",
               repr_of(type, {n}));
}
}  // namespace

TEST(PackBits, SubByteTypesPackFromTheLowBitUp) {
  CodecChain u4 = packbits("uint4", 3);
  EXPECT_EQ(u4.encode_bytes(Bytes{1, 2, 3}), (Bytes{0x21, 0x03}));
  EXPECT_EQ(u4.decode(Bytes{0x21, 0x03}, "k"), (Bytes{1, 2, 3}));
  // int2 is sign-extended back into its byte.
  CodecChain i2 = packbits("int2", 4);
  EXPECT_EQ(i2.encode_bytes(Bytes{0xfe, 0x01, 0xff, 0x00}), Bytes{0x36});
  EXPECT_EQ(i2.decode(Bytes{0x36}, "k"), (Bytes{0xfe, 0x01, 0xff, 0x00}));
  CodecChain u2 = packbits("uint2", 4);
  EXPECT_EQ(u2.decode(Bytes{0x36}, "k"), (Bytes{2, 1, 3, 0}));
  CodecChain b = packbits("bool", 9);
  EXPECT_EQ(b.encode_bytes(Bytes{1, 0, 1, 1, 0, 0, 0, 0, 1}), (Bytes{0x0d, 0x01}));
  EXPECT_EQ(b.decode(Bytes{0x0d, 0x01}, "k"), (Bytes{1, 0, 1, 1, 0, 0, 0, 0, 1}));
}

TEST(PackBits, SmallFloatsAndTheirComplexTypes) {
  CodecChain f6 = packbits("float6_e2m3fn", 2);
  EXPECT_EQ(f6.encode_bytes(Bytes{0x3f, 0x01}), (Bytes{0x7f, 0x00}));
  EXPECT_EQ(f6.decode(Bytes{0x7f, 0x00}, "k"), (Bytes{0x3f, 0x01}));
  CodecChain f4 = packbits("float4_e2m1fn", 2);
  EXPECT_EQ(f4.encode_bytes(Bytes{0x0f, 0x01}), Bytes{0x1f});
  CodecChain c4 = packbits("complex_float4_e2m1fn", 1);
  EXPECT_EQ(c4.encode_bytes(Bytes{0x01, 0x02}), Bytes{0x21});
  EXPECT_EQ(c4.decode(Bytes{0x21}, "k"), (Bytes{0x01, 0x02}));
  CodecChain e5 = packbits("float8_e5m2", 2);  // 8 bits: the bytes as they are
  EXPECT_EQ(e5.encode_bytes(Bytes{0x7c, 0x01}), (Bytes{0x7c, 0x01}));
  CodecChain c6 = packbits("complex_float6_e3m2fn", 1);
  EXPECT_EQ(c6.decode(c6.encode_bytes(Bytes{0x2a, 0x15}), "k"), (Bytes{0x2a, 0x15}));
}

TEST(PackBits, PaddingEncodingFirstOrLastByte) {
  CodecChain first = packbits("uint4", 3, R"({"padding_encoding": "first_byte"})");
  EXPECT_EQ(first.encode_bytes(Bytes{1, 2, 3}), (Bytes{4, 0x21, 0x03}));
  EXPECT_EQ(first.decode(Bytes{4, 0x21, 0x03}, "k"), (Bytes{1, 2, 3}));
  CodecChain last = packbits("uint4", 3, R"({"padding_encoding": "last_byte"})");
  EXPECT_EQ(last.encode_bytes(Bytes{1, 2, 3}), (Bytes{0x21, 0x03, 4}));
  CodecChain none = packbits("uint4", 4, R"({"padding_encoding": "none"})");
  EXPECT_EQ(none.encode_bytes(Bytes{1, 2, 3, 4}), (Bytes{0x21, 0x43}));
  // The schema's spelling is read too, and written back as given.
  CodecChain start = packbits("uint4", 3, R"({"padding_encoding": "start_byte"})");
  EXPECT_EQ(start.encode_bytes(Bytes{1, 2, 3}), (Bytes{4, 0x21, 0x03}));
  EXPECT_EQ(v3_codecs_json(start), R"([{"name":"packbits","configuration":{"padding_encoding":"start_byte"}}])");
  // A padding byte that disagrees, or a chunk of the wrong size, is a codec error.
  EXPECT_THROW(first.decode(Bytes{3, 0x21, 0x03}, "k"), Error);
  EXPECT_THROW(first.decode(Bytes{4, 0x21}, "k"), Error);
}

TEST(PackBits, FirstAndLastBitKeepAFieldOfEachComponent) {
  CodecChain i16 = packbits("int16", 2, R"({"first_bit": 4, "last_bit": 11})");
  const Bytes stored = i16.encode_bytes(bytes_of(std::vector<int16_t>{0x0ab0, 0x0120}));
  EXPECT_EQ(stored, (Bytes{0xab, 0x12}));
  // Decoding shifts back and sign-extends from last_bit.
  EXPECT_EQ(values_of<int16_t>(i16.decode(stored, "k")), (std::vector<int16_t>{-1360, 0x0120}));
  CodecChain u16 = packbits("uint16", 1, R"({"first_bit": 4, "last_bit": 11})");
  EXPECT_EQ(values_of<uint16_t>(u16.decode(Bytes{0xab}, "k")), std::vector<uint16_t>{0x0ab0});
  CodecChain nulls = packbits("uint16", 1, R"({"first_bit": null, "last_bit": null})");
  EXPECT_EQ(nulls.encode_bytes(bytes_of(std::vector<uint16_t>{0x1234})), (Bytes{0x34, 0x12}));  // little-endian
  CodecChain f32 = packbits("float32", 1, R"({"start_bit": 16, "end_bit": 31})");  // the schema's names
  EXPECT_EQ(f32.encode_bytes(bytes_of(std::vector<float>{1.0f})), (Bytes{0x80, 0x3f}));
}

TEST(PackBits, ErrorsNameTheField) {
  auto err = [](const char* type, const std::string& config) {
    return error_of(R"([{"name": "packbits", "configuration": )" + config + "}]", repr_of(type, {1}));
  };
  auto expect = [](const std::pair<int, std::string>& e, const char* fragment) {
    EXPECT_EQ(e.first, ZARR_ERR_INVALID_METADATA) << e.second;
    EXPECT_NE(e.second.find(fragment), std::string::npos) << e.second;
  };
  expect(err("uint4", R"({"last_bit": 4})"), "field 'last_bit' must be below the 4 bits of uint4, got 4");
  expect(err("uint8", R"({"first_bit": 5, "last_bit": 3})"), "field 'last_bit' (3) is below field 'first_bit' (5)");
  expect(err("uint8", R"({"first_bit": -1})"), "field 'first_bit' must be a bit index or null");
  expect(err("uint8", R"({"padding_encoding": "middle"})"), "field 'padding_encoding' must be");
  expect(err("uint8", R"({"bits": 3})"), "unknown configuration member \"bits\"");
  expect(error_of(R"([{"name": "packbits"}])", repr_of("r16", {1})), "not the data type r16");
}
