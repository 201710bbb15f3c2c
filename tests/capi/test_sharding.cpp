// Sharded Zarr v3 arrays ("sharding_indexed") through the C API: writing
// whole and partial shards, fill values, erased shards, concurrent writers of
// one shard, corrupt shards, and every sharded array zarr-python 3 wrote in
// ../shared/peer-data read to the values its peers read.
#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

// A v3 zarr.json of a sharded array: shards of `shard` elements holding inner
// chunks of `inner`, with the inner codecs given (JSON list).
std::string sharded_meta(const std::string& shape, const std::string& shard, const std::string& inner,
                         const std::string& type = "int32", const std::string& fill = "0",
                         const std::string& inner_codecs = R"([{"name": "bytes", "configuration": {"endian": "little"}}])",
                         const std::string& location = "end") {
  return R"({"zarr_format": 3, "node_type": "array", "shape": )" + shape + R"(, "data_type": ")" + type +
         R"(", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": )" + shard +
         R"(}}, "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}, "fill_value": )" + fill +
         R"(, "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": )" + inner +
         R"(, "codecs": )" + inner_codecs +
         R"(, "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}], )"
         R"("index_location": ")" + location + R"("}}]})";
}

std::string gzip_codecs() {
  return R"([{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}])";
}

std::vector<int32_t> iota32(size_t n, int32_t first = 1) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

std::vector<int32_t> box_of(const std::vector<int32_t>& all, uint64_t cols, uint64_t r0, uint64_t c0, uint64_t nr,
                            uint64_t nc) {
  std::vector<int32_t> out;
  for (uint64_t r = r0; r < r0 + nr; ++r) {
    for (uint64_t c = c0; c < c0 + nc; ++c) out.push_back(all[r * cols + c]);
  }
  return out;
}

std::string text_of(const std::string& path) {
  zarr::Bytes b = read_file(path);
  return std::string(b.begin(), b.end());
}

}  // namespace

TEST(Sharding, WholeAndPartialShardWritesReadBack) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", sharded_meta("[8, 12]", "[4, 6]", "[2, 3]"));
  std::vector<int32_t> v = iota32(96);
  EXPECT_EQ(write_then_read_all<int32_t>(a, {0, 0}, {8, 12}, v), v);
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{"c/0/0", "c/0/1", "c/1/0", "c/1/1", "zarr.json"}));
  // 4 inner chunks of 6 int32 + a 4-entry index with crc32c.
  EXPECT_EQ(read_file(dir / "a/c/0/0").size(), 4u * 24u + 4u * 16u + 4u);

  // A region across all four shards, partly covering inner chunks.
  std::vector<int32_t> patch(5 * 7);
  std::iota(patch.begin(), patch.end(), 1000);
  ASSERT_OK(write_region(a, {2, 3}, {5, 7}, patch));
  for (uint64_t r = 0; r < 5; ++r) {
    for (uint64_t c = 0; c < 7; ++c) v[(2 + r) * 12 + 3 + c] = patch[r * 7 + c];
  }
  EXPECT_EQ(read_all<int32_t>(a), v);
  ArrayPtr again = open_array(dir / "a");
  EXPECT_EQ(read_all<int32_t>(again), v);
  // Reads of parts of shards (the partial read path).
  EXPECT_EQ(read_region<int32_t>(again, {1, 1}, {3, 3}), box_of(v, 12, 1, 1, 3, 3));
  EXPECT_EQ(read_region<int32_t>(again, {5, 7}, {1, 1}), box_of(v, 12, 5, 7, 1, 1));
  EXPECT_EQ(read_region<int32_t>(again, {3, 0}, {4, 12}), box_of(v, 12, 3, 0, 4, 12));
}

TEST(Sharding, CompressedInnerChunksAndIndexAtStart) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", sharded_meta("[10, 10]", "[10, 10]", "[5, 2]", "int32", "0", gzip_codecs(), "start"));
  std::vector<int32_t> v = iota32(100);
  EXPECT_EQ(write_then_read_all<int32_t>(a, {0, 0}, {10, 10}, v), v);
  EXPECT_EQ(read_region<int32_t>(open_array(dir / "a"), {4, 3}, {2, 5}), box_of(v, 10, 4, 3, 2, 5));
}

