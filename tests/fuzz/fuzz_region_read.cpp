// libFuzzer target: region reads of arrays whose chunk bytes are the fuzzed
// input. The first byte picks the array (v2 zstd with a delta filter, v2
// blosc-lz4, v2 F-order zlib, v3 sharded with a crc32c index, v3 gzip with
// a transpose); the rest becomes its chunk at the origin, then the whole
// array and one corner are read.
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_read.h"

namespace {

struct Target {
  std::string url;
  std::string chunk_file;  // the origin chunk's file under url
};

const char* const kV2 = R"("zarr_format": 2, "shape": [8, 8], "chunks": [4, 4], "dtype": "<i4", "fill_value": 7)";
const char* const kV3 =
    R"("zarr_format": 3, "node_type": "array", "shape": [8, 8], "data_type": "int32", "fill_value": 7,
    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}})";

std::vector<Target> make_targets() {
  const std::string root = fuzz::scratch_path("arrays");
  mkdir(root.c_str(), 0700);
  const struct {
    const char* name;
    std::string metadata;
    const char* chunk_file;
  } specs[] = {
      {"v2_zstd_delta", std::string("{") + kV2 +
           R"(, "order": "C", "filters": [{"id": "delta", "dtype": "<i4"}], "compressor": {"id": "zstd", "level": 1}})",
       "0.0"},
      {"v2_blosc", std::string("{") + kV2 +
           R"(, "order": "C", "filters": null, "compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1}})",
       "0.0"},
      {"v2_zlib_f", std::string("{") + kV2 + R"(, "order": "F", "filters": null, "compressor": {"id": "zlib", "level": 1}})",
       "0.0"},
      {"v3_sharded", std::string("{") + kV3 +
           R"(, "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8, 8]}},
           "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [4, 4],
             "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "zstd", "configuration": {"level": 1, "checksum": false}}],
             "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
             "index_location": "end"}}]})",
       "c/0/0"},
      {"v3_gzip_transpose", std::string("{") + kV3 +
           R"(, "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}},
           "codecs": [{"name": "transpose", "configuration": {"order": [1, 0]}},
             {"name": "bytes", "configuration": {"endian": "big"}}, {"name": "gzip", "configuration": {"level": 1}}]})",
       "c/0/0"},
  };
  std::vector<Target> targets;
  for (const auto& spec : specs) {
    const std::string url = root + "/" + spec.name;
    zarr_array* a = nullptr;
    if (zarr_create(&a, url.c_str(), spec.metadata.c_str()) != ZARR_OK) {
      std::fprintf(stderr, "fuzz_region_read: cannot create %s: %s\n", spec.name, zarr_last_error());
      std::abort();
    }
    zarr_close(a);
    targets.push_back({url, url + "/" + spec.chunk_file});
    mkdir((url + "/c").c_str(), 0700);
    mkdir((url + "/c/0").c_str(), 0700);
  }
  return targets;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<Target> targets = make_targets();
  if (size < 1) return 0;
  const Target& t = targets[data[0] % targets.size()];
  fuzz::write_file(t.chunk_file, data + 1, size - 1);
  zarr_array* a = nullptr;
  if (zarr_open(&a, t.url.c_str(), "r") != ZARR_OK) std::abort();  // the metadata is ours: it must open
  std::vector<int32_t> all(64);
  const uint64_t start[2] = {0, 0}, count[2] = {8, 8};
  zarr_read_region(a, 2, start, count, all.data(), all.size() * sizeof(int32_t));
  fuzz::read_corner(a);
  zarr_close(a);
  return 0;
}
