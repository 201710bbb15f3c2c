// Format details of each compressor that numcodecs compatibility rests on:
// headers, containers, multi-member streams, frames without a content size.
#include <gtest/gtest.h>

#include <algorithm>

#include "base/error.h"
#include "codec_test_util.h"
#include "codecs/codec.h"
#include "zarr_config.h"

#if ZARR_HAVE_BLOSC
#include <blosc.h>
#endif
#if ZARR_HAVE_ZSTD
#include <zstd.h>
#endif

namespace zarr::test {
namespace {

[[maybe_unused]] Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

#if ZARR_HAVE_ZLIB
TEST(Gzip, HeaderAsPythonWritesItWithMtimeZero) {
  for (auto [level, xfl] : {std::pair{1, 4}, {9, 2}, {5, 0}, {-1, 0}, {0, 0}}) {
    auto c = codec_from_json(R"({"id":"gzip","level":)" + std::to_string(level) + "}");
    Bytes e = c->encode(sample_data(1000));
    Bytes header(e.begin(), e.begin() + 10);
    EXPECT_EQ(header, (Bytes{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, static_cast<uint8_t>(xfl), 255})) << level;
  }
}

TEST(Gzip, EqualInputGivesEqualBytes) {
  auto c = codec_from_json(R"({"id":"gzip"})");
  EXPECT_EQ(c->encode(sample_data(5000)), c->encode(sample_data(5000)));
}

TEST(Gzip, SeveralMembersAndZeroPadding) {
  auto c = codec_from_json(R"({"id":"gzip"})");
  Bytes a = sample_data(3000, 1), b = sample_data(2000, 2);
  Bytes both = concat({c->encode(a), c->encode(b), Bytes(16, 0)});
  EXPECT_EQ(c->decode(both, 5000), concat({a, b}));
  EXPECT_EQ(c->decode(both, 0), concat({a, b}));
  Bytes junk = concat({c->encode(a), Bytes{1, 2, 3}});
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'gzip'"}, [&] { c->decode(junk, 0); }));
}

TEST(Gzip, ZlibStreamIsNotGzip) {
  auto z = codec_from_json(R"({"id":"zlib"})");
  auto g = codec_from_json(R"({"id":"gzip"})");
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'gzip'"}, [&] { g->decode(z->encode(sample_data(100)), 100); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'zlib'"}, [&] { z->decode(g->encode(sample_data(100)), 100); }));
}

TEST(Zlib, BytesAfterTheStreamAreIgnoredAsPythonDoes) {
  auto c = codec_from_json(R"({"id":"zlib"})");
  Bytes data = sample_data(3000);
  Bytes e = concat({c->encode(data), Bytes{'j', 'u', 'n', 'k'}});
  EXPECT_EQ(c->decode(e, data.size()), data);
}

TEST(Zlib, StreamHeader) {
  // 0x78 then a check byte: 0x01 at level 1, 0x9c at the default, 0xda at 9.
  EXPECT_EQ(codec_from_json(R"({"id":"zlib","level":1})")->encode(sample_data(10))[1], 0x01);
  EXPECT_EQ(codec_from_json(R"({"id":"zlib","level":-1})")->encode(sample_data(10))[1], 0x9c);
  EXPECT_EQ(codec_from_json(R"({"id":"zlib","level":9})")->encode(sample_data(10))[1], 0xda);
}
#endif

#if ZARR_HAVE_BZ2
TEST(Bz2, ConcatenatedStreams) {
  auto c = codec_from_json(R"({"id":"bz2"})");
  Bytes a = sample_data(3000, 1), b = sample_data(2000, 2);
  Bytes both = concat({c->encode(a), c->encode(b)});
  EXPECT_EQ(c->decode(both, 5000), concat({a, b}));
  EXPECT_EQ(c->decode(both, 0), concat({a, b}));
}

TEST(Bz2, BlockSizeIsTheLevel) {
  EXPECT_EQ(codec_from_json(R"({"id":"bz2","level":9})")->encode(sample_data(10))[3], '9');
  EXPECT_EQ(codec_from_json(R"({"id":"bz2"})")->encode(sample_data(10))[3], '1');
}
#endif