// A handle keeps the index of a shard it read in part; when another writer
// (another handle here, another process alike) replaces the shard, the kept
// index no longer matches and must not be used: the inner chunks moved.
TEST(Sharding, AShardReplacedByAnotherWriterIsNotReadThroughItsOldIndex) {
  TempDir dir;
  const std::string url = dir / "a";
  ArrayPtr writer = create_array(url, sharded_meta("[10, 10]", "[10, 10]", "[5, 2]", "int32", "0", gzip_codecs()));
  std::vector<int32_t> smooth = iota32(100);
  ASSERT_OK(write_region(writer, {0, 0}, {10, 10}, smooth));
  ArrayPtr reader = open_array(url);
  EXPECT_EQ(read_region<int32_t>(reader, {4, 3}, {2, 5}), box_of(smooth, 10, 4, 3, 2, 5));
  // Values that compress differently: every inner chunk changes size and place.
  std::vector<int32_t> rough(100);
  std::mt19937 random(7);
  for (int32_t& x : rough) x = static_cast<int32_t>(random());
  for (int round = 0; round < 3; ++round) {
    const std::vector<int32_t>& now = round % 2 == 0 ? rough : smooth;
    ASSERT_OK(write_region(writer, {0, 0}, {10, 10}, now));
    EXPECT_EQ(read_region<int32_t>(reader, {4, 3}, {2, 5}), box_of(now, 10, 4, 3, 2, 5)) << "round " << round;
    EXPECT_EQ(read_region<int32_t>(reader, {0, 0}, {3, 3}), box_of(now, 10, 0, 0, 3, 3)) << "round " << round;
  }
}

TEST(Sharding, EdgeShardsOfARaggedArray) {
  TempDir dir;
  // Shape 7 x 5 in shards of 4 x 4: edge shards hang over the array; their
  // inner chunks wholly outside it hold the fill value and are not stored.
  ArrayPtr a = create_array(dir / "a", sharded_meta("[7, 5]", "[4, 4]", "[2, 2]", "int32", "-1"));
  std::vector<int32_t> v = iota32(35);
  EXPECT_EQ(write_then_read_all<int32_t>(a, {0, 0}, {7, 5}, v), v);
  // Shard (1, 1) holds rows 4..6, column 4: inner chunks (0, 0) and (1, 0) only.
  EXPECT_EQ(read_file(dir / "a/c/1/1").size(), 2u * 16u + 4u * 16u + 4u);
  EXPECT_EQ(read_region<int32_t>(a, {5, 3}, {2, 2}), box_of(v, 5, 5, 3, 2, 2));
}

TEST(Sharding, UnwrittenShardsAndInnerChunksReadAsFill) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", sharded_meta("[8, 8]", "[4, 4]", "[2, 2]", "int32", "7"));
  ASSERT_OK(write_region<int32_t>(a, {5, 5}, {1, 2}, {1, 2}));
  std::vector<int32_t> expected(64, 7);
  expected[5 * 8 + 5] = 1;
  expected[5 * 8 + 6] = 2;
  EXPECT_EQ(read_all<int32_t>(a), expected);
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{"c/1/1", "zarr.json"}));
  // Local (1, 1) and (1, 2) of the shard: inner chunks (0, 0) and (0, 1)
  // stored, the other two marked empty.
  EXPECT_EQ(read_file(dir / "a/c/1/1").size(), 2u * 16u + 4u * 16u + 4u);
  EXPECT_EQ(read_region<int32_t>(a, {0, 0}, {2, 3}), std::vector<int32_t>(6, 7));
  EXPECT_EQ(read_region<int32_t>(a, {4, 4}, {2, 2}), (std::vector<int32_t>{7, 7, 7, 1}));
}

