// The v3 "sharding_indexed" codec: the binary format (hand-built shards and
// zarr-python 3's), round trips, empty inner chunks, nesting, corrupt input,
// configuration errors, and what partial decoding reads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <string_view>

#include "base/error.h"
#include "base/json.h"
#include "base/strided_copy.h"
#include "codecs/sharding_codec.h"
#include "codecs/v3_chain.h"
#include "codecs/vlen_codecs.h"
#include "concurrency/thread_pool.h"
#include "support/test_support.h"
#include "zarr_config.h"

using namespace zarr;

namespace {

constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();

ArrayRepr repr_of(const char* v3_type, std::vector<uint64_t> shape, Bytes fill = {}) {
  DataType t = *DataType::from_v3_name(v3_type);
  if (fill.empty()) fill = Bytes(t.item_size(), 0);
  return ArrayRepr{std::move(shape), t, std::move(fill)};
}

CodecChain chain(const std::string& codecs, const ArrayRepr& decoded) {
  rapidjson::Document doc = json::parse(codecs, "codecs");
  return make_v3_codec_chain(doc, decoded, "zarr.json: field 'codecs'");
}

std::pair<int, std::string> error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {ZARR_OK, ""};
}

// A one-codec list: sharding with this configuration body.
std::string sharding(const std::string& configuration) {
  return R"([{"name": "sharding_indexed", "configuration": )" + configuration + "}]";
}

const std::string kLE = R"({"name": "bytes", "configuration": {"endian": "little"}})";
const std::string kIndexCrc = "[" + kLE + R"(, {"name": "crc32c"}])";
const std::string kIndexPlain = "[" + kLE + "]";

std::string config(const std::string& chunk_shape, const std::string& codecs = "[" + kLE + "]",
                   const std::string& index_codecs = kIndexCrc, const std::string& location = "end") {
  return R"({"chunk_shape": )" + chunk_shape + R"(, "codecs": )" + codecs + R"(, "index_codecs": )" + index_codecs +
         R"(, "index_location": ")" + location + "\"}";
}

const ShardingCodec& codec_of(const CodecChain& c) {
  const auto* s = dynamic_cast<const ShardingCodec*>(c.array_to_bytes().get());
  if (!s) throw std::runtime_error("not a sharding codec");
  return *s;
}

template <typename T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T>
std::vector<T> values_of(const Bytes& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

std::vector<int32_t> iota32(size_t n, int32_t first = 1) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

// The index entries (offset, nbytes) of a shard whose index codecs are
// little-endian bytes (+ 4 bytes of crc32c when `crc`).
std::vector<uint64_t> raw_index(const Bytes& shard, size_t n_inner, bool at_end, bool crc) {
  const size_t size = 16 * n_inner + (crc ? 4 : 0);
  const uint8_t* p = shard.data() + (at_end ? shard.size() - size : 0);
  std::vector<uint64_t> entries(2 * n_inner);
  for (size_t i = 0; i < entries.size(); ++i) {
    uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | p[8 * i + b];
    entries[i] = v;
  }
  return entries;
}

void put_u64le(Bytes& out, uint64_t v) {
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<uint8_t>(v >> (8 * b)));
}

// CRC-32C (Castagnoli), bit by bit: the test's own reference.
uint32_t crc32c_of(const uint8_t* p, size_t n) {
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// A stored shard read through a RangeReader that records every request.
struct CountingReader {
  explicit CountingReader(std::optional<Bytes> s) : stored(std::move(s)) {}
  std::optional<Bytes> stored;
  std::mutex mutex;
  std::vector<std::pair<int64_t, uint64_t>> requests;  // (offset, bytes returned)
  uint64_t bytes_read = 0;

  ArrayToBytesCodec::RangeReader reader() {
    return [this](int64_t offset, std::optional<uint64_t> length) -> std::optional<Bytes> {
      if (!stored) return std::nullopt;
      const uint64_t size = stored->size();
      uint64_t begin, end;
      if (offset < 0) {
        begin = size - std::min<uint64_t>(size, static_cast<uint64_t>(-offset));
        end = size;
      } else {
        begin = std::min<uint64_t>(size, static_cast<uint64_t>(offset));
        end = length ? std::min<uint64_t>(size, begin + *length) : size;
      }
      std::lock_guard<std::mutex> lock(mutex);  // nested shards read from parallel tasks
      requests.emplace_back(offset, end - begin);
      bytes_read += end - begin;
      return Bytes(stored->begin() + static_cast<ptrdiff_t>(begin), stored->begin() + static_cast<ptrdiff_t>(end));
    };
  }
};

// Partial decode of a C-order box into a fresh buffer.
Bytes read_box(const CodecChain& c, CountingReader& r, std::vector<uint64_t> offset, std::vector<uint64_t> count,
               bool* present = nullptr, MemoryWrites writes = MemoryWrites::Cached) {
  const size_t item = c.decoded().dtype.item_size();
  size_t n = item;
  for (uint64_t e : count) n *= e;
  Bytes out(n, 0xee);
  bool p = c.array_to_bytes()->partial_decode(r.reader(), c.decoded(), offset, count, out.data(),
                                              c_order_strides(count, item), writes);
  if (present) *present = p;
  return out;
}

// The elements of a C-order 2-d int32 array inside a box.
std::vector<int32_t> box_of(const std::vector<int32_t>& all, uint64_t cols, uint64_t r0, uint64_t c0, uint64_t nr,
                            uint64_t nc) {
  std::vector<int32_t> out;
  for (uint64_t r = r0; r < r0 + nr; ++r) {
    for (uint64_t c = c0; c < c0 + nc; ++c) out.push_back(all[r * cols + c]);
  }
  return out;
}

}  // namespace

