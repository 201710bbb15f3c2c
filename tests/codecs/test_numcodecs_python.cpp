// Live cross-check with numcodecs: what libzarr encodes numcodecs decodes,
// what numcodecs encodes libzarr decodes, and the two encodings are the same
// bytes (gzip: but for the mtime field). For the filters, libzarr's decodings
// must also equal numcodecs' byte for byte (lossy ones included). Runs tests/codecs/numcodecs_crosscheck.py
// with the Python named by $ZARR_TEST_PYTHON, else /usr/bin/python3; skipped
// when that Python lacks numcodecs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <tuple>
#include <fstream>
#include <sstream>

#include "base/error.h"
#include "base/json.h"
#include "codec_test_util.h"
#include "codecs/codec.h"
#include "filter_test_util.h"
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
  // custom chains: numcodecs decodes XZ and ALONE only with filters null
  // (Python's rule), so those are checked in test_codec_formats instead
  out.push_back({R"({"id":"lzma","format":3,"filters":[{"id":33,"preset":1}]})", "<u4", 4});
  out.push_back({R"({"id":"lzma","format":3,"filters":[{"id":3,"dist":4},{"id":4},{"id":4611686018427387905,"lc":0,"pb":0}]})", "<u4", 4});
  out.push_back({R"({"id":"lzma","format":3,"check":0,"filters":[{"id":33,"dict_size":65536,"mf":19,"mode":1,"nice_len":64,"depth":4}]})", "<u4", 4});
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
    auto codec = codec_from_json(all[n].config, ChunkRepr{all[n].item_size, data.size(), ""});
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
    auto codec = codec_from_json(all[n].config, ChunkRepr{all[n].item_size, data.size(), ""});
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


// --- filters --------------------------------------------------------------------------

struct FilterCase {
  std::string config;
  std::string dtype;  // the data's numpy dtype (the array's, as numcodecs gets it)
  Values values = Values::Typical;
  bool lossy = false;     // numcodecs' decode(encode(x)) is not x
  bool may_skip = false;  // numcodecs 0.11 lacks the codec or the key
};

const std::vector<std::string> kWords = {"ƒöõ", "ßàř", "ßāẑ", "ƪùüx", "", "a", "male", "female", "x\xC3\xA9yz!"};

