// Round trips and configurations of every built-in compressor, and the registry.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "base/error.h"
#include "base/json.h"
#include "codec_test_util.h"
#include "codecs/codec.h"
#include "zarr_config.h"

#if ZARR_HAVE_BLOSC
#include <blosc.h>
#endif

namespace zarr::test {
namespace {

// --- registry -------------------------------------------------------------------

TEST(Registry, ListsExactlyTheBuiltCodecs) {
  std::vector<std::string> ids = registered_bytes_codecs();
  for (const std::string& id : built_codec_ids()) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
}

TEST(Registry, BuiltinRegistrationIsIdempotentAcrossThreads) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) threads.emplace_back([] { register_builtin_codecs(); });
  for (auto& t : threads) t.join();
  register_builtin_codecs();
  std::vector<std::string> ids = registered_bytes_codecs();
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
}

TEST(Registry, ConfigMustBeAnObjectWithStringId) {
  EXPECT_TRUE(fails_with(ZARR_ERR_INVALID_METADATA, {"JSON object"}, [] { codec_from_json("[1]"); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_INVALID_METADATA, {"no 'id'"}, [] { codec_from_json(R"({"level":1})"); }));
  EXPECT_TRUE(fails_with(ZARR_ERR_INVALID_METADATA, {"'id'", "string"}, [] { codec_from_json(R"({"id":5})"); }));
}

TEST(Registry, UnknownIdIsUnsupported) {
  EXPECT_TRUE(fails_with(ZARR_ERR_UNSUPPORTED, {"unsupported codec 'foo'"}, [] { codec_from_json(R"({"id":"foo"})"); }));
}

TEST(Registry, CodecsLeftOutOfTheBuildSaySo) {
  const char* all[] = {"blosc", "bz2", "gzip", "lz4", "lzma", "zlib", "zstd"};
  std::vector<std::string> built = built_codec_ids();
  for (const char* id : all) {
    std::string json = std::string(R"({"id":")") + id + "\"}";
    if (std::find(built.begin(), built.end(), id) != built.end()) {
      EXPECT_EQ(codec_from_json(json)->id(), id);
    } else {
      EXPECT_TRUE(fails_with(ZARR_ERR_UNSUPPORTED, {id, "built without"}, [&] { codec_from_json(json); }));
    }
  }
}

// A pass-through codec registered by a "plugin".
class IdentityCodec : public BytesCodec {
 public:
  std::string id() const override { return "test-identity"; }
  std::string config_json() const override { return R"({"id":"test-identity"})"; }
  Bytes encode(ByteView decoded) const override { return decoded.to_bytes(); }
  Bytes decode(ByteView encoded, size_t) const override { return encoded.to_bytes(); }
};

TEST(Registry, PluginsRegisterFactories) {
  register_bytes_codec("test-identity", [](const rapidjson::Value&, const ChunkRepr&) {
    return std::make_unique<IdentityCodec>();
  });
  std::vector<std::string> ids = registered_bytes_codecs();
  EXPECT_NE(std::find(ids.begin(), ids.end(), "test-identity"), ids.end());
  auto codec = codec_from_json(R"({"id":"test-identity"})");
  EXPECT_TRUE(round_trips(*codec, sample_data(100)));
  EXPECT_TRUE(fails_with(ZARR_ERR_INVALID_ARGUMENT, {"empty factory"},
                         [] { register_bytes_codec("test-null", BytesCodecFactory()); }));
}

// --- default configurations: what numcodecs 0.11's get_config() gives ----------

TEST(Config, DefaultsMatchNumcodecs) {
  std::map<std::string, std::string> expected = {
      {"zlib", R"({"id":"zlib","level":1})"},
      {"gzip", R"({"id":"gzip","level":1})"},
      {"bz2", R"({"id":"bz2","level":1})"},
      {"zstd", R"({"id":"zstd","level":1})"},
      {"blosc", R"({"id":"blosc","cname":"lz4","clevel":5,"shuffle":1,"blocksize":0})"},
      {"lz4", R"({"id":"lz4","acceleration":1})"},
      {"lzma", R"({"id":"lzma","format":1,"check":-1,"preset":null,"filters":null})"},
  };
  for (const std::string& id : built_codec_ids()) {
    auto codec = codec_from_json(R"({"id":")" + id + "\"}");
    EXPECT_EQ(codec->id(), id);
    EXPECT_EQ(codec->config_json(), expected[id]);
  }
}