// ---- the format ------------------------------------------------------------------

TEST(Sharding, HandBuiltShardWithIndexAtEndDecodes) {
  // Shard [4] int16, inner chunks of 2: chunk 1 stored first, then chunk 0,
  // with 3 unused bytes between them; index = 2 x (offset, nbytes) + crc32c.
  Bytes shard = {0x03, 0x00, 0x04, 0x00, 0xaa, 0xbb, 0xcc, 0x01, 0x00, 0x02, 0x00};
  Bytes index;
  put_u64le(index, 7);
  put_u64le(index, 4);
  put_u64le(index, 0);
  put_u64le(index, 4);
  uint32_t crc = crc32c_of(index.data(), index.size());
  for (int b = 0; b < 4; ++b) index.push_back(static_cast<uint8_t>(crc >> (8 * b)));
  shard.insert(shard.end(), index.begin(), index.end());
  CodecChain c = chain(sharding(config("[2]")), repr_of("int16", {4}));
  EXPECT_EQ(values_of<int16_t>(c.decode(shard, "c/0")), (std::vector<int16_t>{1, 2, 3, 4}));
}

TEST(Sharding, HandBuiltShardWithIndexAtStartAndAnEmptyChunkDecodes) {
  // Shard [2, 2] uint8 (fill 9), inner [1, 2]: row 0 empty, row 1 stored
  // after the 32-byte index (offsets count from the start of the shard).
  Bytes shard;
  put_u64le(shard, kEmpty);
  put_u64le(shard, kEmpty);
  put_u64le(shard, 32);
  put_u64le(shard, 2);
  shard.push_back(5);
  shard.push_back(6);
  CodecChain c = chain(sharding(config("[1, 2]", R"([{"name": "bytes"}])", kIndexPlain, "start")),
                       repr_of("uint8", {2, 2}, Bytes{9}));
  EXPECT_EQ(c.decode(shard, "k"), (Bytes{9, 9, 5, 6}));
}

TEST(Sharding, EncodesInMortonOrderWithTheIndexAtTheEnd) {
  // Inner grid [2, 2]: zarr-python writes (0,0), (1,0), (0,1), (1,1).
  CodecChain c = chain(sharding(config("[1, 1]", "[" + kLE + "]", kIndexPlain)), repr_of("uint16", {2, 2}));
  Bytes stored = c.encode_bytes(bytes_of(std::vector<uint16_t>{1, 2, 3, 4}));
  ASSERT_EQ(stored.size(), 8u + 64u);
  EXPECT_EQ(Bytes(stored.begin(), stored.begin() + 8), (Bytes{1, 0, 3, 0, 2, 0, 4, 0}));
  EXPECT_EQ(raw_index(stored, 4, true, false), (std::vector<uint64_t>{0, 2, 4, 2, 2, 2, 6, 2}));
}

TEST(Sharding, IndexAtStartShiftsOffsetsPastTheIndex) {
  CodecChain c = chain(sharding(config("[2]", "[" + kLE + "]", kIndexCrc, "start")), repr_of("int32", {4}));
  Bytes stored = c.encode_bytes(bytes_of(iota32(4)));
  ASSERT_EQ(stored.size(), 36u + 16u);
  EXPECT_EQ(raw_index(stored, 2, false, true), (std::vector<uint64_t>{36, 8, 44, 8}));
  EXPECT_EQ(crc32c_of(stored.data(), 32),
            uint32_t(stored[32]) | uint32_t(stored[33]) << 8 | uint32_t(stored[34]) << 16 | uint32_t(stored[35]) << 24);
  EXPECT_EQ(values_of<int32_t>(c.decode(stored, "k")), iota32(4));
}

TEST(Sharding, EmptyInnerChunksAreMarkedAndNotStored) {
  // Shard [4, 4] int32, inner [2, 2]: only inner chunk (1, 0) holds data.
  CodecChain c = chain(sharding(config("[2, 2]")), repr_of("int32", {4, 4}));
  std::vector<int32_t> v(16, 0);
  v[8] = 7;  // row 2, column 0
  Bytes stored = c.encode_bytes(bytes_of(v));
  ASSERT_EQ(stored.size(), 16u + 68u);  // one 2x2 int32 chunk + the index with crc32c
  EXPECT_EQ(raw_index(stored, 4, true, true),
            (std::vector<uint64_t>{kEmpty, kEmpty, kEmpty, kEmpty, 0, 16, kEmpty, kEmpty}));
  EXPECT_EQ(values_of<int32_t>(c.decode(stored, "k")), v);
}

