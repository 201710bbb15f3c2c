// zarr_codec_*: codecs on plain buffers, as numcodecs offers them. Every
// numcodecs fixture of a codec the C API handles decodes through it to its
// array (lossless codecs) or encodes to numcodecs' bytes (lossy filters).
#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>

#include "capi_helpers.h"
#include "support/npy.h"
#include "support/test_support.h"

namespace fs = std::filesystem;
using namespace zarr::test;

namespace {

// Owns a zarr_codec* and frees it.
struct Codec {
  zarr_codec* c = nullptr;
  ~Codec() { zarr_codec_free(c); }
  zarr_codec** out() { return &c; }
};

// Runs encode or decode; returns the output (empty on failure, with *status set).
std::string run(int (*fn)(zarr_codec*, const void*, size_t, void**, size_t*), zarr_codec* codec,
                const std::string& input, int* status) {
  void* out = nullptr;
  size_t size = 0;
  *status = fn(codec, input.data(), input.size(), &out, &size);
  std::string result = out ? std::string(static_cast<char*>(out), size) : std::string();
  zarr_free(out);
  return result;
}

std::string encode(zarr_codec* codec, const std::string& input) {
  int status = 0;
  std::string r = run(zarr_codec_encode, codec, input, &status);
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  return r;
}

std::string decode(zarr_codec* codec, const std::string& input) {
  int status = 0;
  std::string r = run(zarr_codec_decode, codec, input, &status);
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  return r;
}

std::string text(const zarr::Bytes& b) { return std::string(b.begin(), b.end()); }

std::string sample_bytes(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i / 7) % 13 + (i % 3));
  return s;
}

}  // namespace

TEST(CodecApi, EveryBytesCodecRoundTripsInBothForms) {
  const std::string data = sample_bytes(100000);
  const char* configs[] = {
      R"({"id": "zlib", "level": 1})",
      R"({"id": "gzip", "level": 5})",
      R"({"id": "bz2", "level": 9})",
      R"({"id": "zstd", "level": 3})",
      R"({"id": "lz4", "acceleration": 1})",
      R"({"id": "lzma", "preset": 1})",
      R"({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1})",
      R"({"id": "adler32"})",
      R"({"id": "crc32"})",
      R"({"id": "crc32c"})",
      R"({"id": "fletcher32"})",
      R"({"id": "shuffle", "elementsize": 4})",
      R"({"id": "delta", "dtype": "<i4"})",
      R"({"id": "packbits"})",
      R"({"name": "gzip", "configuration": {"level": 1}})",
      R"({"name": "zstd", "configuration": {"level": 1, "checksum": true}})",
      R"({"name": "blosc", "configuration": {"cname": "zstd", "clevel": 3, "shuffle": "bitshuffle", "typesize": 4}})",
      R"({"name": "crc32c"})",
      R"({"name": "numcodecs.lz4", "configuration": {"acceleration": 2}})",
      R"({"name": "numcodecs.delta", "configuration": {"dtype": "<u2"}})",
  };
  for (const char* config : configs) {
    SCOPED_TRACE(config);
    Codec codec;
    int status = zarr_codec_create(codec.out(), config);
    if (status == ZARR_ERR_UNSUPPORTED && std::string(zarr_last_error()).find("built without") != std::string::npos) {
      continue;  // this build lacks the library
    }
    ASSERT_EQ(status, ZARR_OK) << status_text(status);
    // packbits packs booleans: one byte per element in, 0 or 1.
    std::string input = std::string(config).find("packbits") != std::string::npos ? std::string(1001, '\1') : data;
    const std::string encoded = encode(codec.c, input);
    EXPECT_EQ(decode(codec.c, encoded), input);
  }
}

