// The zarr-extensions registry's codecs that wrap other codecs (issue 26):
// n5_default (N5's block header around a transpose, big-endian bytes and a
// compressor) and conditional (a bitmask header switching nested
// bytes->bytes codecs on and off per chunk), at the chain level: the
// README's rules, hostile headers, errors naming the field.
// (tests/capi/test_v3_registry_codecs.cpp opens and writes whole arrays.)
#include <gtest/gtest.h>

#include <cstring>

#include "base/error.h"
#include "base/json.h"
#include "codecs/v3_chain.h"
#include "v3_chain_helpers.h"
#include "zarr_config.h"

using namespace zarr;
using zarr::test::chain;
using zarr::test::error_of;
using zarr::test::repr_of;

namespace {

// The decode error of `stored`: code and message.
std::pair<int, std::string> decode_error(const CodecChain& c, const Bytes& stored) {
  try {
    c.decode(stored, "k");
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {ZARR_OK, ""};
}

Bytes be16s(std::initializer_list<int> values) {
  Bytes out;
  for (int v : values) {
    out.push_back(static_cast<uint8_t>((v >> 8) & 0xff));
    out.push_back(static_cast<uint8_t>(v & 0xff));
  }
  return out;
}

Bytes concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// N5's header: mode, rank, extents (big-endian).
Bytes n5_header(int mode, std::vector<uint32_t> shape) {
  Bytes out = be16s({mode, static_cast<int>(shape.size())});
  for (uint32_t e : shape) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(e >> s));
  }
  return out;
}

Bytes native_i16(std::initializer_list<int16_t> values) {
  Bytes out(values.size() * 2);
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

std::string n5(const std::string& order, const std::string& extra = "") {
  return R"([{"name": "n5_default", "configuration": {"codecs": [)"
         R"({"name": "transpose", "configuration": {"order": )" + order + R"(}},)"
         R"({"name": "bytes", "configuration": {"endian": "big"}})" + extra + "]}}]";
}

ArrayRepr int16_with_fill(std::vector<uint64_t> shape, int16_t fill) {
  ArrayRepr r = repr_of("int16", std::move(shape));
  std::memcpy(r.fill_item.data(), &fill, 2);
  return r;
}

}  // namespace

// ---- n5_default -------------------------------------------------------------------------

// The header (mode 0, rank, extents in the array's order) and the block in F
// order, big-endian: [[1, 2, 3], [4, 5, 6]] is stored 1 4 2 5 3 6.
TEST(N5Default, HeaderThenTheBlockInFOrderBigEndian) {
  CodecChain c = chain(n5("[1, 0]"), repr_of("int16", {2, 3}));
  const Bytes chunk = native_i16({1, 2, 3, 4, 5, 6});
  const Bytes stored = c.encode_bytes(chunk);
  EXPECT_EQ(stored, concat(n5_header(0, {2, 3}), be16s({1, 4, 2, 5, 3, 6})));
  EXPECT_EQ(c.decode(stored, "k"), chunk);
  EXPECT_EQ(v3_codecs_json(c), R"([{"name":"n5_default","configuration":{"codecs":[)"
                               R"({"name":"transpose","configuration":{"order":[1,0]}},)"
                               R"({"name":"bytes","configuration":{"endian":"big"}}]}}])");
  // One-byte types may leave out "endian"; one dimension transposes to itself.
  CodecChain u8 = chain(R"([{"name": "n5_default", "configuration": {"codecs": [)"
                        R"({"name": "transpose", "configuration": {"order": [0]}}, {"name": "bytes"}]}}])",
                        repr_of("uint8", {3}));
  EXPECT_EQ(u8.encode_bytes(Bytes{7, 8, 9}), concat(n5_header(0, {3}), Bytes{7, 8, 9}));
}