TEST(Sharding, AllFillShardIsJustTheIndex) {
  CodecChain c = chain(sharding(config("[2, 2]")), repr_of("int32", {4, 4}));
  Bytes stored = c.encode_bytes(Bytes(64, 0));
  EXPECT_EQ(stored.size(), 68u);
  EXPECT_EQ(raw_index(stored, 4, true, true), std::vector<uint64_t>(8, kEmpty));
  EXPECT_EQ(c.decode(stored, "k"), Bytes(64, 0));
}

TEST(Sharding, NonZeroFillValueIsPaintedIntoMissingChunks) {
  int32_t fill = -5;
  Bytes fill_bytes(4);
  std::memcpy(fill_bytes.data(), &fill, 4);
  CodecChain c = chain(sharding(config("[2]")), repr_of("int32", {6}, fill_bytes));
  std::vector<int32_t> v = {-5, -5, 1, 2, -5, 0};
  Bytes stored = c.encode_bytes(bytes_of(v));
  EXPECT_EQ(raw_index(stored, 3, true, true), (std::vector<uint64_t>{kEmpty, kEmpty, 0, 8, 8, 8}));
  EXPECT_EQ(values_of<int32_t>(c.decode(stored, "k")), v);
}

TEST(Sharding, NaNFillMatchesNaNInnerChunks) {
  const float nan = std::nanf("");
  Bytes fill(4);
  std::memcpy(fill.data(), &nan, 4);
  CodecChain c = chain(sharding(config("[2]")), repr_of("float32", {4}, fill));
  const float other_nan = -std::nanf("7");  // another NaN bit pattern still counts as fill
  std::vector<float> v = {nan, other_nan, 1.5f, nan};
  Bytes stored = c.encode_bytes(bytes_of(v));
  EXPECT_EQ(raw_index(stored, 2, true, true), (std::vector<uint64_t>{kEmpty, kEmpty, 0, 8}));
  std::vector<float> back = values_of<float>(c.decode(stored, "k"));
  EXPECT_TRUE(std::isnan(back[0]) && std::isnan(back[1]) && std::isnan(back[3]));
  EXPECT_EQ(back[2], 1.5f);
}

TEST(Sharding, NegativeZeroIsNotTheZeroFill) {
  CodecChain c = chain(sharding(config("[2]")), repr_of("float64", {2}));
  Bytes stored = c.encode_bytes(bytes_of(std::vector<double>{-0.0, 0.0}));
  EXPECT_EQ(stored.size(), 16u + 20u);  // one inner chunk: stored, not taken for fill
  EXPECT_TRUE(std::signbit(values_of<double>(c.decode(stored, "k"))[0]));
}

TEST(Sharding, ZeroDimensionalShardHasOneInnerChunk) {
  CodecChain c = chain(sharding(config("[]")), repr_of("int32", {}));
  EXPECT_EQ(codec_of(c).index_size(), 20u);
  Bytes stored = c.encode_bytes(bytes_of(std::vector<int32_t>{42}));
  EXPECT_EQ(values_of<int32_t>(c.decode(stored, "k")), std::vector<int32_t>{42});
}

// ---- round trips ----------------------------------------------------------------

class ShardingRoundTrip : public ::testing::TestWithParam<std::tuple<std::string, std::string, std::string>> {};

TEST_P(ShardingRoundTrip, EncodeThenDecodeGivesTheShardBack) {
  const auto& [codecs, index_codecs, location] = GetParam();
  CodecChain c = chain(sharding(config("[2, 3, 4]", codecs, index_codecs, location)), repr_of("int32", {4, 6, 8}));
  std::vector<int32_t> v = iota32(4 * 6 * 8, 0);
  for (size_t i = 0; i < 24; ++i) v[i * 3 % v.size()] = 0;  // some zeros, not whole chunks
  for (size_t i = 96; i < 120; ++i) v[i] = 0;   // with the next line: inner chunks (1, 0, *)
  for (size_t i = 144; i < 168; ++i) v[i] = 0;  // hold only the fill value
  Bytes stored = c.encode_bytes(bytes_of(v));
  EXPECT_EQ(values_of<int32_t>(c.decode(stored, "k")), v);
  EXPECT_EQ(codec_of(c).index_size(), 16u * 8u + (index_codecs == kIndexCrc ? 4u : 0u));
}

const std::string kTransposeCodecs =
    R"([{"name": "transpose", "configuration": {"order": [2, 0, 1]}}, {"name": "bytes", "configuration": {"endian": "big"}}])";

INSTANTIATE_TEST_SUITE_P(Codecs, ShardingRoundTrip,
                         ::testing::Values(std::make_tuple("[" + kLE + "]", kIndexCrc, "end"),
                                           std::make_tuple("[" + kLE + "]", kIndexCrc, "start"),
                                           std::make_tuple("[" + kLE + "]", kIndexPlain, "end"),
                                           std::make_tuple("[" + kLE + "]", kIndexPlain, "start"),
                                           std::make_tuple(kTransposeCodecs, kIndexCrc, "end")
#if ZARR_HAVE_ZLIB
                                               ,
                                           std::make_tuple("[" + kLE + R"(, {"name": "gzip", "configuration": {"level": 5}}])",
                                                           kIndexCrc, "end"),
                                           std::make_tuple("[" + kLE + R"(, {"name": "gzip", "configuration": {"level": 1}}, {"name": "crc32c"}])",
                                                           kIndexPlain, "start")
#endif
#if ZARR_HAVE_ZSTD
                                               ,
                                           std::make_tuple("[" + kLE + R"(, {"name": "zstd", "configuration": {"level": 3, "checksum": true}}])",
                                                           kIndexCrc, "start")
#endif
                                               ));