#if ZARR_HAVE_ZSTD
// A frame whose header does not state the decoded size, as streaming
// compressors write.
Bytes zstd_frame_without_size(ByteView data) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  Bytes out(ZSTD_compressBound(data.size));
  ZSTD_outBuffer dst{out.data(), out.size(), 0};
  ZSTD_inBuffer src{data.data, data.size, 0};
  size_t rc = ZSTD_compressStream2(cctx, &dst, &src, ZSTD_e_end);
  ZSTD_freeCCtx(cctx);
  EXPECT_EQ(rc, 0u);
  out.resize(dst.pos);
  return out;
}

TEST(Zstd, FramesWithoutContentSize) {
  auto c = codec_from_json(R"({"id":"zstd"})");
  Bytes data = sample_data(200000);
  Bytes frame = zstd_frame_without_size(data);
  ASSERT_EQ(ZSTD_getFrameContentSize(frame.data(), frame.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  EXPECT_EQ(c->decode(frame, data.size()), data);
  EXPECT_EQ(c->decode(frame, 0), data);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'zstd'", "decoded more than the expected 1000 bytes"},
                         [&] { c->decode(frame, 1000); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'zstd'", "decoded 200000 bytes, expected 300000"},
                         [&] { c->decode(frame, 300000); }));
  Bytes cut(frame.begin(), frame.begin() + frame.size() / 2);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'zstd'", "truncated"}, [&] { c->decode(cut, 0); }));
}

TEST(Zstd, ConcatenatedFrames) {
  auto c = codec_from_json(R"({"id":"zstd"})");
  Bytes a = sample_data(3000, 1), b = sample_data(2000, 2);
  Bytes mixed = concat({c->encode(a), zstd_frame_without_size(b)});
  EXPECT_EQ(c->decode(mixed, 5000), concat({a, b}));
  EXPECT_EQ(c->decode(mixed, 0), concat({a, b}));
  Bytes sized = concat({c->encode(a), c->encode(b)});
  EXPECT_EQ(c->decode(sized, 5000), concat({a, b}));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"claims 5000", "expected 3000"}, [&] { c->decode(sized, 3000); }));
}

TEST(Zstd, ChecksumFlagInFrameHeader) {
  // Frame header descriptor (byte 4): bit 2 is the content checksum flag.
  Bytes plain = codec_from_json(R"({"id":"zstd"})")->encode(sample_data(1000));
  Bytes summed = codec_from_json(R"({"id":"zstd","checksum":true})")->encode(sample_data(1000));
  EXPECT_EQ(plain[4] & 4, 0);
  EXPECT_EQ(summed[4] & 4, 4);
  summed[summed.size() - 1] ^= 0xff;  // the checksum itself
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'zstd'"}, [&] { codec_from_json(R"({"id":"zstd"})")->decode(summed, 1000); }));
}
#endif

#if ZARR_HAVE_LZ4
TEST(Lz4, LittleEndianSizeHeaderThenBlock) {
  Bytes e = codec_from_json(R"({"id":"lz4"})")->encode(sample_data(0x012345));
  EXPECT_EQ(e[0], 0x45);
  EXPECT_EQ(e[1], 0x23);
  EXPECT_EQ(e[2], 0x01);
  EXPECT_EQ(e[3], 0x00);
}
#endif

#if ZARR_HAVE_LZMA
TEST(Lzma, XzAndAloneContainers) {
  Bytes data = sample_data(5000);
  auto xz = codec_from_json(R"({"id":"lzma"})");
  auto alone = codec_from_json(R"({"id":"lzma","format":2})");
  Bytes x = xz->encode(data), a = alone->encode(data);
  EXPECT_EQ(Bytes(x.begin(), x.begin() + 6), (Bytes{0xfd, '7', 'z', 'X', 'Z', 0}));
  EXPECT_EQ(a[0], 0x5d);  // lc=3, lp=0, pb=2 properties byte
  // Either container decodes whatever the configured format.
  EXPECT_EQ(xz->decode(a, data.size()), data);
  EXPECT_EQ(alone->decode(x, data.size()), data);
}

TEST(Lzma, ConcatenatedXzStreams) {
  auto c = codec_from_json(R"({"id":"lzma"})");
  Bytes a = sample_data(3000, 1), b = sample_data(2000, 2);
  EXPECT_EQ(c->decode(concat({c->encode(a), c->encode(b)}), 5000), concat({a, b}));
}

