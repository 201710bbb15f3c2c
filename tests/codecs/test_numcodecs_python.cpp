// Live cross-check with numcodecs: what libzarr encodes numcodecs decodes,
// what numcodecs encodes libzarr decodes, and the two encodings are the same
// bytes (gzip: but for the mtime field). Runs tests/codecs/numcodecs_crosscheck.py
// with the Python named by $ZARR_TEST_PYTHON, else /usr/bin/python3; skipped
// when that Python lacks numcodecs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "codec_test_util.h"
#include "codecs/codec.h"
#include "core/error.h"
#include "core/json.h"
#include "support/test_support.h"
#include "zarr_config.h"

#if ZARR_HAVE_BLOSC
#include <blosc.h>
#endif

namespace zarr::test {
namespace {

std::string python() {
  const char* env = std::getenv("ZARR_TEST_PYTHON");
  return env && *env ? env : "/usr/bin/python3";
}

bool python_has_numcodecs() {
  std::string cmd = python() + " -c 'import numcodecs, numpy' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

struct Case {
  std::string config;
  const char* dtype;  // numpy dtype of the data, giving numcodecs' blosc typesize
  size_t item_size;
};

std::vector<Case> cases() {
  std::vector<Case> out;
#if ZARR_HAVE_ZLIB
  for (const char* id : {"zlib", "gzip"}) {
    for (int level : {-1, 0, 1, 6, 9}) {
      out.push_back({std::string(R"({"id":")") + id + R"(","level":)" + std::to_string(level) + "}", "<u4", 4});
    }
  }
#endif
#if ZARR_HAVE_BZ2
  for (int level : {1, 9}) out.push_back({R"({"id":"bz2","level":)" + std::to_string(level) + "}", "<u4", 4});
#endif
#if ZARR_HAVE_ZSTD
  for (int level : {-3, 0, 1, 5, 22, 100}) {
    out.push_back({R"({"id":"zstd","level":)" + std::to_string(level) + "}", "<u4", 4});
  }
  out.push_back({R"({"id":"zstd","level":1,"checksum":true})", "<u4", 4});
#endif
#if ZARR_HAVE_LZ4
  for (int acc : {-1, 1, 17}) out.push_back({R"({"id":"lz4","acceleration":)" + std::to_string(acc) + "}", "<u4", 4});
#endif
#if ZARR_HAVE_LZMA
  out.push_back({R"({"id":"lzma"})", "<u4", 4});
  out.push_back({R"({"id":"lzma","preset":1,"check":0})", "<u4", 4});
  out.push_back({R"({"id":"lzma","preset":3,"check":10})", "<u4", 4});
  out.push_back({R"({"id":"lzma","format":2,"preset":2})", "<u4", 4});
#endif
#if ZARR_HAVE_BLOSC
  std::stringstream list(blosc_list_compressors());
  for (std::string cname; std::getline(list, cname, ',');) {
    for (int shuffle : {-1, 0, 1, 2}) {
      for (auto [dtype, size] : {std::pair{"|u1", 1}, {"<u2", 2}, {"<u8", 8}}) {
        out.push_back({R"({"id":"blosc","cname":")" + cname + R"(","clevel":5,"shuffle":)" +
                           std::to_string(shuffle) + R"(,"blocksize":0})",
                       dtype, static_cast<size_t>(size)});
      }
    }
  }
  out.push_back({R"({"id":"blosc","cname":"lz4","clevel":9,"shuffle":1,"blocksize":1024})", "<u4", 4});
#endif
  return out;
}

std::map<std::string, std::string> read_results(const std::string& path) {
  std::map<std::string, std::string> results;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    size_t space = line.find(' ');
    if (space != std::string::npos) results[line.substr(0, space)] = line.substr(space + 1);
  }
  return results;
}

bool same_encoding(const std::string& config, Bytes ours, Bytes theirs) {
  if (config.find("\"gzip\"") != std::string::npos && theirs.size() >= 8) {
    std::fill(theirs.begin() + 4, theirs.begin() + 8, 0);  // numcodecs writes the time there
  }
  return ours == theirs;
}

TEST(NumcodecsLive, BothDirectionsAndIdenticalBytes) {
  if (!python_has_numcodecs()) GTEST_SKIP() << python() << " cannot import numcodecs (set ZARR_TEST_PYTHON)";
  std::vector<Case> all = cases();
  if (all.empty()) GTEST_SKIP() << "libzarr built without any compressor";
  TempDir dir;
  for (size_t n = 0; n < all.size(); ++n) {
    Bytes data = sample_data(24000 + 8 * n, static_cast<uint32_t>(n));  // a multiple of every item size
    auto codec = codec_from_json(all[n].config, ChunkRepr{all[n].item_size, data.size()});
    std::string base = dir / ("case." + std::to_string(n));
    write_file(base + ".json", std::string(R"({"config":)") + all[n].config + R"(,"dtype":")" + all[n].dtype + "\"}");
    write_file(base + ".data", data);
    write_file(base + ".ours", codec->encode(data));
  }
  std::string script = std::string(ZARR_SOURCE_ROOT) + "/tests/codecs/numcodecs_crosscheck.py";
  std::string cmd = python() + " " + script + " " + dir.path() + " > " + (dir / "log.txt") + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << ByteView(read_file(dir / "log.txt")).to_string();

  std::map<std::string, std::string> results = read_results(dir / "results.txt");
  int ok = 0, skipped = 0, identical = 0;
  for (size_t n = 0; n < all.size(); ++n) {
    SCOPED_TRACE(all[n].config);
    std::string key = std::to_string(n), base = dir / ("case." + key);
    const std::string& result = results[key];
    if (result.rfind("skip", 0) == 0 && all[n].config.find("checksum") != std::string::npos) {
      ++skipped;  // numcodecs 0.11 predates zstd's "checksum" option
      continue;
    }
    ASSERT_EQ(result, "ok");
    Bytes data = read_file(base + ".data"), theirs = read_file(base + ".theirs");
    auto codec = codec_from_json(all[n].config, ChunkRepr{all[n].item_size, data.size()});
    EXPECT_EQ(codec->decode(theirs, data.size()), data);
    EXPECT_EQ(codec->decode(theirs, 0), data);
    bool same = same_encoding(all[n].config, read_file(base + ".ours"), theirs);
    EXPECT_TRUE(same) << "libzarr's encoding differs from numcodecs'";
    ++ok;
    identical += same;
  }
  std::cout << "[ numcodecs ] " << ok << " of " << all.size() << " configs cross-checked both ways, " << identical
            << " byte-identical, " << skipped << " skipped (config this numcodecs refuses)\n";
}

}  // namespace
}  // namespace zarr::test