std::vector<FilterCase> filter_cases() {
  std::vector<FilterCase> out;
  auto add = [&](const std::string& config, const std::string& dtype, Values values = Values::Typical,
                 bool lossy = false, bool may_skip = false) {
    out.push_back({config, dtype, values, lossy, may_skip});
  };
  const char* numeric[] = {"|b1", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8",
                           ">i2", ">u4", ">i8", ">f4", ">f8"};
  // delta: every type with itself, typical and small values; bools and
  // floats do not round-trip (a running "or"; rounding)
  for (const char* t : numeric) {
    bool lossy = t[1] == 'b' || t[1] == 'f';
    std::string cfg = std::string(R"({"id":"delta","dtype":")") + t + R"(","astype":")" + t + "\"}";
    add(cfg, t, Values::Typical, lossy);
    add(cfg, t, Values::Small, lossy);
  }
  add(R"({"id":"delta","dtype":"<f8"})", "<f8", Values::Special, true);
  add(R"({"id":"delta","dtype":"<f4"})", "<f4", Values::Special, true);
  add(R"({"id":"delta","dtype":"<f2"})", "<f2", Values::Special, true);
  // delta with another astype: narrowing wraps, float <-> int truncates
  for (auto [dtype, astype, values, lossy] :
       std::vector<std::tuple<const char*, const char*, Values, bool>>{
           {"<i2", "|i1", Values::Small, true}, {"<i2", "|i1", Values::Typical, true},
           {"|i1", "<i2", Values::Typical, false}, {"|u1", "<i2", Values::Typical, false},
           {"<i4", "<f8", Values::Small, true}, {"<i4", "<f8", Values::Typical, true},
           {"<i8", "<f8", Values::Typical, true}, {"|i1", "<u2", Values::Typical, false},
           {"<f8", "<f4", Values::Typical, true}, {"<f4", "<f8", Values::Typical, true},
           {"<f8", "<i4", Values::Small, true}, {"<f8", "<i4", Values::Special, true},
           {"<f4", "<i2", Values::Typical, true}, {"<f8", "<u8", Values::Special, true},
           {"<f8", "<u4", Values::Special, true}, {"<f2", "<u4", Values::Special, true},
           {"<u2", ">i2", Values::Typical, false}, {">f8", "<f2", Values::Small, true},
           {"<i2", "|b1", Values::Small, true}}) {
    add(std::string(R"({"id":"delta","dtype":")") + dtype + R"(","astype":")" + astype + "\"}", dtype, values,
        lossy);
  }
  // shuffle: element sizes around the data's
  for (int es : {-1, 0, 1, 2, 3, 4, 8, 16}) {
    add(R"({"id":"shuffle","elementsize":)" + std::to_string(es) + "}", "|u1");
  }
  add(R"({"id":"shuffle"})", "<f4");
  // bitround: every keepbits of each float type, on special values too
  for (auto [dtype, max] : {std::pair{"<f2", 10}, {"<f4", 23}, {"<f8", 52}}) {
    for (int keep = 0; keep <= max; keep += (keep < 4 || keep + 4 > max) ? 1 : 5) {
      add(R"({"id":"bitround","keepbits":)" + std::to_string(keep) + "}", dtype,
          keep % 2 ? Values::Special : Values::Typical, keep != max);
    }
  }
  // fixedscaleoffset: numpy's value-based promotion picks the working type
  for (auto [config, dtype, values] : std::vector<std::tuple<std::string, const char*, Values>>{
           {R"("offset":1000,"scale":10,"dtype":"<f8","astype":"<i2")", "<f8", Values::Typical},
           {R"("offset":1000,"scale":10,"dtype":"<f4","astype":"<i2")", "<f4", Values::Typical},
           {R"("offset":1000.5,"scale":0.1,"dtype":"<f4","astype":"|u1")", "<f4", Values::Typical},
           {R"("offset":0,"scale":256,"dtype":"<f2","astype":"<i4")", "<f2", Values::Typical},
           {R"("offset":0,"scale":8,"dtype":"<f2","astype":"<i4")", "<f2", Values::Small},
           {R"("offset":0.1,"scale":3,"dtype":"<f2","astype":"<f2")", "<f2", Values::Special},
           {R"("offset":0,"scale":70000,"dtype":"<f4","astype":"<i8")", "<f4", Values::Typical},
           {R"("offset":0,"scale":1,"dtype":"<f8","astype":"<i4")", "<f8", Values::Small},
           {R"("offset":0,"scale":1,"dtype":"<f8","astype":"<i4")", "<f8", Values::Special},
           {R"("offset":0,"scale":1,"dtype":"<f8","astype":"|u1")", "<f8", Values::Special},
           {R"("offset":0,"scale":1,"dtype":"<f4","astype":"<u2")", "<f4", Values::Special},
           {R"("offset":0,"scale":1,"dtype":"<f8","astype":"<u4")", "<f8", Values::Special},
           {R"("offset":0,"scale":1,"dtype":"<f8","astype":"<u8")", "<f8", Values::Special},
           {R"("offset":0,"scale":1,"dtype":"<f8","astype":"<i8")", "<f8", Values::Special},
           {R"("offset":0,"scale":1,"dtype":"<f8","astype":"|b1")", "<f8", Values::Special},
           {R"("offset":-3,"scale":3,"dtype":"<i2","astype":"|i1")", "<i2", Values::Small},
           {R"("offset":-3,"scale":3,"dtype":"<i2","astype":"|i1")", "<i2", Values::Typical},
           {R"("offset":100,"scale":2,"dtype":"|u1","astype":"|u1")", "|u1", Values::Typical},
           {R"("offset":200,"scale":300,"dtype":"|i1","astype":"<i4")", "|i1", Values::Typical},
           {R"("offset":1.5,"scale":2,"dtype":"<i4","astype":"<i4")", "<i4", Values::Small},
           {R"("offset":-1,"scale":1,"dtype":"<u4","astype":"<i8")", "<u4", Values::Typical},
           {R"("offset":9223372036854775808,"scale":1,"dtype":"<u8","astype":"<u8")", "<u8", Values::Typical},
           {R"("offset":5,"scale":1099511627776,"dtype":"<i2","astype":"<i8")", "<i2", Values::Typical},
           {R"("offset":0,"scale":1,"dtype":"<i8","astype":"<f8")", "<i8", Values::Typical},
           {R"("offset":0,"scale":1,"dtype":"<i4","astype":"<f2")", "<i4", Values::Small},
           {R"("offset":1,"scale":1,"dtype":"|b1","astype":"<i2")", "|b1", Values::Typical},
           {R"("offset":1000,"scale":100,"dtype":"<f8","astype":"<f4")", "<f8", Values::Typical},
           {R"("offset":1000,"scale":1e300,"dtype":"<f4","astype":"<f8")", "<f4", Values::Typical},
           {R"("offset":1e-3,"scale":1e5,"dtype":"<f4","astype":"<i4")", "<f4", Values::Small},
           {R"("offset":1000,"scale":10,"dtype":">f8","astype":">i2")", ">f8", Values::Typical},
           {R"("offset":1000,"scale":10,"dtype":">f4","astype":"<u2")", ">f4", Values::Typical},
       }) {
    add(R"({"id":"fixedscaleoffset",)" + config + "}", dtype, values, true);
  }
  // quantize: the scale's type promotes float16 and float32 data
  for (auto [dtype, astype, digits] : std::vector<std::tuple<const char*, const char*, int>>{
           {"<f8", "<f8", -2}, {"<f8", "<f8", 0},  {"<f8", "<f8", 1},  {"<f8", "<f8", 3},  {"<f8", "<f8", 10},
           {"<f8", "<f8", 15}, {"<f8", "<f8", 30}, {"<f4", "<f4", 1},  {"<f4", "<f4", 3},  {"<f4", "<f4", 6},
           {"<f4", "<f4", 40}, {"<f2", "<f2", 0},  {"<f2", "<f2", 2},  {"<f2", "<f2", 5},  {"<f8", "<f2", -1},
           {"<f8", "<f4", 5},  {">f8", "<f4", 2},  {"<f4", ">f8", 2}}) {
    std::string cfg = std::string(R"({"id":"quantize","digits":)") + std::to_string(digits) + R"(,"dtype":")" +
                      dtype + R"(","astype":")" + astype + "\"}";
    add(cfg, dtype, Values::Typical, true);
    add(cfg, dtype, Values::Special, true);
  }
  // packbits: any bytes are bools (not zero is true)
  add(R"({"id":"packbits"})", "|b1");
  add(R"({"id":"packbits"})", "|u1", Values::Typical, true);
  // astype
  for (auto [enc, dec, values] : std::vector<std::tuple<const char*, const char*, Values>>{
           {"<f4", "<f8", Values::Typical}, {"<f4", "<f8", Values::Special}, {"<i2", "<i4", Values::Typical},
           {"|u1", "<f8", Values::Special},  {"<f2", "<f8", Values::Special}, {">i8", "<i2", Values::Typical},
           {"|b1", "<f4", Values::Special},  {"<f8", "<i8", Values::Typical}, {"<u4", "<f4", Values::Special},
           {"<f4", "<u8", Values::Typical}}) {
    add(std::string(R"({"id":"astype","encode_dtype":")") + enc + R"(","decode_dtype":")" + dec + "\"}", dec,
        values, true);
  }
  // categorize
  const std::string labels = R"("labels":["ƒöõ","ßàř","ßāẑ","ƪùüx","male","ßàř"])";
  for (auto [dtype, astype] : std::vector<std::pair<const char*, const char*>>{
           {"<U4", "|u1"}, {">U4", "<i2"}, {"<U2", "|u1"}, {"<U9", "<f4"}, {"<U4", ">u8"}, {"<U4", "|b1"}}) {
    add(R"({"id":"categorize",)" + labels + R"(,"dtype":")" + dtype + R"(","astype":")" + astype + "\"}", dtype,
        Values::Typical, true);
  }
  // checksums; numcodecs 0.11 lacks crc32c, fletcher32 and "location"
  for (const char* id : {"adler32", "crc32", "crc32c", "fletcher32"}) {
    bool old = std::string(id) == "adler32" || std::string(id) == "crc32";
    add(std::string(R"({"id":")") + id + "\"}", "|u1", Values::Typical, false, !old);
    if (std::string(id) != "fletcher32") {
      add(std::string(R"({"id":")") + id + R"(","location":"end"})", "|u1", Values::Typical, false, true);
    }
  }
  return out;
}

