// Every error path of the built-in compressors: bad configurations, corrupt
// and truncated data, size headers that lie, sizes that disagree.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "base/error.h"
#include "base/json.h"
#include "codec_test_util.h"
#include "codecs/builtin_codecs.h"
#include "codecs/codec.h"
#include "zarr_config.h"

#if ZARR_HAVE_BLOSC
#include <blosc.h>
#endif

namespace zarr::test {
namespace {

[[maybe_unused]] ::testing::AssertionResult bad_config(const std::string& json, std::initializer_list<std::string> needles) {
  return fails_with(ZARR_ERR_INVALID_METADATA, needles, [&] { codec_from_json(json); });
}

[[maybe_unused]] ::testing::AssertionResult unsupported_config(const std::string& json, std::initializer_list<std::string> needles) {
  return fails_with(ZARR_ERR_UNSUPPORTED, needles, [&] { codec_from_json(json); });
}

// --- configurations ----------------------------------------------------------------

TEST(BadConfig, ConfigurationMustBeAnObject) {
#if ZARR_HAVE_ZLIB
  rapidjson::Document doc = json::parse("[]", "test");
  EXPECT_TRUE(fails_with(ZARR_ERR_INVALID_METADATA, {"codec 'zlib'", "JSON object"},
                         [&] { codecs::make_zlib_codec(doc, ChunkRepr{}); }));
#else
  GTEST_SKIP() << "built without zlib";
#endif
}

#if ZARR_HAVE_ZLIB
TEST(BadConfig, ZlibAndGzipLevel) {
  for (const char* id : {"zlib", "gzip"}) {
    std::string head = std::string(R"({"id":")") + id + R"(","level":)";
    EXPECT_TRUE(bad_config(head + "10}", {id, "field 'level' must be -1..9, got 10"}));
    EXPECT_TRUE(bad_config(head + "-2}", {id, "'level'", "got -2"}));
    EXPECT_TRUE(bad_config(head + "\"5\"}", {id, "field 'level' must be an integer, got \"5\""}));
    EXPECT_TRUE(bad_config(head + "5.5}", {id, "'level'", "an integer"}));
    EXPECT_TRUE(bad_config(head + "null}", {id, "'level'", "got null"}));
    EXPECT_TRUE(bad_config(head + "true}", {id, "'level'", "got true"}));
  }
}
#endif

#if ZARR_HAVE_BZ2
TEST(BadConfig, Bz2Level) {
  EXPECT_TRUE(bad_config(R"({"id":"bz2","level":0})", {"codec 'bz2': field 'level' must be 1..9, got 0"}));
  EXPECT_TRUE(bad_config(R"({"id":"bz2","level":10})", {"'level'", "got 10"}));
  EXPECT_TRUE(bad_config(R"({"id":"bz2","level":[1]})", {"'level'", "an integer"}));
}
#endif

#if ZARR_HAVE_ZSTD
TEST(BadConfig, ZstdLevelAndChecksum) {
  EXPECT_TRUE(bad_config(R"({"id":"zstd","level":"high"})", {"codec 'zstd'", "'level'", "an integer"}));
  // Any C int is a level (zstd clamps); beyond that cannot be passed on.
  EXPECT_TRUE(bad_config(R"({"id":"zstd","level":4294967296})", {"'level'", "got 4294967296"}));
  EXPECT_TRUE(bad_config(R"({"id":"zstd","checksum":1})", {"'checksum'", "true or false"}));
}
#endif

#if ZARR_HAVE_LZ4
TEST(BadConfig, Lz4Acceleration) {
  EXPECT_TRUE(bad_config(R"({"id":"lz4","acceleration":"fast"})", {"codec 'lz4'", "'acceleration'"}));
  EXPECT_TRUE(bad_config(R"({"id":"lz4","acceleration":9999999999})", {"'acceleration'", "got 9999999999"}));
}
#endif

#if ZARR_HAVE_BLOSC
TEST(BadConfig, BloscFields) {
  EXPECT_TRUE(bad_config(R"({"id":"blosc","clevel":12})", {"codec 'blosc': field 'clevel' must be 0..9, got 12"}));
  EXPECT_TRUE(bad_config(R"({"id":"blosc","clevel":-1})", {"'clevel'", "got -1"}));
  EXPECT_TRUE(bad_config(R"({"id":"blosc","clevel":"5"})", {"'clevel'", "an integer"}));
  EXPECT_TRUE(bad_config(R"({"id":"blosc","cname":"foo"})", {"'cname'", "blosclz", "got \"foo\""}));
  EXPECT_TRUE(bad_config(R"({"id":"blosc","cname":4})", {"'cname'", "a string"}));
  EXPECT_TRUE(bad_config(R"({"id":"blosc","shuffle":3})", {"'shuffle'", "-1..2", "got 3"}));
  EXPECT_TRUE(bad_config(R"({"id":"blosc","shuffle":-2})", {"'shuffle'", "got -2"}));
  EXPECT_TRUE(bad_config(R"({"id":"blosc","shuffle":"bit"})", {"'shuffle'", "an integer"}));
  EXPECT_TRUE(bad_config(R"({"id":"blosc","blocksize":-5})", {"'blocksize'", "got -5"}));
}

TEST(BadConfig, BloscCnameMissingFromThisCBlosc) {
  rapidjson::Document doc = json::parse(R"({"id":"blosc","cname":"snappy"})", "test");
  EXPECT_TRUE(fails_with(ZARR_ERR_UNSUPPORTED, {"codec 'blosc'", "snappy", "blosclz,lz4"},
                         [&] { codecs::make_blosc_codec_limited(doc, ChunkRepr{}, "blosclz,lz4"); }));
}
#endif

#if ZARR_HAVE_LZMA
TEST(BadConfig, LzmaFields) {
  EXPECT_TRUE(bad_config(R"({"id":"lzma","format":0})", {"codec 'lzma'", "'format'", "1..3", "got 0"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","format":"xz"})", {"'format'", "an integer"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","check":2})", {"'check'", "got 2"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","check":-2})", {"'check'", "got -2"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","format":2,"check":4})", {"'check'", "FORMAT_ALONE", "got 4"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","preset":10})", {"'preset'", "got 10"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","preset":2147483658})", {"'preset'", "PRESET_EXTREME"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","preset":-1})", {"'preset'", "got -1"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","preset":"9"})", {"'preset'", "an integer"}));
}

// Python's lzma rules for formats and filter chains, each error naming the
// field (filters[i].<key> inside the chain).
TEST(BadConfig, LzmaFormatsAndFilterChains) {
  EXPECT_TRUE(bad_config(R"({"id":"lzma","format":3})", {"codec 'lzma'", "'filters'", "FORMAT_RAW", "got null"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","format":3,"filters":[{"id":33}],"check":4})", {"'check'", "FORMAT_RAW"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33}],"preset":1})", {"'preset'", "null when 'filters'"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[]})", {"'filters'", "1 to 4"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":{"id":33}})", {"'filters'", "a list"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":3},{"id":3},{"id":3},{"id":3},{"id":33}]})",
                         {"'filters'", "1 to 4"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[33]})", {"'filters[0]'", "a JSON object", "got 33"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"preset":1}]})", {"'filters[0].id'", "present"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":"33"}]})", {"'filters[0].id'", "an integer"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":34}]})", {"'filters[0].id'", "LZMA2", "got 34"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":3,"dist":4},{"id":33,"level":1}]})",
                         {"'filters[1].level'", "not an option"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33,"preset":10}]})", {"'filters[0].preset'", "got 10"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33,"lc":5}]})", {"'filters[0].lc'", "0..4"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33,"pb":5}]})", {"'filters[0].pb'", "0..4"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33,"dict_size":-1}]})", {"'filters[0].dict_size'"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33,"mode":3}]})", {"'filters[0].mode'", "MODE_FAST"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33,"mf":5}]})", {"'filters[0].mf'", "MF_BT4"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":3,"dist":0},{"id":33}]})", {"'filters[0].dist'", "1..256"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":4,"start_offset":"0"},{"id":33}]})",
                         {"'filters[0].start_offset'", "an integer"}));
  // liblzma's own rules: the LZMA filter last, lc + lp <= 4 for LZMA2
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33},{"id":3}]})", {"'filters'", "LZMA1 or LZMA2 last"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","filters":[{"id":33,"lc":3,"lp":3}]})", {"'filters'", "liblzma accepts"}));
  // .lzma holds one LZMA1 filter; a raw decoder's dictionary is bounded
  EXPECT_TRUE(bad_config(R"({"id":"lzma","format":2,"filters":[{"id":33}]})", {"'filters'", "single LZMA1"}));
  EXPECT_TRUE(bad_config(R"({"id":"lzma","format":3,"filters":[{"id":33,"dict_size":1610612736}]})",
                         {"'filters'", "1 GiB", "dict_size"}));
}
#endif