TEST(Lzma, CheckTypeInStreamHeader) {
  // Stream flags (bytes 6-7): the second byte holds the check id.
  EXPECT_EQ(codec_from_json(R"({"id":"lzma"})")->encode(sample_data(10))[7], 4);  // -1 -> CRC64
  EXPECT_EQ(codec_from_json(R"({"id":"lzma","check":0})")->encode(sample_data(10))[7], 0);
  EXPECT_EQ(codec_from_json(R"({"id":"lzma","check":10})")->encode(sample_data(10))[7], 10);
}

// format 3 (FORMAT_RAW) with every kind of filter Python's lzma module takes:
// each round-trips, the size known or not, and the config keeps the filters
// as given (numcodecs' get_config).
TEST(Lzma, RawStreamsWithEveryFilter) {
  const char* chains[] = {
      R"([{"id":33,"preset":1}])",
      R"([{"id":4611686018427387905}])",
      R"([{"id":33,"preset":2147483654,"dict_size":65536,"lc":1,"lp":2,"pb":0,"mode":1,"nice_len":32,"mf":4,"depth":8}])",
      R"([{"id":4611686018427387905,"preset":9,"mf":18,"mode":2,"nice_len":273}])",
      R"([{"id":3,"dist":4},{"id":33}])",
      R"([{"id":3},{"id":4},{"id":33,"preset":0}])",
      R"([{"id":5,"start_offset":8},{"id":33}])",
      R"([{"id":6},{"id":33}])",
      R"([{"id":7},{"id":33}])",
      R"([{"id":8},{"id":33}])",
      R"([{"id":9},{"id":3,"dist":256},{"id":4611686018427387905}])",
  };
  Bytes data = sample_data(20000, 7);
  for (const char* chain : chains) {
    SCOPED_TRACE(chain);
    std::string config = std::string(R"({"id":"lzma","format":3,"check":-1,"preset":null,"filters":)") + chain + "}";
    auto c = codec_from_json(config);
    Bytes encoded = c->encode(data);
    EXPECT_LT(encoded.size(), data.size());
    EXPECT_EQ(c->decode(encoded, data.size()), data);
    EXPECT_EQ(c->decode(encoded, 0), data);
    EXPECT_EQ(codec_from_json(c->config_json())->decode(encoded, 0), data);
    EXPECT_NE(c->config_json().find(std::string(R"("filters":)") + chain), std::string::npos) << c->config_json();
  }
}

TEST(Lzma, RawStreamsConcatenatedAndEmpty) {
  auto c = codec_from_json(R"({"id":"lzma","format":3,"filters":[{"id":33,"preset":1}]})");
  Bytes a = sample_data(3000, 1), b = sample_data(2000, 2);
  EXPECT_EQ(c->decode(concat({c->encode(a), c->encode(b)}), 5000), concat({a, b}));
  EXPECT_EQ(c->decode(c->encode(Bytes{}), 0), Bytes{});
}

// A custom chain in an .xz stream (its block header names the filters, so a
// plain config decodes it too) and a single LZMA1 filter in .lzma (whose
// first byte is the filter's lc/lp/pb).
TEST(Lzma, CustomChainsInXzAndAlone) {
  Bytes data = sample_data(20000, 8);
  auto plain = codec_from_json(R"({"id":"lzma"})");
  auto xz = codec_from_json(R"({"id":"lzma","format":1,"check":0,"filters":[{"id":3,"dist":2},{"id":33,"preset":3}]})");
  Bytes x = xz->encode(data);
  EXPECT_EQ(x[7], 0);  // check none
  EXPECT_EQ(xz->decode(x, data.size()), data);
  EXPECT_EQ(plain->decode(x, 0), data);
  auto alone = codec_from_json(R"({"id":"lzma","format":2,"filters":[{"id":4611686018427387905,"lc":1,"lp":1,"pb":1}]})");
  Bytes a = alone->encode(data);
  EXPECT_EQ(a[0], (1 * 5 + 1) * 9 + 1);  // (pb * 5 + lp) * 9 + lc
  EXPECT_EQ(alone->decode(a, 0), data);
  EXPECT_EQ(plain->decode(a, 0), data);
}