TEST(Sharding, TransposeBeforeShardingShardsTheTransposedChunk) {
  // transpose [1, 0] then sharding: the codec sees a [3, 2] shard.
  CodecChain c = chain(R"([{"name": "transpose", "configuration": {"order": [1, 0]}},
                           {"name": "sharding_indexed", "configuration": {"chunk_shape": [1, 2]}}])",
                       repr_of("int32", {2, 3}));
  EXPECT_EQ(codec_of(c).chunks_per_shard(), (std::vector<uint64_t>{3, 1}));
  std::vector<int32_t> v = iota32(6);
  EXPECT_EQ(values_of<int32_t>(c.decode(c.encode_bytes(bytes_of(v)), "k")), v);
}

TEST(Sharding, BytesToBytesCodecsAfterShardingDecodeWholeShards) {
  CodecChain c = chain(R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2]}}, {"name": "crc32c"}])",
                       repr_of("int32", {4}));
  EXPECT_FALSE(c.partial_reads());
  std::vector<int32_t> v = {0, 0, 5, 6};
  Bytes stored = c.encode_bytes(bytes_of(v));
  EXPECT_EQ(stored.size(), 8u + 36u + 4u);
  EXPECT_EQ(values_of<int32_t>(c.decode(stored, "k")), v);
  stored[0] ^= 1;
  EXPECT_EQ(error_of([&] { c.decode(stored, "k"); }).first, ZARR_ERR_CODEC);
}

TEST(Sharding, NestedShardingRoundTripsAndReadsPartially) {
  const std::string inner = R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 2],
      "codecs": [)" + kLE + R"(], "index_codecs": )" + kIndexCrc + R"(, "index_location": "start"}}])";
  CodecChain c = chain(sharding(config("[4, 4]", inner)), repr_of("int32", {8, 8}));
  EXPECT_TRUE(codec_of(c).inner_chain().partial_reads());
  std::vector<int32_t> v = iota32(64);
  for (size_t i = 32; i < 64; ++i) v[i] = 0;  // the lower half: two empty outer inner chunks
  v[0] = 0;                                  // inner-inner chunk (0,0) keeps 3 values
  Bytes stored = c.encode_bytes(bytes_of(v));
  EXPECT_EQ(values_of<int32_t>(c.decode(stored, "k")), v);
  // One element of inner chunk (0, 1), inside its inner-inner chunk (1, 0):
  // the outer index, the inner index, 16 bytes of one innermost chunk.
  CountingReader r{stored};
  EXPECT_EQ(values_of<int32_t>(read_box(c, r, {3, 5}, {1, 1})), std::vector<int32_t>{v[3 * 8 + 5]});
  EXPECT_EQ(r.requests.size(), 3u);
  EXPECT_EQ(r.bytes_read, 68u + 68u + 16u);
  CountingReader all{stored};
  EXPECT_EQ(values_of<int32_t>(read_box(c, all, {1, 1}, {6, 7})), box_of(v, 8, 1, 1, 6, 7));
  EXPECT_EQ(all.requests.size(), 1u);  // every inner chunk needed: the shard whole
  std::string json = codec_of(c).v3_config_json();
  EXPECT_NE(json.find(R"("codecs":[{"name":"sharding_indexed","configuration":{"chunk_shape":[2,2])"), std::string::npos)
      << json;
}

// Streaming stores (large region reads) copy inner chunks whose rows are long
// enough to stream (128 bytes here) exactly as cached ones, at any alignment,
// from a shard in memory (decode_box) and from ranges of it (partial_decode).
TEST(Sharding, DecodeBoxWithStreamingStoresWritesTheSameBytes) {
  CodecChain c = chain(sharding(config("[2, 32]")), repr_of("int32", {4, 64}));
  const Bytes stored = c.encode_bytes(bytes_of(iota32(256)));
  const std::vector<std::pair<std::vector<uint64_t>, std::vector<uint64_t>>> boxes = {
      {{0, 0}, {4, 64}}, {{1, 3}, {3, 60}}, {{0, 32}, {2, 32}}};
  for (const auto& [offset, count] : boxes) {
    for (size_t misalign : {0, 4, 12}) {
      const size_t size = count[0] * count[1] * 4;
      Bytes cached(size + misalign + 16, 0xee), streamed(size + misalign + 16, 0xee);
      const std::vector<int64_t> strides = c_order_strides(count, 4);
      c.array_to_bytes()->decode_box(stored, c.decoded(), offset, count, cached.data() + misalign, strides,
                                     MemoryWrites::Cached);
      c.array_to_bytes()->decode_box(stored, c.decoded(), offset, count, streamed.data() + misalign, strides,
                                     MemoryWrites::Streaming);
      EXPECT_EQ(streamed, cached) << "box at " << offset[0] << "," << offset[1] << ", +" << misalign << " bytes";
    }
    CountingReader cached_reads{stored}, streamed_reads{stored};
    EXPECT_EQ(read_box(c, streamed_reads, offset, count, nullptr, MemoryWrites::Streaming),
              read_box(c, cached_reads, offset, count))
        << "partial decode of the box at " << offset[0] << "," << offset[1];
  }
}