Bytes filter_case_data(const FilterCase& c, size_t n, uint32_t seed) {
  if (c.dtype.find('U') != std::string::npos) return unicode_data(c.dtype, n, kWords, seed);
  return typed_data(c.dtype, n, seed, c.values);
}

// $ZARR_TEST_SEED varies the data (to hunt for disagreements with numpy).
uint32_t seed_offset() {
  const char* env = std::getenv("ZARR_TEST_SEED");
  return env && *env ? static_cast<uint32_t>(std::strtoul(env, nullptr, 10)) * 100003u : 0;
}

TEST(NumcodecsLive, FiltersBothDirectionsIdenticalBytesAndDecodings) {
  if (!python_has_numcodecs()) GTEST_SKIP() << python() << " cannot import numcodecs (set ZARR_TEST_PYTHON)";
  std::vector<FilterCase> all = filter_cases();
  TempDir dir;
  for (size_t n = 0; n < all.size(); ++n) {
    SCOPED_TRACE(all[n].config);
    // 4800 + 48 n (+ 0..3: numpy's casts treat the last n % 4 differently)
    // elements; every element size above divides the byte count.
    size_t count = 4800 + 48 * n + (all[n].dtype.find('U') == std::string::npos ? n % 4 : 0);
    if (all[n].config.find("shuffle") != std::string::npos) count -= n % 4;
    Bytes data = filter_case_data(all[n], count, static_cast<uint32_t>(n + 1 + seed_offset()));
    auto codec = codec_from_json(all[n].config, ChunkRepr{1, data.size(), all[n].dtype});
    std::string base = dir / ("case." + std::to_string(n));
    write_file(base + ".json", std::string(R"({"config":)") + all[n].config + R"(,"dtype":")" + all[n].dtype +
                                   R"(","lossy":)" + (all[n].lossy ? "true" : "false") + "}");
    write_file(base + ".data", data);
    write_file(base + ".ours", codec->encode(data));
  }
  std::string script = std::string(ZARR_SOURCE_ROOT) + "/tests/codecs/numcodecs_crosscheck.py";
  std::string cmd = python() + " " + script + " " + dir.path() + " > " + (dir / "log.txt") + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << ByteView(read_file(dir / "log.txt")).to_string();

  std::map<std::string, std::string> results = read_results(dir / "results.txt");
  int ok = 0, skipped = 0, identical = 0;
  for (size_t n = 0; n < all.size(); ++n) {
    SCOPED_TRACE(all[n].config + " on " + all[n].dtype);
    std::string key = std::to_string(n), base = dir / ("case." + key);
    const std::string& result = results[key];
    if (result.rfind("skip", 0) == 0 && all[n].may_skip) {
      ++skipped;
      continue;
    }
    EXPECT_EQ(result, "ok");
    if (result != "ok") continue;
    Bytes data = read_file(base + ".data"), ours = read_file(base + ".ours"), theirs = read_file(base + ".theirs");
    Bytes theirs_dec = read_file(base + ".theirs_dec"), ours_dec = read_file(base + ".ours_dec");
    auto codec = codec_from_json(all[n].config, ChunkRepr{1, data.size(), all[n].dtype});
    bool same = ours == theirs;
    EXPECT_TRUE(same) << "libzarr's encoding differs from numcodecs'";
    EXPECT_EQ(codec->decode(theirs, theirs_dec.size()), theirs_dec) << "libzarr decodes numcodecs' bytes differently";
    EXPECT_EQ(codec->decode(theirs, 0), theirs_dec);
    EXPECT_EQ(codec->decode(ours, 0), ours_dec) << "libzarr decodes its bytes differently from numcodecs";
    if (!all[n].lossy) {
      EXPECT_EQ(codec->decode(ours, data.size()), data);
    }
    ++ok;
    identical += same;
  }
  std::cout << "[ numcodecs ] filters: " << ok << " of " << all.size() << " configs cross-checked both ways, "
            << identical << " byte-identical, " << skipped << " skipped (codec or key numcodecs "
            << "0.11 lacks)\n";
}

}  // namespace
}  // namespace zarr::test