// Blocks N5's Java writer truncates at the array's edge decode at their own
// shape, the rest of the chunk the fill value; an empty block is all fill.
TEST(N5Default, TruncatedBlocksArePaddedWithTheFillValue) {
  CodecChain c = chain(n5("[1, 0]"), int16_with_fill({2, 3}, -1));
  const Bytes block = concat(n5_header(0, {1, 2}), be16s({7, 8}));
  EXPECT_EQ(c.decode(block, "k"), native_i16({7, 8, -1, -1, -1, -1}));
  const Bytes column = concat(n5_header(0, {2, 1}), be16s({7, 9}));
  EXPECT_EQ(c.decode(column, "k"), native_i16({7, -1, -1, 9, -1, -1}));
  EXPECT_EQ(c.decode(n5_header(0, {0, 3}), "k"), native_i16({-1, -1, -1, -1, -1, -1}));
}

#if ZARR_HAVE_ZSTD
// The README's example chain (zstd), full and truncated blocks.
TEST(N5Default, WithACompressorFullAndTruncated) {
  const std::string codecs = n5("[2, 1, 0]", R"(, {"name": "zstd", "configuration": {"level": 0, "checksum": false}})");
  CodecChain c = chain(codecs, int16_with_fill({2, 2, 2}, 5));
  const Bytes chunk = native_i16({1, 2, 3, 4, 5, 6, 7, 8});
  const Bytes stored = c.encode_bytes(chunk);
  EXPECT_EQ(Bytes(stored.begin(), stored.begin() + 16), n5_header(0, {2, 2, 2}));
  EXPECT_EQ(c.decode(stored, "k"), chunk);
  // a [1, 2, 1] block compressed on its own
  CodecChain small = chain(codecs, int16_with_fill({1, 2, 1}, 5));
  Bytes body = small.encode_bytes(native_i16({10, 20}));
  body.erase(body.begin(), body.begin() + 16);
  EXPECT_EQ(c.decode(concat(n5_header(0, {1, 2, 1}), body), "k"), native_i16({10, 5, 20, 5, 5, 5, 5, 5}));
}
#endif

// The README's rules for the configuration, each error naming what is wrong.
TEST(N5Default, ConfigurationErrors) {
  const ArrayRepr r = repr_of("int16", {2, 3});
  EXPECT_ERROR(R"([{"name": "n5_default"}])", r, ZARR_ERR_INVALID_METADATA, "'configuration' is required");
  EXPECT_ERROR(R"([{"name": "n5_default", "configuration": {}}])", r, ZARR_ERR_INVALID_METADATA, "codecs");
  EXPECT_ERROR(R"([{"name": "n5_default", "configuration": {"codecs": [], "x": 1}}])", r, ZARR_ERR_INVALID_METADATA,
               "\"x\"");
  EXPECT_ERROR(R"([{"name": "n5_default", "configuration": {"codecs": [{"name": "bytes"}]}}])", r,
               ZARR_ERR_INVALID_METADATA, "field 'codecs' must list a transpose");
  EXPECT_ERROR(n5("[0, 1]"), r, ZARR_ERR_INVALID_METADATA, "item 0 must be a transpose with order [1, 0]");
  EXPECT_ERROR(R"([{"name": "n5_default", "configuration": {"codecs": [{"name": "transpose", "configuration": )"
               R"({"order": [1, 0]}}, {"name": "bytes", "configuration": {"endian": "little"}}]}}])",
               r, ZARR_ERR_INVALID_METADATA, "item 1 must be a bytes codec with endian \"big\"");
  EXPECT_ERROR(R"([{"name": "n5_default", "configuration": {"codecs": [{"name": "transpose", "configuration": )"
               R"({"order": [1, 0]}}, "bytes"]}}])",
               r, ZARR_ERR_INVALID_METADATA, "'endian' is required");
  EXPECT_ERROR(n5("[1, 0]", R"(, {"name": "bytes", "configuration": {"endian": "big"}})"), r,
               ZARR_ERR_INVALID_METADATA, "cannot follow");
  EXPECT_ERROR(n5("[1, 0]", R"(, "crc32c", "crc32c")"), r, ZARR_ERR_INVALID_METADATA, "at most one bytes->bytes");
  EXPECT_ERROR(n5("[1, 0]"), repr_of("bool", {2, 3}), ZARR_ERR_UNSUPPORTED, "data type \"bool\" is not one N5 has");
  EXPECT_ERROR(n5("[0]"), repr_of("int16", {uint64_t{1} << 32}), ZARR_ERR_UNSUPPORTED, "4294967295");
  // n5_default is array->bytes: nothing of that kind may follow or precede it
  EXPECT_ERROR(R"([{"name": "bytes", "configuration": {"endian": "big"}}, )" + n5("[1, 0]").substr(1), r,
               ZARR_ERR_INVALID_METADATA, "cannot follow");
}