// decode_box (the shard whole in memory) gives what partial_decode gives, for
// boxes cutting inner chunks, whole inner chunks and the whole shard, with one
// thread and several decoding the inner chunks.
TEST(Sharding, DecodeBoxMatchesPartialDecodeWithAnyThreadCount) {
  CodecChain c = chain(sharding(config("[2, 3]")), repr_of("int32", {8, 9}));
  std::vector<int32_t> v = iota32(72);
  for (size_t i = 0; i < 9; ++i) v[i] = 0;  // some inner chunks stay empty (fill)
  v[4] = 0;
  const Bytes stored = c.encode_bytes(bytes_of(v));
  const std::vector<std::pair<std::vector<uint64_t>, std::vector<uint64_t>>> boxes = {
      {{0, 0}, {8, 9}}, {{1, 1}, {6, 7}}, {{2, 3}, {2, 3}}, {{7, 8}, {1, 1}}, {{0, 0}, {2, 9}}};
  for (size_t threads : {1, 4}) {
    set_thread_count(threads);
    for (const auto& [offset, count] : boxes) {
      SCOPED_TRACE(std::to_string(threads) + " threads, box at " + std::to_string(offset[0]) + "," +
                   std::to_string(offset[1]));
      CountingReader r{stored};
      const Bytes expected = read_box(c, r, offset, count);
      for (MemoryWrites writes : {MemoryWrites::Cached, MemoryWrites::Streaming}) {
        Bytes out(expected.size(), 0xee);
        c.array_to_bytes()->decode_box(stored, c.decoded(), offset, count, out.data(), c_order_strides(count, 4),
                                       writes);
        EXPECT_EQ(out, expected);
        EXPECT_EQ(values_of<int32_t>(out), box_of(v, 9, offset[0], offset[1], count[0], count[1]));
      }
    }
  }
  set_thread_count(0);
}

TEST(Sharding, VariableLengthStringsRoundTrip) {
  DataType t = DataType::parse_v3(json::parse("\"string\"", "t"), "t");
  ArrayRepr r{{3, 2}, t, Bytes{'x'}};
  CodecChain c = chain(R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [1, 2],
                           "codecs": [{"name": "vlen-utf8", "configuration": {}}]}}])",
                       r);
  EXPECT_FALSE(c.partial_reads());
  Bytes packed = vlen::pack({"a", "", "x", "x", "héllo", "x"});
  Bytes stored = c.encode_bytes(packed);
  EXPECT_EQ(raw_index(stored, 3, true, true)[2], kEmpty);  // row 1 is fill only
  EXPECT_EQ(c.decode(stored, "k"), packed);
  auto [code, message] = error_of([&] {
    chain(R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [1, 2]}}])", ArrayRepr{{3, 2}, t, {}});
  });
  EXPECT_EQ(code, ZARR_OK) << message;  // the default inner codec is vlen-utf8
  std::tie(code, message) = error_of([&] { chain(sharding(config("[1, 2]")), r); });
  EXPECT_EQ(code, ZARR_ERR_INVALID_METADATA);
  EXPECT_NE(message.find("vlen-utf8"), std::string::npos) << message;
}

// ---- zarr-python 3's shards -------------------------------------------------------

TEST(Sharding, ZarrPythonShardDecodesAndReencodesToTheSameBytes) {
  const std::string peer = test::peer_data_dir();
  if (peer.empty()) GTEST_SKIP() << "no peer data at " << test::peer_data_expected_location();
  // 3d.chunked.compressed.sharded.i2: shape [4,4,4], shards [2,2,2], inner [1,1,1], gzip 5.
  const std::string path = peer + "/zarrita-fixtures/v3/data.zarr/3d.chunked.compressed.sharded.i2/c/0/0/1";
  if (!test::file_exists(path)) GTEST_SKIP() << "missing " << path;
  Bytes stored = test::read_file(path);
  CodecChain c = chain(sharding(config("[1, 1, 1]", "[" + kLE + R"(, {"name": "gzip", "configuration": {"level": 5}}])")),
                       repr_of("int16", {2, 2, 2}));
  // Shard (0,0,1) holds elements x*16 + y*4 + z for x, y in 0..1 and z in 2..3.
  std::vector<int16_t> expected;
  for (int x = 0; x < 2; ++x)
    for (int y = 0; y < 2; ++y)
      for (int z = 2; z < 4; ++z) expected.push_back(static_cast<int16_t>(x * 16 + y * 4 + z));
  Bytes decoded = c.decode(stored, "c/0/0/1");
  EXPECT_EQ(values_of<int16_t>(decoded), expected);
#if ZARR_HAVE_ZLIB
  // Our gzip writes mtime 0 where Python wrote the time: blank it, then the
  // layout (Morton order), the index and its crc32c must match byte for byte.
  const std::vector<uint64_t> entries = raw_index(stored, 8, true, true);
  for (size_t i = 0; i < 8; ++i) std::fill_n(stored.begin() + static_cast<ptrdiff_t>(entries[2 * i] + 4), 4, 0);
  EXPECT_EQ(c.encode_bytes(decoded), stored);
#endif
}