TEST(Sharding, ShardIsErasedWhenEveryInnerChunkReturnsToFill) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", sharded_meta("[8]", "[8]", "[2]", "int32", "0", gzip_codecs()));
  ASSERT_OK(write_region<int32_t>(a, {1}, {4}, {1, 2, 3, 4}));
  EXPECT_TRUE(file_exists(dir / "a/c/0"));
  ASSERT_OK(write_region<int32_t>(a, {1}, {2}, {0, 0}));
  EXPECT_TRUE(file_exists(dir / "a/c/0"));
  ASSERT_OK(write_region<int32_t>(a, {3}, {2}, {0, 0}));
  EXPECT_FALSE(file_exists(dir / "a/c/0"));
  EXPECT_EQ(read_all<int32_t>(a), std::vector<int32_t>(8, 0));
}

TEST(Sharding, NaNFillInnerChunksAreNotStored) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", sharded_meta("[8]", "[8]", "[4]", "float64", "\"NaN\""));
  const double nan = std::nan("");
  ASSERT_OK(write_region<double>(a, {0}, {8}, {nan, nan, nan, nan, 1, 2, nan, nan}));
  EXPECT_EQ(read_file(dir / "a/c/0").size(), 32u + 2u * 16u + 4u);
  ASSERT_OK(write_region<double>(a, {4}, {2}, {nan, nan}));
  EXPECT_FALSE(file_exists(dir / "a/c/0"));
}

TEST(Sharding, StoredMetadataKeepsZarrPythonsConfiguration) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a",
      R"({"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "uint16", "fill_value": 0,
          "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
          "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [2]}}]})");
  std::string stored = text_of(dir / "a/zarr.json");
  const char* const keys[] = {"\"chunk_shape\"", "\"codecs\": [", "\"index_codecs\": [",
                              "\"name\": \"crc32c\"", "\"index_location\": \"end\""};
  size_t at = stored.find("\"sharding_indexed\"");
  ASSERT_NE(at, std::string::npos) << stored;
  for (const char* key : keys) {
    size_t next = stored.find(key, at);
    EXPECT_NE(next, std::string::npos) << key << " after offset " << at << " in\n" << stored;
    at = next == std::string::npos ? at : next;
  }
  EXPECT_EQ(write_then_read_all<uint16_t>(a, {0}, {4}, {1, 2, 3, 4}), (std::vector<uint16_t>{1, 2, 3, 4}));
  EXPECT_EQ(metadata_of(open_array(dir / "a")), stored);
}

TEST(Sharding, NestedShardingThroughTheApi) {
  TempDir dir;
  const std::string inner = R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 2],
      "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
      "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}], "index_location": "start"}}])";
  ArrayPtr a = create_array(dir / "a", sharded_meta("[8, 8]", "[8, 8]", "[4, 4]", "int32", "0", inner));
  std::vector<int32_t> v = iota32(64);
  EXPECT_EQ(write_then_read_all<int32_t>(a, {0, 0}, {8, 8}, v), v);
  EXPECT_EQ(read_region<int32_t>(open_array(dir / "a"), {3, 2}, {3, 3}), box_of(v, 8, 3, 2, 3, 3));
}

TEST(Sharding, TwoThreadsWritingInnerChunksOfOneShardLoseNothing) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", sharded_meta("[1, 64]", "[1, 64]", "[1, 8]", "int32", "0", gzip_codecs()));
  constexpr int kRounds = 150;
  auto writer = [&](uint64_t column, int32_t base) {
    for (int32_t round = 1; round <= kRounds; ++round) {
      std::vector<int32_t> values(8, base + round);
      int status = write_region(a, {0, column}, {1, 8}, values);
      if (status != ZARR_OK) ADD_FAILURE() << status_text(status);
    }
  };
  std::thread t1(writer, 0, 1000);
  std::thread t2(writer, 40, 5000);
  t1.join();
  t2.join();
  std::vector<int32_t> expected(64, 0);
  std::fill_n(expected.begin(), 8, 1000 + kRounds);
  std::fill_n(expected.begin() + 40, 8, 5000 + kRounds);
  EXPECT_EQ(read_all<int32_t>(a), expected);
}