// --- corrupt, truncated and mis-sized data ---------------------------------------------

class DataErrors : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<BytesCodec> codec() const {
    return codec_from_json(R"({"id":")" + GetParam() + "\"}", ChunkRepr{4, 0, ""});
  }
  Bytes data_ = sample_data(3000, 3);
};

TEST_P(DataErrors, GarbageIsACodecError) {
  auto c = codec();
  std::string garbage = "this is certainly not compressed data, just some words..";
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec '" + GetParam() + "'"}, [&] { c->decode(garbage, 0); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec '" + GetParam() + "'"}, [&] { c->decode(garbage, 3000); }));
}

TEST_P(DataErrors, EmptyInputIsACodecError) {
  auto c = codec();
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec '" + GetParam() + "'"}, [&] { c->decode(ByteView(), 0); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec '" + GetParam() + "'"}, [&] { c->decode(ByteView(), 10); }));
}

TEST_P(DataErrors, EveryTruncationIsACodecError) {
  auto c = codec();
  Bytes encoded = c->encode(data_);
  for (size_t n = 0; n < encoded.size(); ++n) {
    ByteView cut(encoded.data(), n);
    ASSERT_TRUE(fails_with(ZARR_ERR_CODEC, {GetParam()}, [&] { c->decode(cut, data_.size()); })) << "cut at " << n;
    ASSERT_TRUE(fails_with(ZARR_ERR_CODEC, {GetParam()}, [&] { c->decode(cut, 0); })) << "cut at " << n;
  }
}