// Found by fuzz_v3_metadata: 66666662 one-element inner chunks per shard
// made opening the array allocate gigabytes of index. At most 2^22 inner
// chunks (a 64 MiB index) per shard; 2^22 itself is fine.
TEST(Sharding, MoreInnerChunksThanTheIndexLimitIsInvalidMetadata) {
  auto [code, msg] = error_of([] { chain(sharding(config("[1]")), repr_of("int16", {66666662})); });
  EXPECT_EQ(code, ZARR_ERR_INVALID_METADATA);
  EXPECT_NE(msg.find("66666662 inner chunks per shard make an index too large to hold (at most 4194304"),
            std::string::npos)
      << msg;
  EXPECT_EQ(error_of([] { chain(sharding(config("[1]", "[" + kLE + "]", kIndexPlain)), repr_of("int8", {4194304})); })
                .first,
            ZARR_OK);
}

// ---- corrupt shards ------------------------------------------------------------------

TEST(Sharding, CorruptIndexIsACodecErrorNamingTheInnerChunk) {
  CodecChain c = chain(sharding(config("[2]", "[" + kLE + "]", kIndexPlain)), repr_of("int32", {4}));
  Bytes good = c.encode_bytes(bytes_of(iota32(4)));  // 16 bytes of data + 32 of index
  auto patch = [&](size_t entry, uint64_t value) {
    Bytes b = good;
    for (int k = 0; k < 8; ++k) b[16 + 8 * entry + k] = static_cast<uint8_t>(value >> (8 * k));
    return b;
  };
  // Offset past the end, length past the end, overflowing sum, half-empty entry.
  for (const Bytes& bad : {patch(2, 100), patch(3, 1000), patch(2, kEmpty - 3), patch(3, kEmpty)}) {
    auto [code, message] = error_of([&] { c.decode(bad, "k"); });
    EXPECT_EQ(code, ZARR_ERR_CODEC) << message;
    EXPECT_NE(message.find("inner chunk [1]"), std::string::npos) << message;
    CountingReader r{bad};
    std::tie(code, message) = error_of([&] { read_box(c, r, {3}, {1}); });
    EXPECT_EQ(code, ZARR_ERR_CODEC) << message;
    EXPECT_NE(message.find("inner chunk [1]"), std::string::npos) << message;
  }
  // Shorter than the index.
  auto [code, message] = error_of([&] { c.decode(Bytes(good.begin(), good.begin() + 20), "k"); });
  EXPECT_EQ(code, ZARR_ERR_CODEC);
  EXPECT_NE(message.find("index"), std::string::npos) << message;
  CountingReader r{Bytes(10, 0)};
  EXPECT_EQ(error_of([&] { read_box(c, r, {0}, {1}); }).first, ZARR_ERR_CODEC);
}

TEST(Sharding, BadIndexChecksumIsACodecError) {
  CodecChain c = chain(sharding(config("[2]")), repr_of("int32", {4}));
  Bytes stored = c.encode_bytes(bytes_of(iota32(4)));
  stored[16] ^= 0x01;  // first index byte
  auto [code, message] = error_of([&] { c.decode(stored, "k"); });
  EXPECT_EQ(code, ZARR_ERR_CODEC);
  EXPECT_NE(message.find("shard index"), std::string::npos) << message;
  CountingReader r{stored};
  EXPECT_EQ(error_of([&] { read_box(c, r, {0}, {1}); }).first, ZARR_ERR_CODEC);
}

TEST(Sharding, CorruptInnerChunkNamesIt) {
#if ZARR_HAVE_ZLIB
  CodecChain c = chain(sharding(config("[2]", "[" + kLE + R"(, {"name": "gzip", "configuration": {"level": 1}}])")),
                       repr_of("int32", {4}));
  Bytes stored = c.encode_bytes(bytes_of(iota32(4)));
  const std::vector<uint64_t> entries = raw_index(stored, 2, true, true);
  stored[entries[2] + 12] ^= 0xff;  // inside inner chunk [1]'s deflate data
  auto [code, message] = error_of([&] { c.decode(stored, "k"); });
  EXPECT_EQ(code, ZARR_ERR_CODEC);
  EXPECT_NE(message.find("inner chunk [1]"), std::string::npos) << message;
#else
  GTEST_SKIP() << "built without zlib";
#endif
}

// ---- configuration ---------------------------------------------------------------------