TEST(Sharding, BadConfigurationIsInvalidMetadata) {
  TempDir dir;
  zarr_array* out = nullptr;
  EXPECT_STATUS(zarr_create(&out, (dir / "a").c_str(), sharded_meta("[8, 8]", "[4, 4]", "[3, 2]").c_str()),
                ZARR_ERR_INVALID_METADATA, "field 'chunk_shape' [3, 2] must divide the shard shape [4, 4]");
  EXPECT_STATUS(zarr_create(&out, (dir / "b").c_str(), sharded_meta("[8, 8]", "[4, 4]", "[2]").c_str()),
                ZARR_ERR_INVALID_METADATA, "field 'chunk_shape'");
  EXPECT_STATUS(zarr_create(&out, (dir / "c").c_str(),
                            sharded_meta("[8, 8]", "[4, 4]", "[2, 2]", "int32", "0",
                                         R"([{"name": "bytes", "configuration": {"endian": "little"}}])", "middle")
                                .c_str()),
                ZARR_ERR_INVALID_METADATA, "index_location");
  EXPECT_EQ(out, nullptr);
}

TEST(Sharding, CorruptShardIsACodecErrorNamingChunkAndInnerChunk) {
  TempDir dir;
  {
    ArrayPtr a = create_array(dir / "a", sharded_meta("[8]", "[8]", "[2]"));
    ASSERT_OK(write_region<int32_t>(a, {0}, {8}, iota32(8)));
  }
  zarr::Bytes shard = read_file(dir / "a/c/0");
  // A wrong index checksum, then a shard shorter than its index.
  zarr::Bytes bad = shard;
  bad[bad.size() - 4] ^= 0xff;
  write_file(dir / "a/c/0", bad);
  ArrayPtr a = open_array(dir / "a");
  std::vector<int32_t> out(8);
  EXPECT_STATUS(zarr_read_region(a, 1, std::vector<uint64_t>{0}.data(), std::vector<uint64_t>{8}.data(), out.data(), 32),
                ZARR_ERR_CODEC, "c/0");
  EXPECT_STATUS(zarr_read_region(a, 1, std::vector<uint64_t>{6}.data(), std::vector<uint64_t>{1}.data(), out.data(), 4),
                ZARR_ERR_CODEC, "crc32c");
  write_file(dir / "a/c/0", zarr::Bytes(shard.begin(), shard.begin() + 10));
  EXPECT_STATUS(zarr_read_region(a, 1, std::vector<uint64_t>{6}.data(), std::vector<uint64_t>{1}.data(), out.data(), 4),
                ZARR_ERR_CODEC, "index");
}

// ---- zarr-python 3's sharded arrays ---------------------------------------------------

namespace {

// The value of element i of a native-order buffer of `dtype` as a double.
double element(const std::vector<uint8_t>& data, const std::string& dtype, size_t i) {
  auto get = [&](auto v) {
    std::memcpy(&v, data.data() + i * sizeof v, sizeof v);
    return static_cast<double>(v);
  };
  if (dtype == "bool" || dtype == "uint8") return get(uint8_t{});
  if (dtype == "int8") return get(int8_t{});
  if (dtype == "int16") return get(int16_t{});
  if (dtype == "uint16") return get(uint16_t{});
  if (dtype == "int32") return get(int32_t{});
  if (dtype == "uint32") return get(uint32_t{});
  if (dtype == "int64") return get(int64_t{});
  if (dtype == "uint64") return get(uint64_t{});
  if (dtype == "float32") return get(float{});
  if (dtype == "float64") return get(double{});
  ADD_FAILURE() << "no comparison for data type " << dtype;
  return 0;
}

}  // namespace