// Raw streams are bounded like the others: no more than the expected or
// allowed size is produced, and truncated or foreign input is an error.
TEST(Lzma, RawDecodingIsBoundedAndChecked) {
  auto c = codec_from_json(R"({"id":"lzma","format":3,"filters":[{"id":33,"preset":1}]})");
  Bytes bomb = c->encode(Bytes(size_t{64} << 20, 0));
  ASSERT_LT(bomb.size(), size_t{64} << 10);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lzma'", "1000"}, [&] { c->decode(bomb, 1000); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lzma'"}, [&] { c->decode_at_most(bomb, 1 << 20); }));
  Bytes good = c->encode(sample_data(5000));
  Bytes truncated(good.begin(), good.begin() + good.size() / 2);
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lzma'", "truncated"}, [&] { c->decode(truncated, 0); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lzma'"}, [&] { c->decode(Bytes{}, 0); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lzma'"}, [&] { c->decode(sample_data(300, 9), 0); }));
  auto lzma1 = codec_from_json(R"({"id":"lzma","format":3,"filters":[{"id":4611686018427387905}]})");
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'lzma'"}, [&] { lzma1->decode(Bytes(truncated.begin(), truncated.begin() + 5), 0); }));
}
#endif

#if ZARR_HAVE_BLOSC
TEST(Blosc, TypesizeAndAutoshuffleInHeader) {
  for (auto [item_size, shuffle, flag] : {std::tuple{1, -1, BLOSC_DOBITSHUFFLE}, {4, -1, BLOSC_DOSHUFFLE},
                                          {8, 1, BLOSC_DOSHUFFLE}, {2, 2, BLOSC_DOBITSHUFFLE}, {4, 0, 0}}) {
    auto c = codec_from_json(R"({"id":"blosc","shuffle":)" + std::to_string(shuffle) + "}",
                             ChunkRepr{static_cast<size_t>(item_size), 0, ""});
    Bytes e = c->encode(sample_data(8000));
    size_t typesize = 0;
    int flags = 0;
    blosc_cbuffer_metainfo(e.data(), &typesize, &flags);
    EXPECT_EQ(typesize, static_cast<size_t>(item_size));
    EXPECT_EQ(flags & (BLOSC_DOSHUFFLE | BLOSC_DOBITSHUFFLE), flag) << item_size << " " << shuffle;
  }
}

// Block-by-block decoding hands over what decode gives, in order: several
// compressors and shuffles, a short last block, blocks stored out of order.
std::vector<std::pair<uint64_t, Bytes>> pieces_of(const BytesCodec& c, ByteView encoded, size_t size, bool& used) {
  std::vector<std::pair<uint64_t, Bytes>> pieces;
  used = c.decode_in_pieces(encoded, size, [&](const uint8_t* data, uint64_t offset, size_t n) {
    pieces.emplace_back(offset, Bytes(data, data + n));
  });
  return pieces;
}

Bytes joined(const std::vector<std::pair<uint64_t, Bytes>>& pieces) {
  Bytes all;
  for (const auto& [offset, bytes] : pieces) {
    EXPECT_EQ(offset, all.size()) << "pieces out of order";
    all.insert(all.end(), bytes.begin(), bytes.end());
  }
  return all;
}

// Blocks of a blosc buffer, from its header (nbytes, blocksize).
size_t blosc_blocks(const Bytes& encoded) {
  const size_t nbytes = load_le32(encoded.data() + 4), blocksize = load_le32(encoded.data() + 8);
  return (nbytes + blocksize - 1) / blocksize;
}

constexpr size_t kManyBlocks = (size_t{1} << 20) + 34466;  // several blocks, the last one short

TEST(Blosc, BlockByBlockDecodingGivesWhatDecodeGives) {
  for (const char* config : {R"({"id":"blosc","cname":"lz4","shuffle":1,"blocksize":65536})",
                             R"({"id":"blosc","cname":"zstd","shuffle":2,"blocksize":65536})",
                             R"({"id":"blosc","cname":"blosclz","shuffle":0,"blocksize":65536})",
                             R"({"id":"blosc","cname":"lz4","shuffle":1})"}) {
    SCOPED_TRACE(config);
    auto c = codec_from_json(config, ChunkRepr{2, 0, ""});
    const Bytes data = sample_data(kManyBlocks);
    const Bytes encoded = c->encode(data);
    bool used = false;
    const auto pieces = pieces_of(*c, encoded, data.size(), used);
    ASSERT_TRUE(used);
    EXPECT_EQ(pieces.size(), blosc_blocks(encoded));
    EXPECT_GT(pieces.size(), 1u);
    EXPECT_TRUE(joined(pieces) == data);
  }
}

