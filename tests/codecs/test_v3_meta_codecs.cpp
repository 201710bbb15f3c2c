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

#define EXPECT_ERROR(codecs, decoded, code, fragment)                    \
  do {                                                                   \
    auto e_ = error_of(codecs, decoded);                                 \
    EXPECT_EQ(e_.first, code) << e_.second;                              \
    EXPECT_NE(e_.second.find(fragment), std::string::npos) << e_.second; \
  } while (0)

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