// Codecs are const: one handle serves many threads at once, each with its own
// input, and every thread gets its own data back.
TEST(CodecApi, OneHandleServesManyThreads) {
  for (const char* config : {R"({"id": "zstd", "level": 1})", R"({"id": "blosc", "cname": "lz4", "shuffle": 1})",
                             R"({"id": "delta", "dtype": "<i4"})", R"({"id": "crc32c"})"}) {
    SCOPED_TRACE(config);
    Codec codec;
    const int status = zarr_codec_create(codec.out(), config);
    if (status == ZARR_ERR_UNSUPPORTED && std::string(zarr_last_error()).find("built without") != std::string::npos) {
      continue;
    }
    ASSERT_EQ(status, ZARR_OK) << status_text(status);
    constexpr int kThreads = 8;
    std::vector<int> failures(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        const std::string input = sample_bytes(40000 + 4 * t);  // a different length per thread
        for (int round = 0; round < 20; ++round) {
          int s1 = 0, s2 = 0;
          const std::string encoded = run(zarr_codec_encode, codec.c, input, &s1);
          const std::string decoded = run(zarr_codec_decode, codec.c, encoded, &s2);
          if (s1 != ZARR_OK || s2 != ZARR_OK || decoded != input) ++failures[t];
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
  }
}

TEST(CodecApi, ConfigIsNumcodecsGetConfig) {
  Codec codec;
  ASSERT_OK(zarr_codec_create(codec.out(), R"({"name": "zstd", "configuration": {"level": 2, "checksum": false}})"));
  char* json = nullptr;
  ASSERT_OK(zarr_codec_config(codec.c, &json));
  EXPECT_STREQ(json, R"({"id":"zstd","level":2})");  // numcodecs 0.11's Zstd has no checksum member
  zarr_free(json);
}

TEST(CodecApi, EmptyInputEncodesAndDecodes) {
  Codec codec;
  ASSERT_OK(zarr_codec_create(codec.out(), R"({"id": "zlib", "level": 1})"));
  void* out = nullptr;
  size_t size = 99;
  ASSERT_OK(zarr_codec_encode(codec.c, nullptr, 0, &out, &size));
  ASSERT_NE(out, nullptr);  // a buffer to free even when empty
  const std::string encoded(static_cast<char*>(out), size);
  zarr_free(out);
  EXPECT_EQ(decode(codec.c, encoded), "");
}

TEST(CodecApi, ErrorsNameWhatIsWrong) {
  Codec codec;
  struct Case {
    const char* config;
    int status;
    const char* fragment;
  } cases[] = {
      {"not json", ZARR_ERR_INVALID_METADATA, "codec configuration"},
      {"[1, 2]", ZARR_ERR_INVALID_ARGUMENT, "expected a JSON object"},
      {R"({"level": 1})", ZARR_ERR_INVALID_ARGUMENT, "needs \"id\""},
      {R"({"id": "no-such-codec"})", ZARR_ERR_UNSUPPORTED, "unsupported codec 'no-such-codec'"},
      {R"({"name": "no-such-codec"})", ZARR_ERR_UNSUPPORTED, "no-such-codec"},
      {R"({"id": "zlib", "level": 42})", ZARR_ERR_INVALID_METADATA, "level"},
      {R"({"name": "blosc", "configuration": {"cname": "lz4", "shuffle": "sideways"}})", ZARR_ERR_INVALID_METADATA,
       "'shuffle'"},
      {R"({"name": "bytes", "configuration": {"endian": "little"}})", ZARR_ERR_UNSUPPORTED, "array->bytes"},
      {R"({"name": "transpose", "configuration": {"order": [0]}})", ZARR_ERR_UNSUPPORTED, "array->array"},
      {R"({"name": "sharding_indexed", "configuration": {}})", ZARR_ERR_UNSUPPORTED, "needs an array"},
      {R"({"id": "vlen-utf8"})", ZARR_ERR_UNSUPPORTED, "codec 'vlen-utf8' stores an object array's"},
      {R"({"id": "json2"})", ZARR_ERR_UNSUPPORTED, "runs only inside an array"},
      {R"({"id": "bitround", "keepbits": 3})", ZARR_ERR_INVALID_METADATA, "bitround"},
      {R"({"id": "delta", "dtype": "<x9"})", ZARR_ERR_UNSUPPORTED, "codec 'delta': field 'dtype'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.config);
    zarr_codec* out = reinterpret_cast<zarr_codec*>(1);
    EXPECT_STATUS(zarr_codec_create(&out, c.config), c.status, c.fragment);
    EXPECT_EQ(out, nullptr);
  }
  EXPECT_STATUS(zarr_codec_create(nullptr, "{}"), ZARR_ERR_INVALID_ARGUMENT, "'out'");
  EXPECT_STATUS(zarr_codec_create(codec.out(), nullptr), ZARR_ERR_INVALID_ARGUMENT, "'config_json'");

  ASSERT_OK(zarr_codec_create(codec.out(), R"({"id": "crc32c"})"));
  void* out = nullptr;
  size_t size = 0;
  EXPECT_STATUS(zarr_codec_encode(nullptr, "a", 1, &out, &size), ZARR_ERR_INVALID_ARGUMENT, "'codec'");
  EXPECT_STATUS(zarr_codec_encode(codec.c, "a", 1, nullptr, &size), ZARR_ERR_INVALID_ARGUMENT, "'out'");
  EXPECT_STATUS(zarr_codec_encode(codec.c, "a", 1, &out, nullptr), ZARR_ERR_INVALID_ARGUMENT, "'out_nbytes'");
  EXPECT_STATUS(zarr_codec_encode(codec.c, nullptr, 5, &out, &size), ZARR_ERR_INVALID_ARGUMENT, "'in'");
  // A flipped bit: the checksum catches it, and nothing is handed out.
  std::string encoded = encode(codec.c, "payload");
  encoded[2] ^= 1;
  out = reinterpret_cast<void*>(1);
  EXPECT_STATUS(zarr_codec_decode(codec.c, encoded.data(), encoded.size(), &out, &size), ZARR_ERR_CODEC,
                "checksum mismatch");
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(size, 0u);
  EXPECT_STATUS(zarr_codec_config(codec.c, nullptr), ZARR_ERR_INVALID_ARGUMENT, "'json_out'");
  zarr_codec_free(nullptr);
}

TEST(CodecApi, NumcodecsFixturesThroughTheCApi) {
  const std::string peer = peer_data_dir();
  if (peer.empty()) GTEST_SKIP() << "no peer data: expected " << peer_data_expected_location();
  const fs::path root = fs::path(peer) / "numcodecs-fixtures";
  // Filters whose decoding loses precision: numcodecs' exact bytes are checked
  // on encoding instead (filters are plain arithmetic, the same everywhere).
  const std::set<std::string> lossy = {"fixedscaleoffset", "quantize", "astype"};
  int decoded = 0, encoded_same = 0, refused = 0;
  for (const auto& config_file : fs::recursive_directory_iterator(root)) {
    if (config_file.path().filename() != "config.json") continue;
    const fs::path codec_dir = config_file.path().parent_path();
    const fs::path set_dir = codec_dir.parent_path();
    const std::string config = text(read_file(config_file.path().string()));
    const std::string id = fs::relative(set_dir, root).begin()->string();
    if (id == "vlen-utf8" || id == "vlen-bytes") continue;  // object arrays: array-only codecs
    SCOPED_TRACE(codec_dir.string());
    Codec codec;
    const int status = zarr_codec_create(codec.out(), config.c_str());
    if (status == ZARR_ERR_UNSUPPORTED) {  // object categorize (see test_numcodecs_fixtures)
      ++refused;
      continue;
    }
    ASSERT_EQ(status, ZARR_OK) << status_text(status);
    for (const auto& entry : fs::directory_iterator(codec_dir)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("encoded.", 0) != 0) continue;
      const std::string index = name.substr(8, name.size() - 8 - 4);  // encoded.MM.dat
      const NpyArray array = read_npy((set_dir / ("array." + index + ".npy")).string());
      const std::string stored = text(read_file(entry.path().string()));
      if (lossy.count(id)) {
        EXPECT_EQ(encode(codec.c, text(array.data)), stored) << name;
        ++encoded_same;
      } else {
        EXPECT_EQ(decode(codec.c, stored), text(array.data)) << name;
        ++decoded;
      }
    }
  }
  std::cout << "[ fixtures ] through the C API: " << decoded << " decoded to their arrays, " << encoded_same
            << " lossy encodings identical to numcodecs', " << refused << " configurations refused\n";
  EXPECT_GT(decoded, 400);
  EXPECT_GT(encoded_same, 50);
  EXPECT_LE(refused, 8);
}