TEST(Sharding, ConfigurationJsonIsZarrPythonsWithDefaultsFilledIn) {
  CodecChain c = chain(R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 2]}}])",
                       repr_of("float64", {4, 4}));
  EXPECT_EQ(v3_codecs_json(c),
            R"([{"name":"sharding_indexed","configuration":{"chunk_shape":[2,2],)"
            R"("codecs":[{"name":"bytes","configuration":{"endian":"little"}}],)"
            R"("index_codecs":[{"name":"bytes","configuration":{"endian":"little"}},{"name":"crc32c"}],)"
            R"("index_location":"end"}}])");
  CodecChain u8 = chain(R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2], "index_location": "start"}}])",
                        repr_of("uint8", {4}));
  EXPECT_EQ(u8.array_to_bytes()->v3_config_json(),
            R"({"name":"sharding_indexed","configuration":{"chunk_shape":[2],"codecs":[{"name":"bytes"}],)"
            R"("index_codecs":[{"name":"bytes","configuration":{"endian":"little"}},{"name":"crc32c"}],)"
            R"("index_location":"start"}})");
}

TEST(Sharding, ConfigurationErrorsNameTheField) {
  const ArrayRepr r = repr_of("int32", {4, 6});
  struct Case {
    std::string codecs;
    int code;
    std::string fragment;
  };
  const std::vector<Case> cases = {
      {R"([{"name": "sharding_indexed"}])", ZARR_ERR_INVALID_METADATA, "'configuration' is required"},
      {sharding(R"({"codecs": []})"), ZARR_ERR_INVALID_METADATA, "chunk_shape"},
      {sharding(R"({"chunk_shape": [2]})"), ZARR_ERR_INVALID_METADATA, "field 'chunk_shape' [2] has 1 dimensions"},
      {sharding(R"({"chunk_shape": [2, 4]})"), ZARR_ERR_INVALID_METADATA, "field 'chunk_shape' [2, 4] must divide"},
      {sharding(R"({"chunk_shape": [2, 0]})"), ZARR_ERR_INVALID_METADATA, "field 'chunk_shape' item 1 must be positive"},
      {sharding(R"({"chunk_shape": [2, -3]})"), ZARR_ERR_INVALID_METADATA, "chunk_shape"},
      {sharding(R"({"chunk_shape": [2, 3], "index_location": "middle"})"), ZARR_ERR_INVALID_METADATA,
       "field 'index_location' must be \"start\" or \"end\""},
      {sharding(R"({"chunk_shape": [2, 3], "index_location": 1})"), ZARR_ERR_INVALID_METADATA, "index_location"},
      {sharding(R"({"chunk_shape": [2, 3], "shard_order": "morton"})"), ZARR_ERR_INVALID_METADATA,
       "unknown configuration member \"shard_order\""},
      {sharding(R"({"chunk_shape": [2, 3], "codecs": [{"name": "gzip"}]})"), ZARR_ERR_INVALID_METADATA,
       "field 'codecs'"},
      {sharding(R"({"chunk_shape": [2, 3], "codecs": [)" + kLE + R"(, {"name": "nonesuch"}]})"), ZARR_ERR_UNSUPPORTED,
       "nonesuch"},
      {sharding(R"({"chunk_shape": [2, 3], "index_codecs": [{"name": "crc32c"}]})"), ZARR_ERR_INVALID_METADATA,
       "field 'index_codecs'"},
#if ZARR_HAVE_ZLIB
      {sharding(R"({"chunk_shape": [2, 3], "index_codecs": [)" + kLE + R"(, {"name": "gzip", "configuration": {"level": 1}}]})"),
       ZARR_ERR_INVALID_METADATA, "field 'index_codecs': the index must encode to a fixed size"},
#endif
  };
  for (const Case& k : cases) {
    auto [code, message] = error_of([&] { chain(k.codecs, r); });
    EXPECT_EQ(code, k.code) << k.codecs << "\n" << message;
    EXPECT_NE(message.find(k.fragment), std::string::npos) << message;
    EXPECT_NE(message.find("sharding_indexed"), std::string::npos) << message;
  }
}

// ---- partial reads ------------------------------------------------------------------------

TEST(ShardingPartial, SmallRegionReadsTheIndexAndOneInnerChunk) {
  // A 512 x 512 int32 shard (1 MiB) in 64 x 64 inner chunks of 16 KiB.
  CodecChain c = chain(sharding(config("[64, 64]")), repr_of("int32", {512, 512}));
  std::vector<int32_t> v = iota32(512 * 512);
  CountingReader r{c.encode_bytes(bytes_of(v))};
  const uint64_t index = 64 * 16 + 4;
  EXPECT_EQ(codec_of(c).index_size(), index);
  EXPECT_EQ(values_of<int32_t>(read_box(c, r, {100, 70}, {10, 20})), box_of(v, 512, 100, 70, 10, 20));
  ASSERT_EQ(r.requests.size(), 2u);
  EXPECT_EQ(r.requests[0], std::make_pair(-static_cast<int64_t>(index), index));  // a suffix read
  EXPECT_EQ(r.bytes_read, index + 64 * 64 * 4);
}