TEST(Config, ExplicitValuesAreKeptAndReparse) {
  std::vector<std::string> configs;
  if (ZARR_HAVE_ZLIB) configs.push_back(R"({"id":"zlib","level":-1})");
  if (ZARR_HAVE_ZLIB) configs.push_back(R"({"id":"gzip","level":9})");
  if (ZARR_HAVE_BZ2) configs.push_back(R"({"id":"bz2","level":9})");
  if (ZARR_HAVE_ZSTD) configs.push_back(R"({"id":"zstd","level":100})");
  if (ZARR_HAVE_ZSTD) configs.push_back(R"({"id":"zstd","level":-7,"checksum":true})");
  if (ZARR_HAVE_BLOSC) configs.push_back(R"({"id":"blosc","cname":"zstd","clevel":9,"shuffle":-1,"blocksize":256})");
  if (ZARR_HAVE_LZ4) configs.push_back(R"({"id":"lz4","acceleration":-3})");
  if (ZARR_HAVE_LZMA) configs.push_back(R"({"id":"lzma","format":2,"check":0,"preset":2147483657,"filters":null})");
  for (const std::string& json : configs) {
    auto codec = codec_from_json(json);
    EXPECT_EQ(codec->config_json(), json);
    EXPECT_EQ(codec_from_json(codec->config_json())->config_json(), json);
  }
}

TEST(Config, UnknownKeysAreIgnored) {
  for (const std::string& id : built_codec_ids()) {
    auto codec = codec_from_json(R"({"id":")" + id + R"(","some_future_option":[1,2]})");
    EXPECT_EQ(codec->config_json().find("some_future_option"), std::string::npos);
  }
}

#if ZARR_HAVE_ZSTD
TEST(Config, ZstdChecksumAppearsOnlyWhenSet) {
  // numcodecs 0.11 rejects a "checksum" key, so a default config omits it.
  EXPECT_EQ(codec_from_json(R"({"id":"zstd","checksum":false})")->config_json(), R"({"id":"zstd","level":1})");
  EXPECT_EQ(codec_from_json(R"({"id":"zstd","checksum":true})")->config_json(),
            R"({"id":"zstd","level":1,"checksum":true})");
}
#endif

// --- round trips -------------------------------------------------------------------

struct RoundTripCase {
  std::string json;
  size_t item_size;
};

std::vector<RoundTripCase> round_trip_cases() {
  std::vector<RoundTripCase> cases;
  [[maybe_unused]] auto add = [&](const std::string& json, size_t item_size = 1) { cases.push_back({json, item_size}); };
#if ZARR_HAVE_ZLIB
  for (int level : {-1, 0, 1, 5, 9}) {
    add(R"({"id":"zlib","level":)" + std::to_string(level) + "}");
    add(R"({"id":"gzip","level":)" + std::to_string(level) + "}");
  }
#endif
#if ZARR_HAVE_BZ2
  for (int level : {1, 5, 9}) add(R"({"id":"bz2","level":)" + std::to_string(level) + "}");
#endif
#if ZARR_HAVE_ZSTD
  for (int level : {-5, 0, 1, 3, 19, 22, 100}) add(R"({"id":"zstd","level":)" + std::to_string(level) + "}");
  add(R"({"id":"zstd","level":3,"checksum":true})");
#endif
#if ZARR_HAVE_LZ4
  for (int acc : {-1, 0, 1, 10, 1000000}) add(R"({"id":"lz4","acceleration":)" + std::to_string(acc) + "}");
#endif
#if ZARR_HAVE_LZMA
  add(R"({"id":"lzma"})");
  for (const char* extra : {R"("preset":0)", R"("preset":1,"check":0)", R"("preset":1,"check":1)",
                            R"("preset":1,"check":10)", R"("preset":2147483649)", R"("format":2,"preset":1)",
                            R"("format":2,"check":0)"}) {
    add(std::string(R"({"id":"lzma",)") + extra + "}");
  }
#endif
#if ZARR_HAVE_BLOSC
  // Every compressor this c-blosc has, every shuffle, several item sizes.
  std::string list = blosc_list_compressors();
  for (size_t start = 0; start <= list.size();) {
    size_t comma = std::min(list.find(',', start), list.size());
    std::string cname = list.substr(start, comma - start);
    start = comma + 1;
    for (int shuffle : {-1, 0, 1, 2}) {
      for (size_t item_size : {1, 2, 3, 4, 8}) {
        add(R"({"id":"blosc","cname":")" + cname + R"(","clevel":5,"shuffle":)" + std::to_string(shuffle) + "}",
            item_size);
      }
    }
  }
  add(R"({"id":"blosc","clevel":0})", 4);
  add(R"({"id":"blosc","clevel":9,"blocksize":256})", 4);
  add(R"({"id":"blosc","cname":"zstd","clevel":1,"blocksize":4096})", 8);
#endif
  return cases;
}