TEST(Sharding, EveryShardedPeerArrayReadsAsItsPeersReadIt) {
  const std::string peer = peer_data_dir();
  if (peer.empty()) GTEST_SKIP() << "no peer data at " << peer_data_expected_location();
  std::ifstream in(peer + "/manifest.json");
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document manifest;
  manifest.Parse(text.str().c_str());
  ASSERT_TRUE(manifest.IsObject() && manifest.HasMember("arrays"));
  std::vector<std::string> read, unsupported;
  for (const auto& entry : manifest["arrays"].GetArray()) {
    const std::string path = entry["path"].GetString();
    if (entry["zarr_format"].GetInt() != 3 || path.find("shard") == std::string::npos) continue;
    const std::string zarr_json = text_of(peer + "/" + path + "/zarr.json");
    if (zarr_json.find("sharding_indexed") == std::string::npos) continue;
    SCOPED_TRACE(path);
    const rapidjson::Value& peers = entry["peers"];
    ASSERT_TRUE(peers.MemberCount() > 0);
    const rapidjson::Value& seen = peers.MemberBegin()->value;  // the peers agree (checked below)
    EXPECT_TRUE(entry["peers_agree"].GetBool());
    ArrayPtr a;
    ASSERT_OK(zarr_open(a.out(), (peer + "/" + path).c_str(), "r"));
    const std::string dtype = seen["dtype"].GetString();
    EXPECT_EQ(zarr_data_type(a), dtype);
    EXPECT_EQ(metadata_of(a), zarr_json);  // the configuration written back as zarr-python wrote it
    std::vector<uint64_t> shape(zarr_ndim(a));
    zarr_shape(a, shape.data());
    std::vector<uint64_t> peer_shape;
    for (const auto& e : seen["shape"].GetArray()) peer_shape.push_back(e.GetUint64());
    ASSERT_EQ(shape, peer_shape);
    const size_t item = zarr_item_size(a);
    size_t n = 1;
    for (uint64_t e : shape) n *= e;
    std::vector<uint8_t> all(n * item);
    int status = zarr_read_region(a, shape.size(), std::vector<uint64_t>(shape.size(), 0).data(), shape.data(),
                                  all.data(), all.size());
    if (status == ZARR_ERR_UNSUPPORTED) {
      unsupported.push_back(path + " (" + dtype + "): " + zarr_last_error());
      continue;
    }
    ASSERT_EQ(status, ZARR_OK) << status_text(status);
    EXPECT_EQ(all.size(), seen["nbytes"].GetUint64());
    ASSERT_TRUE(seen.HasMember("values")) << "the manifest has no values for " << path;
    const auto& values = seen["values"].GetArray();
    ASSERT_EQ(values.Size(), n);
    for (size_t i = 0; i < n; ++i) {
      const double expected = values[i].IsBool() ? (values[i].GetBool() ? 1.0 : 0.0) : values[i].GetDouble();
      EXPECT_EQ(element(all, dtype, i), expected) << "element " << i;
    }
    // A box inside the array: the partial read path must give the same slice.
    std::vector<uint64_t> start(shape.size()), count(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) {
      start[d] = shape[d] / 3;
      count[d] = std::max<uint64_t>(1, shape[d] - start[d] - (shape[d] > 2 ? 1 : 0));
    }
    size_t m = 1;
    for (uint64_t e : count) m *= e;
    std::vector<uint8_t> box(m * item);
    ASSERT_OK(zarr_read_region(a, shape.size(), start.data(), count.data(), box.data(), box.size()));
    std::vector<uint64_t> idx(shape.size(), 0);
    for (size_t k = 0; k < m; ++k) {
      size_t linear = 0;
      for (size_t d = 0; d < shape.size(); ++d) linear = linear * shape[d] + start[d] + idx[d];
      EXPECT_EQ(std::memcmp(box.data() + k * item, all.data() + linear * item, item), 0) << "box element " << k;
      for (size_t d = shape.size(); d-- > 0;) {
        if (++idx[d] < count[d]) break;
        idx[d] = 0;
      }
    }
    read.push_back(path);
  }
  std::cout << "[ sharding ] " << read.size() << " sharded peer arrays read as their peers read them\n";
  for (const auto& u : unsupported) std::cout << "[ sharding ] unsupported by the C API: " << u << "\n";
  EXPECT_EQ(read.size() + unsupported.size(), 15u);
}