// Flipped bytes: a codec error, or (where the format has no checksum over
// the data) output of the right size; never a crash or a hang.
TEST_P(DataErrors, CorruptBytesNeverCrash) {
  auto c = codec();
  Bytes encoded = c->encode(data_);
  size_t step = std::max<size_t>(1, encoded.size() / 400);
  for (size_t pos = 0; pos < encoded.size(); pos += step) {
    for (uint8_t mask : {0x01, 0x80, 0xff}) {
      Bytes bad = encoded;
      bad[pos] ^= mask;
      for (size_t expected : {data_.size(), size_t{0}}) {
        try {
          Bytes out = c->decode(bad, expected);
          if (expected != 0) {
            EXPECT_EQ(out.size(), expected);
          }
        } catch (const Error& e) {
          ASSERT_EQ(e.code(), ZARR_ERR_CODEC) << e.what();
        }
      }
    }
  }
}

// Several random bytes changed, cut or extended at random: the same promise.
TEST_P(DataErrors, RandomMutationsNeverCrash) {
  auto c = codec();
  Bytes encoded = c->encode(data_);
  std::mt19937 rng(42);
  for (int round = 0; round < 300; ++round) {
    Bytes bad = encoded;
    for (int k = rng() % 8; k >= 0; --k) bad[rng() % bad.size()] = static_cast<uint8_t>(rng());
    if (round % 3 == 1) bad.resize(rng() % bad.size());
    if (round % 3 == 2) bad.resize(bad.size() + rng() % 64, static_cast<uint8_t>(rng()));
    for (size_t expected : {data_.size(), size_t{0}}) {
      try {
        c->decode(bad, expected);
      } catch (const Error& e) {
        ASSERT_EQ(e.code(), ZARR_ERR_CODEC) << e.what();
      }
    }
  }
}