// Truncated, foreign and hostile blocks are errors naming the codec, never a
// crash or an allocation a header asks for (run under ASan+UBSan in CI).
TEST(N5Default, HostileBlocks) {
  CodecChain c = chain(n5("[1, 0]"), repr_of("int16", {2, 3}));
  const Bytes good = c.encode_bytes(native_i16({1, 2, 3, 4, 5, 6}));
  struct Case {
    Bytes stored;
    int code;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {{}, ZARR_ERR_CODEC, "shorter than N5's header"},
      {{0, 0, 0}, ZARR_ERR_CODEC, "shorter than N5's header"},
      {concat(n5_header(1, {2, 3}), good), ZARR_ERR_UNSUPPORTED, "block mode 1 (varlength)"},
      {concat(n5_header(2, {2, 3}), good), ZARR_ERR_UNSUPPORTED, "block mode 2 (object)"},
      {concat(n5_header(0x100, {2, 3}), good), ZARR_ERR_CODEC, "block mode 256 is not an N5 mode"},
      {n5_header(0, {2, 3, 1}), ZARR_ERR_CODEC, "3 dimensions, the array 2"},
      {Bytes(good.begin(), good.begin() + 7), ZARR_ERR_CODEC, "shorter than its 12-byte header"},
      {concat(n5_header(0, {0xffffffffu, 0xffffffffu}), Bytes(16, 0)), ZARR_ERR_CODEC,
       "block shape [4294967295, 4294967295] exceeds the chunk shape [2, 3]"},
      {concat(n5_header(0, {2, 4}), Bytes(16, 0)), ZARR_ERR_CODEC, "exceeds the chunk shape"},
      {Bytes(good.begin(), good.end() - 1), ZARR_ERR_CODEC, "codec 'bytes'"},
      {concat(good, Bytes{0}), ZARR_ERR_CODEC, "codec 'bytes'"},
      {concat(n5_header(0, {1, 2}), Bytes(3, 0)), ZARR_ERR_CODEC, "n5 block [1, 2]"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(::testing::PrintToString(k.stored));
    auto [code, msg] = decode_error(c, k.stored);
    EXPECT_EQ(code, k.code) << msg;
    EXPECT_NE(msg.find(k.fragment), std::string::npos) << msg;
  }
}

// ---- conditional ------------------------------------------------------------------------

namespace {

// The README's example, with "shuffle" spelled as libzarr (and zarr-python 3)
// know it: the registry has no "shuffle" codec.
const char* kConditional = R"({"name": "conditional", "configuration": {"codecs": [
    {"name": "numcodecs.shuffle", "configuration": {"elementsize": 4}},
    {"name": "zstd", "configuration": {"level": 5}}]}})";

std::string bytes_then(const std::string& codec) {
  return R"([{"name": "bytes", "configuration": {"endian": "little"}}, )" + codec + "]";
}

Bytes pseudo_random(size_t n) {
  Bytes out(n);
  uint32_t x = 2463534242u;
  for (auto& b : out) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    b = static_cast<uint8_t>(x);
  }
  return out;
}

}  // namespace

