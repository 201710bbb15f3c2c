// The copy of rows into a large region, alone (issue 25): one thread copies a
// cache-resident chunk's rows of RUN bytes into a 256 MiB region whose rows are
// 4096 bytes apart (as the 64-byte rows of W4's 32^3 uint16 chunks land in the
// [64, 1024, 2048] array), the region at OFFSET bytes past a page boundary, as
// a malloc'd or NumPy buffer comes. Each run length is copied with cached
// stores (one memcpy per row) and with streaming stores (the copy a large
// region read makes), so the streaming path can be compared with a plain
// memcpy at every alignment. A benchmark: it prints figures, never fails on
// speed.
//
//   bench_copy_run [RUNS] [OFFSET,...] [RUN_BYTES,...]
//
// Prints one line per offset and run length: GB/s of each way, best of RUNS.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/strided_copy.h"

using namespace zarr;

namespace {

constexpr size_t kRegionBytes = size_t{256} << 20;
constexpr size_t kPage = 4096;

std::vector<size_t> parse_list(const char* text) {
  std::vector<size_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::strtoull(item.c_str(), nullptr, 10));
  return out;
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// The region tiled by chunks of `run` bytes wide (64 KiB each, or one row of
// `run` bytes when longer), copied chunk by chunk in C order. Seconds.
double copy_region(uint8_t* region, const std::vector<uint8_t>& chunk, size_t run, MemoryWrites writes) {
  const size_t pitch = std::max(kPage, 4 * run);  // region row bytes
  const size_t chunk_rows = chunk.size() / run, region_rows = kRegionBytes / pitch;
  const std::vector<int64_t> src_strides{static_cast<int64_t>(run), 1}, dst_strides{static_cast<int64_t>(pitch), 1};
  const double t0 = now();
  for (size_t row = 0; row + chunk_rows <= region_rows; row += chunk_rows) {
    for (size_t col = 0; col + run <= pitch; col += run) {
      strided_copy({chunk_rows, run}, 1, chunk.data(), src_strides, region + row * pitch + col, dst_strides, writes);
    }
  }
  return now() - t0;
}

// Best GB/s of each way over `runs` rounds; each round copies with both, so
// that a disturbance of the shared machine spoils a round of each.
std::pair<double, double> best_gbs(uint8_t* region, const std::vector<uint8_t>& chunk, size_t run, int runs) {
  double cached = 1e30, streamed = 1e30;
  for (int r = 0; r < runs; ++r) {
    cached = std::min(cached, copy_region(region, chunk, run, MemoryWrites::Cached));
    streamed = std::min(streamed, copy_region(region, chunk, run, MemoryWrites::Streaming));
  }
  const double gb = static_cast<double>(kRegionBytes) / 1e9;
  return {gb / cached, gb / streamed};
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
  const std::vector<size_t> offsets = parse_list(argc > 2 ? argv[2] : "0,16,64");
  const std::vector<size_t> lengths =
      parse_list(argc > 3 ? argv[3] : "64,128,192,256,512,1024,4096,65536,1048576");
  // malloc'd as users allocate, then placed OFFSET bytes past a page boundary.
  uint8_t* block = static_cast<uint8_t*>(std::malloc(kRegionBytes + 2 * kPage));
  if (!block) return 1;
  std::memset(block, 0xAB, kRegionBytes + 2 * kPage);  // fault the pages in before timing
  uint8_t* page = block + (kPage - reinterpret_cast<uintptr_t>(block) % kPage) % kPage;
  std::printf("%8s %9s %12s %14s %8s\n", "offset", "run B", "memcpy GB/s", "streamed GB/s", "ratio");
  for (size_t offset : offsets) {
    for (size_t run : lengths) {
      std::vector<uint8_t> chunk(std::max<size_t>(run, 64 << 10) / run * run);
      for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = static_cast<uint8_t>(i * 7);
      uint8_t* region = page + offset % kPage;
      const auto [cached, streamed] = best_gbs(region, chunk, run, runs);
      std::printf("%8zu %9zu %12.2f %14.2f %8.2f\n", offset, run, cached, streamed, streamed / cached);
      std::fflush(stdout);
    }
  }
  std::free(block);
  return 0;
}