TEST(Blosc, BlocksStoredOutOfOrderDecodeInOrder) {
  auto c = codec_from_json(R"({"id":"blosc","cname":"lz4","shuffle":1,"blocksize":65536})", ChunkRepr{2, 0, ""});
  const Bytes data = sample_data(kManyBlocks);
  const Bytes encoded = c->encode(data);
  // Store the blocks in reverse order, as blosc's own threads may.
  const size_t table = 16, nblocks = blosc_blocks(encoded), first = table + 4 * nblocks;
  ASSERT_GE(nblocks, 4u);
  std::vector<uint32_t> begin(nblocks);
  for (size_t j = 0; j < nblocks; ++j) begin[j] = load_le32(encoded.data() + table + 4 * j);
  ASSERT_TRUE(std::is_sorted(begin.begin(), begin.end()));
  Bytes reversed(encoded.begin(), encoded.begin() + first);
  for (size_t j = nblocks; j-- > 0;) {
    const size_t end = j + 1 < nblocks ? begin[j + 1] : encoded.size();
    put_le32(reversed, table + 4 * j, static_cast<uint32_t>(reversed.size()));
    reversed.insert(reversed.end(), encoded.begin() + begin[j], encoded.begin() + end);
  }
  ASSERT_TRUE(c->decode(reversed, data.size()) == data);
  bool used = false;
  EXPECT_TRUE(joined(pieces_of(*c, reversed, data.size(), used)) == data);
  EXPECT_TRUE(used);
}

// Buffers with nothing to gain are left to the whole decoder: one block,
// stored uncompressed, or block offsets that do not describe distinct
// blocks (the whole decoder then says what is wrong).
TEST(Blosc, BlockByBlockDecodingDeclinesWhatItCannotSplit) {
  auto c = codec_from_json(R"({"id":"blosc","cname":"lz4","shuffle":1,"blocksize":65536})", ChunkRepr{2, 0, ""});
  bool used = true;
  const Bytes small = sample_data(1000);
  EXPECT_TRUE(pieces_of(*c, c->encode(small), small.size(), used).empty());
  EXPECT_FALSE(used);
  auto stored = codec_from_json(R"({"id":"blosc","clevel":0,"blocksize":65536})", ChunkRepr{2, 0, ""});
  const Bytes data = sample_data(kManyBlocks);
  EXPECT_TRUE(pieces_of(*stored, stored->encode(data), data.size(), used).empty());
  EXPECT_FALSE(used);
  Bytes duplicated = c->encode(data);
  ASSERT_GT(blosc_blocks(duplicated), 2u);
  put_le32(duplicated, 20, load_le32(duplicated.data() + 16));  // block 1 starts where block 0 does
  EXPECT_TRUE(pieces_of(*c, duplicated, data.size(), used).empty());
  EXPECT_FALSE(used);
}

TEST(Blosc, ACorruptBlockIsAnErrorNamingIt) {
  auto c = codec_from_json(R"({"id":"blosc","cname":"lz4","shuffle":1,"blocksize":65536})", ChunkRepr{2, 0, ""});
  const Bytes data = sample_data(kManyBlocks);
  Bytes encoded = c->encode(data);
  const size_t nblocks = blosc_blocks(encoded);
  ASSERT_GE(nblocks, 4u);
  const uint32_t block2 = load_le32(encoded.data() + 16 + 8);
  ASSERT_LT(block2 + 4, encoded.size());
  put_le32(encoded, block2, 0x7fffffff);  // its first stream claims 2 GiB of compressed bytes
  bool used = false;
  EXPECT_TRUE(fails_with(ZARR_ERR_CODEC, {"codec 'blosc'", "block 2 of " + std::to_string(nblocks)},
                         [&] { pieces_of(*c, encoded, data.size(), used); }));
}

TEST(Blosc, CnameIsTheInternalCompressor) {
  auto c = codec_from_json(R"({"id":"blosc","cname":"zstd"})", ChunkRepr{4, 0, ""});
  Bytes e = c->encode(sample_data(8000));
  EXPECT_STREQ(blosc_cbuffer_complib(e.data()), "Zstd");
}
#endif

}  // namespace
}  // namespace zarr::test