// libzarr's writer applies each codec when it makes the chunk smaller (the
// README's compress_if_smaller): zstd on a compressible chunk, nothing on
// noise; shuffle never shrinks a chunk. Either decodes.
TEST(Conditional, ReadmeExampleAppliesWhatShrinksTheChunk) {
  CodecChain c = chain(bytes_then(kConditional), repr_of("float32", {256}));
  const Bytes zeros(1024, 0);
  const Bytes packed = c.encode_bytes(zeros);
  ASSERT_LT(packed.size(), 100u);
  EXPECT_EQ(packed[0], 0x02);  // bit 1: zstd
  EXPECT_EQ(c.decode(packed, "k"), zeros);
  const Bytes noise = pseudo_random(1024);
  const Bytes raw = c.encode_bytes(noise);
  EXPECT_EQ(raw, concat(Bytes{0}, noise));  // nothing applied: the header and the chunk
  EXPECT_EQ(c.decode(raw, "k"), noise);
  EXPECT_EQ(c.max_stored_size().value_or(0) >= 1025u, true);
  EXPECT_EQ(v3_codecs_json(c), R"([{"name":"bytes","configuration":{"endian":"little"}},)"
                               R"({"name":"conditional","configuration":{"codecs":[)"
                               R"({"name":"numcodecs.shuffle","configuration":{"elementsize":4}},)"
                               R"({"name":"zstd","configuration":{"level":5,"checksum":false}}]}}])");
}

// What another writer may store: any codecs applied (shuffle too), a wider
// header (reserved bits 0), decoded in reverse order.
TEST(Conditional, AnyMaskAndWiderHeadersDecode) {
  const std::string wide = R"({"name": "conditional", "configuration": {"header_bits": 24, "codecs": [
      {"name": "numcodecs.shuffle", "configuration": {"elementsize": 4}}, {"name": "gzip", "configuration": {"level": 1}},
      {"name": "crc32c"}]}})";
  CodecChain c = chain(bytes_then(wide), repr_of("int32", {64}));
  CodecChain shuffle = chain(bytes_then(R"({"name": "numcodecs.shuffle", "configuration": {"elementsize": 4}})"),
                             repr_of("int32", {64}));
  CodecChain all = chain(bytes_then(R"({"name": "numcodecs.shuffle", "configuration": {"elementsize": 4}},
      {"name": "gzip", "configuration": {"level": 1}}, {"name": "crc32c"})"), repr_of("int32", {64}));
  Bytes chunk(256);
  for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = static_cast<uint8_t>(i / 32);
  EXPECT_EQ(c.decode(concat(Bytes{0x07, 0, 0}, all.encode_bytes(chunk)), "k"), chunk);
  EXPECT_EQ(c.decode(concat(Bytes{0x01, 0, 0}, shuffle.encode_bytes(chunk)), "k"), chunk);
  EXPECT_EQ(c.decode(concat(Bytes{0, 0, 0}, chunk), "k"), chunk);
  const Bytes written = c.encode_bytes(chunk);
  EXPECT_EQ(written[0], 0x02);  // gzip shrinks it; shuffle and crc32c do not
  EXPECT_EQ(Bytes(written.begin() + 1, written.begin() + 3), (Bytes{0, 0}));
  EXPECT_EQ(c.decode(written, "k"), chunk);
  EXPECT_NE(v3_codecs_json(c).find(R"("header_bits":24)"), std::string::npos) << v3_codecs_json(c);
}