TEST_P(DataErrors, ExpectedSizeMismatchIsACodecError) {
  auto c = codec();
  Bytes encoded = c->encode(data_);
  for (size_t wrong : {data_.size() - 1, data_.size() + 1, data_.size() * 2, size_t{1}}) {
    EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec '" + GetParam() + "'", "expected " + std::to_string(wrong)},
                           [&] { c->decode(encoded, wrong); }));
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, DataErrors, ::testing::ValuesIn(built_codec_ids()));
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DataErrors);  // a build without codecs

// --- size headers that lie ------------------------------------------------------------------

#if ZARR_HAVE_LZ4
TEST(LyingHeader, Lz4SizeHeader) {
  auto c = codec_from_json(R"({"id":"lz4"})");
  Bytes data = sample_data(5000);
  Bytes encoded = c->encode(data);
  Bytes bigger = encoded;
  put_le32(bigger, 0, 0x7fffffff);
  // Known size: refused before allocating what the header claims.
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lz4'", "claims 2147483647", "expected 5000"},
                         [&] { c->decode(bigger, 5000); }));
  // Unknown size: more than an LZ4 block of that size can expand to.
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lz4'", "corrupt"}, [&] { c->decode(bigger, 0); }));
  Bytes smaller = encoded;
  put_le32(smaller, 0, 4000);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lz4'"}, [&] { c->decode(smaller, 0); }));
  Bytes slightly_bigger = encoded;
  put_le32(slightly_bigger, 0, 5001);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lz4'"}, [&] { c->decode(slightly_bigger, 0); }));
}
#endif

#if ZARR_HAVE_BLOSC
TEST(LyingHeader, BloscSizes) {
  auto c = codec_from_json(R"({"id":"blosc"})", ChunkRepr{4, 0, ""});
  Bytes data = sample_data(5000);
  Bytes encoded = c->encode(data);
  Bytes bigger = encoded;
  put_le32(bigger, 4, 0x7fff0000);  // nbytes
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "claims 2147418112", "expected 5000"},
                         [&] { c->decode(bigger, 5000); }));
  Bytes slightly_bigger = encoded;
  put_le32(slightly_bigger, 4, 5004);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'"}, [&] { c->decode(slightly_bigger, 0); }));
  Bytes cbytes = encoded;
  put_le32(cbytes, 12, static_cast<uint32_t>(encoded.size() + 100));  // cbytes beyond the buffer
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "truncated"}, [&] { c->decode(cbytes, 0); }));
  Bytes extra = encoded;
  extra.push_back(0);  // trailing byte: cbytes no longer matches
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "compressed bytes"}, [&] { c->decode(extra, 0); }));
  // Size unknown to the caller: a claim of 1.8 GB in 3.3 MB blocks needs 540
  // block offsets, more than a 1 KB buffer holds; refused before allocating
  // (the fuzzer's input allocated and zeroed 1.8 GB).
  Bytes huge_claim = encoded;
  put_le32(huge_claim, 4, 1818517992);  // nbytes
  put_le32(huge_claim, 8, 3371621);     // blocksize
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "540 blocks", "offsets alone need 2176 bytes"},
                         [&] { c->decode(huge_claim, 0); }));
  // The same claim for a buffer stored uncompressed, whose bytes follow the
  // 16-byte header.
  Bytes stored = codec_from_json(R"({"id":"blosc","clevel":0})", ChunkRepr{4, 0, ""})->encode(data);
  ASSERT_EQ(stored.size(), data.size() + 16);
  put_le32(stored, 4, 1818517992);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "claims 1818517992 bytes stored uncompressed"},
                         [&] { c->decode(stored, 0); }));
}