TEST(ShardingPartial, NeighbouringInnerChunksAreOneRequest) {
  CodecChain c = chain(sharding(config("[64, 64]", "[" + kLE + "]", kIndexCrc, "start")), repr_of("int32", {512, 512}));
  std::vector<int32_t> v = iota32(512 * 512);
  CountingReader r{c.encode_bytes(bytes_of(v))};
  // Inner chunks (0,0), (1,0), (0,1), (1,1): the first four in Morton order.
  EXPECT_EQ(values_of<int32_t>(read_box(c, r, {60, 60}, {10, 10})), box_of(v, 512, 60, 60, 10, 10));
  ASSERT_EQ(r.requests.size(), 2u);
  EXPECT_EQ(r.requests[0], std::make_pair(int64_t{0}, uint64_t{64 * 16 + 4}));  // index at the start
  EXPECT_EQ(r.bytes_read, 64u * 16 + 4 + 4 * 16384);
}

TEST(ShardingPartial, DistantInnerChunksAreSeparateRequests) {
  CodecChain c = chain(sharding(config("[64, 64]")), repr_of("int32", {512, 512}));
  std::vector<int32_t> v = iota32(512 * 512);
  CountingReader r{c.encode_bytes(bytes_of(v))};
  // Column 10 of rows 0..511 touches the 8 inner chunks (i, 0), which lie
  // 16 KiB * 4^k apart in Morton order: (0,0)(1,0) adjacent, then gaps.
  EXPECT_EQ(values_of<int32_t>(read_box(c, r, {0, 10}, {512, 1})), box_of(v, 512, 0, 10, 512, 1));
  uint64_t needed = 64 * 16 + 4 + 8 * 16384;
  EXPECT_GE(r.bytes_read, needed);
  // Gaps up to kShardCoalesceMaxGap may be read through; nothing else.
  EXPECT_LE(r.bytes_read, needed + 7 * kShardCoalesceMaxGap);
  EXPECT_GT(r.requests.size(), 2u);
}

TEST(ShardingPartial, CompressedChunksAndEmptyOnesReadOnlyWhatExists) {
#if ZARR_HAVE_ZLIB
  CodecChain c = chain(sharding(config("[16, 16]", "[" + kLE + R"(, {"name": "gzip", "configuration": {"level": 1}}])")),
                       repr_of("int32", {64, 64}));
  std::vector<int32_t> v(64 * 64, 0);
  for (size_t i = 0; i < 16; ++i) v[20 * 64 + 40 + i % 8] = static_cast<int32_t>(i + 1);  // inner chunk (1, 2)
  Bytes stored = c.encode_bytes(bytes_of(v));
  const std::vector<uint64_t> entries = raw_index(stored, 16, true, true);
  CountingReader r{stored};
  // Inner chunks (1, 1) (empty) and (1, 2): the index, then one chunk.
  EXPECT_EQ(values_of<int32_t>(read_box(c, r, {18, 30}, {6, 20})), box_of(v, 64, 18, 30, 6, 20));
  ASSERT_EQ(r.requests.size(), 2u);
  EXPECT_EQ(r.bytes_read, 16u * 16 + 4 + entries[2 * 6 + 1]);
#else
  GTEST_SKIP() << "built without zlib";
#endif
}

TEST(ShardingPartial, AbsentShardReturnsFalseAndTouchesNothing) {
  CodecChain c = chain(sharding(config("[2, 2]")), repr_of("int32", {4, 4}));
  CountingReader r{std::nullopt};
  bool present = true;
  Bytes out = read_box(c, r, {1, 1}, {2, 2}, &present);
  EXPECT_FALSE(present);
  EXPECT_EQ(out, Bytes(16, 0xee));
}

TEST(ShardingPartial, WritesThroughTheCallersStrides) {
  CodecChain c = chain(sharding(config("[2, 2]")), repr_of("int16", {4, 4}));
  std::vector<int16_t> v(16);
  std::iota(v.begin(), v.end(), int16_t{1});
  v[0] = v[1] = v[4] = v[5] = 0;  // inner chunk (0, 0) empty
  CountingReader r{c.encode_bytes(bytes_of(v))};
  // Box rows 0..2, cols 1..3 written in Fortran order into a 3 x 3 buffer.
  std::vector<int16_t> out(9, -1);
  ASSERT_TRUE(c.array_to_bytes()->partial_decode(r.reader(), c.decoded(), {0, 1}, {3, 3},
                                                 reinterpret_cast<uint8_t*>(out.data()), f_order_strides({3, 3}, 2),
                                                 MemoryWrites::Cached));
  std::vector<int16_t> expected;
  for (int col = 1; col < 4; ++col)
    for (int row = 0; row < 3; ++row) expected.push_back(v[static_cast<size_t>(row * 4 + col)]);
  EXPECT_EQ(out, expected);
}

TEST(ShardingPartial, EveryInnerChunkNeededReadsTheShardOnce) {
  CodecChain c = chain(sharding(config("[2, 2]")), repr_of("int32", {4, 4}));
  std::vector<int32_t> v = iota32(16);
  CountingReader r{c.encode_bytes(bytes_of(v))};
  EXPECT_EQ(values_of<int32_t>(read_box(c, r, {1, 1}, {3, 3})), box_of(v, 4, 1, 1, 3, 3));
  ASSERT_EQ(r.requests.size(), 1u);
  EXPECT_EQ(r.requests[0].first, 0);
}