TEST(Conditional, ConfigurationErrors) {
  const ArrayRepr r = repr_of("uint8", {16});
  auto cond = [](const std::string& config) { return bytes_then(R"({"name": "conditional", "configuration": )" + config + "}"); };
  EXPECT_ERROR(bytes_then(R"({"name": "conditional"})"), r, ZARR_ERR_INVALID_METADATA, "'configuration' is required");
  EXPECT_ERROR(cond("{}"), r, ZARR_ERR_INVALID_METADATA, "codecs");
  EXPECT_ERROR(cond(R"({"codecs": [], "mask": 1})"), r, ZARR_ERR_INVALID_METADATA, "\"mask\"");
  EXPECT_ERROR(cond(R"({"codecs": {"name": "zstd"}})"), r, ZARR_ERR_INVALID_METADATA, "field 'codecs' must be a list");
  EXPECT_ERROR(cond(R"({"codecs": ["crc32c", "bytes"]})"), r, ZARR_ERR_INVALID_METADATA,
               "field 'codecs' item 1: 'bytes' is array->bytes; conditional holds bytes->bytes codecs only");
  EXPECT_ERROR(cond(R"({"codecs": [{"name": "transpose", "configuration": {"order": [0]}}]})"), r,
               ZARR_ERR_INVALID_METADATA, "'transpose' is array->array");
  EXPECT_ERROR(cond(R"({"codecs": ["frobnicate"]})"), r, ZARR_ERR_UNSUPPORTED, "unsupported codec 'frobnicate'");
  EXPECT_ERROR(cond(R"({"codecs": [{"name": "gzip", "configuration": {"level": 99}}]})"), r,
               ZARR_ERR_INVALID_METADATA, "item 0");
  for (const char* bits : {"7", "0", "\"8\"", "65544", "-8"}) {
    SCOPED_TRACE(bits);
    EXPECT_ERROR(cond(std::string(R"({"codecs": ["crc32c"], "header_bits": )") + bits + "}"), r,
                 ZARR_ERR_INVALID_METADATA, "field 'header_bits' must be a multiple of 8 from 8");
  }
  std::string nine = R"({"codecs": [)";
  for (int i = 0; i < 9; ++i) nine += std::string(i ? "," : "") + "\"crc32c\"";
  EXPECT_ERROR(cond(nine + R"(], "header_bits": 8})"), r, ZARR_ERR_INVALID_METADATA, "from 16");
  // conditional is bytes->bytes: it follows the array->bytes codec
  EXPECT_ERROR(std::string("[") + kConditional + R"(, "bytes"])", r, ZARR_ERR_INVALID_METADATA,
               "must follow an array->bytes codec");
}

TEST(Conditional, HostileChunks) {
  CodecChain c = chain(bytes_then(kConditional), repr_of("float32", {256}));
  CodecChain zstd = chain(bytes_then(R"({"name": "zstd", "configuration": {"level": 1}})"), repr_of("float32", {256}));
  CodecChain big = chain(bytes_then(R"({"name": "zstd", "configuration": {"level": 1}})"), repr_of("float32", {1 << 20}));
  const Bytes good = zstd.encode_bytes(Bytes(1024, 1));
  struct Case {
    Bytes stored;
    int code;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {{}, ZARR_ERR_CODEC, "shorter than its 1-byte header"},
      {{0x04}, ZARR_ERR_CODEC, "header bit 2 is set but there are only 2 codecs"},
      {concat(Bytes{0x80}, good), ZARR_ERR_CODEC, "header bit 7"},
      {concat(Bytes{0x00}, good), ZARR_ERR_CODEC, "codec 'conditional'"},          // stored raw: wrong size
      {concat(Bytes{0x02}, Bytes(good.begin(), good.end() - 3)), ZARR_ERR_CODEC, "zstd"},  // truncated
      {concat(Bytes{0x02}, big.encode_bytes(Bytes(4 << 20, 0))), ZARR_ERR_CODEC, "zstd"},  // a 4 MiB bomb
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.stored.size());
    auto [code, msg] = decode_error(c, k.stored);
    EXPECT_EQ(code, k.code) << msg;
    EXPECT_NE(msg.find(k.fragment), std::string::npos) << msg;
  }
}