// One huge block: the offsets fit, so only the compressor's expansion
// ratio shows that 5000 bytes cannot decode to 2 GB; refused before the
// 2 GB are allocated, for the size unknown to the caller.
TEST(LyingHeader, BloscClaimBeyondTheCompressorsRatio) {
  for (const char* cname : {"lz4", "zstd"}) {
    SCOPED_TRACE(cname);
    auto c = codec_from_json(std::string(R"({"id":"blosc","cname":")") + cname + "\"}", ChunkRepr{4, 0, ""});
    Bytes huge_block = c->encode(sample_data(5000));
    put_le32(huge_block, 4, 0x7fff0000);  // nbytes
    put_le32(huge_block, 8, 0x7fff0000);  // blocksize: one block
    EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "claims 2147418112 bytes", "more than", cname},
                           [&] { c->decode(huge_block, 0); }));
  }
}

// The bound must never refuse what c-blosc writes: its most compressible
// input (zeros, large blocks), every compressor and level of this build.
TEST(LyingHeader, BloscRatioBoundAcceptsTheMostCompressedChunks) {
  const Bytes zeros(64u << 20, 0);
  std::stringstream list(blosc_list_compressors());
  for (std::string cname; std::getline(list, cname, ',');) {
    for (int level : {1, 9}) {
      SCOPED_TRACE(cname + " level " + std::to_string(level));
      auto c = codec_from_json(R"({"id":"blosc","cname":")" + cname + R"(","clevel":)" + std::to_string(level) +
                                   R"(,"blocksize":67108864})",
                               ChunkRepr{1, 0, ""});
      Bytes encoded = c->encode(zeros);
      EXPECT_LT(encoded.size(), zeros.size() / 20);
      EXPECT_EQ(c->decode(encoded, 0), zeros);
    }
  }
}

TEST(LyingHeader, BloscUnknownCompressorCode) {
  auto c = codec_from_json(R"({"id":"blosc"})", ChunkRepr{4, 0, ""});
  Bytes encoded = c->encode(sample_data(5000));
  encoded[2] = static_cast<uint8_t>((encoded[2] & 0x1f) | (7 << 5));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "unknown compressor code 7"},
                         [&] { c->decode(encoded, 5000); }));
}

TEST(LyingHeader, BloscFormatVersionFromTheFuture) {
  auto c = codec_from_json(R"({"id":"blosc"})", ChunkRepr{4, 0, ""});
  Bytes encoded = c->encode(sample_data(5000));
  encoded[0] = 9;
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "version 9", "newer"}, [&] { c->decode(encoded, 5000); }));
}

TEST(LyingHeader, BloscChunkFromACompressorThisBuildLacks) {
  // Written with zstd inside; read by a codec whose c-blosc "has" only lz4.
  auto writer = codec_from_json(R"({"id":"blosc","cname":"zstd"})", ChunkRepr{4, 0, ""});
  Bytes encoded = writer->encode(sample_data(5000));
  rapidjson::Document doc = json::parse(R"({"id":"blosc","cname":"lz4"})", "test");
  auto reader = codecs::make_blosc_codec_limited(doc, ChunkRepr{4, 0, ""}, "lz4");
  EXPECT_TRUE(fails_with(ZARR_ERR_UNSUPPORTED, {"codec 'blosc'", "'zstd'", "lacks"},
                         [&] { reader->decode(encoded, 5000); }));
}
#endif

#if ZARR_HAVE_ZSTD
TEST(LyingHeader, ZstdFrameContentSize) {
  auto c = codec_from_json(R"({"id":"zstd"})");
  Bytes data = sample_data(5000);
  Bytes encoded = c->encode(data);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'zstd'", "claims 5000", "expected 400"},
                         [&] { c->decode(encoded, 400); }));
}
#endif

}  // namespace
}  // namespace zarr::test