class RoundTrip : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(RoundTrip, SizesIncludingEmptyAndRagged) {
  auto codec = codec_from_json(GetParam().json, ChunkRepr{GetParam().item_size, 0, ""});
  // 0 (empty chunk), 1 and 7 (shorter than an item), 4099 and 65539 (not a
  // multiple of the item size nor of typical block sizes).
  for (size_t n : {0, 1, 7, 1000, 4099, 65539}) {
    EXPECT_TRUE(round_trips(*codec, sample_data(n, static_cast<uint32_t>(n))));
  }
}

TEST_P(RoundTrip, IncompressibleData) {
  auto codec = codec_from_json(GetParam().json, ChunkRepr{GetParam().item_size, 0, ""});
  Bytes noise(20000);
  uint32_t x = 12345;
  for (uint8_t& b : noise) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(x >> 24);
  }
  EXPECT_TRUE(round_trips(*codec, noise));
}

std::string case_name(const ::testing::TestParamInfo<RoundTripCase>& info) {
  rapidjson::Document doc = json::parse(info.param.json, "case");
  std::string name = std::to_string(info.index) + "_" + doc["id"].GetString();
  if (doc.HasMember("cname")) name += std::string("_") + doc["cname"].GetString();
  return name;
}

INSTANTIATE_TEST_SUITE_P(Codecs, RoundTrip, ::testing::ValuesIn(round_trip_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RoundTrip);  // a build without codecs

TEST(RoundTripLarge, DefaultConfigsOnAFewMegabytes) {
  Bytes data = sample_data((size_t{3} << 20) + 5, 7);
  for (const std::string& id : built_codec_ids()) {
    auto codec = codec_from_json(R"({"id":")" + id + "\"}", ChunkRepr{4, data.size(), ""});
    EXPECT_TRUE(round_trips(*codec, data)) << id;
  }
}

TEST(RoundTripLarge, HighlyCompressibleData) {
  // All zeros: the decoded size is far beyond any initial guess of the
  // streaming decoders, which must grow their buffer.
  Bytes zeros(size_t{8} << 20, 0);
  for (const std::string& id : built_codec_ids()) {
    auto codec = codec_from_json(R"({"id":")" + id + "\"}", ChunkRepr{8, zeros.size(), ""});
    EXPECT_TRUE(round_trips(*codec, zeros)) << id;
  }
}

// --- thread safety -----------------------------------------------------------------

TEST(Concurrency, OneCodecObjectSharedByThreads) {
  for (const std::string& id : built_codec_ids()) {
    auto codec = codec_from_json(R"({"id":")" + id + "\"}", ChunkRepr{4, 0, ""});
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < 6; ++t) {
      threads.emplace_back([&, t] {
        for (uint32_t i = 0; i < 20; ++i) {
          Bytes data = sample_data(20000 + 37 * i, t * 100 + i);
          try {
            if (codec->decode(codec->encode(data), data.size()) != data) ++failures;
          } catch (const std::exception&) {
            ++failures;
          }
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0) << id;
  }
}

}  // namespace
}  // namespace zarr::test
