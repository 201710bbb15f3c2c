// The machine's ceilings for scripts/bench.sh (docs/performance.md): what no
// Zarr library can beat on this machine, measured in the same run as the
// region benchmarks.
//
//   bench_ceilings ZSTD_ARRAY_DIR BLOSC_ARRAY_DIR RUNS
//
// - memcpy of 256 MiB into a buffer already faulted in, on one thread and on
//   nproc threads (each copying its slice), GB/s (10^9 bytes/s);
// - decode of every stored chunk of the two v2 arrays (files other than
//   .zarray/.zattrs) with libzstd (ZSTD_decompressDCtx) and c-blosc
//   (blosc_decompress_ctx, 1 thread) called directly, chunk files already in
//   memory, into one reused output buffer: GB/s of decoded output on one
//   thread, and that times nproc (a parallel engine's ceiling, if decode
//   scales perfectly).
// Best of RUNS. Prints one line "RESULT {json}". A benchmark: never fails on speed.
#include <blosc.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double best_of(int runs, const std::function<void()>& f) {
  double best = 1e30;
  for (int r = 0; r < runs; ++r) {
    const double t0 = now();
    f();
    best = std::min(best, now() - t0);
  }
  return best;
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_ceilings: %s\n", what.c_str());
  std::exit(1);
}

std::vector<std::vector<char>> chunk_files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name[0] != '.') names.push_back(e.path().string());
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) die("no chunk files in " + dir);
  std::vector<std::vector<char>> chunks;
  for (const auto& n : names) {
    std::ifstream in(n, std::ios::binary);
    chunks.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return chunks;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) die("usage: bench_ceilings ZSTD_ARRAY_DIR BLOSC_ARRAY_DIR RUNS");
  const int runs = std::atoi(argv[3]);
  const unsigned nproc = std::max(1u, std::thread::hardware_concurrency());

  // memcpy, 256 MiB, destination faulted in.
  const size_t n = 256u << 20;
  std::vector<char> src(n), dst(n);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<char>(i * 7);
  std::memset(dst.data(), 1, n);
  const double t_memcpy1 = best_of(runs, [&] { std::memcpy(dst.data(), src.data(), n); });
  const double t_memcpyN = best_of(runs, [&] {
    std::vector<std::thread> ts;
    const size_t part = n / nproc;
    for (unsigned t = 0; t < nproc; ++t) {
      const size_t off = t * part, len = t + 1 == nproc ? n - off : part;
      ts.emplace_back([&, off, len] { std::memcpy(dst.data() + off, src.data() + off, len); });
    }
    for (auto& t : ts) t.join();
  });
  if (std::memcmp(src.data(), dst.data(), n) != 0) die("memcpy?");

  // zstd: every chunk of the v2 zstd array.
  const auto zchunks = chunk_files(argv[1]);
  size_t zmax = 0, zbytes = 0;
  for (const auto& c : zchunks) {
    const unsigned long long size = ZSTD_getFrameContentSize(c.data(), c.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) die("zstd chunk without content size");
    zmax = std::max<size_t>(zmax, size);
    zbytes += size;
  }
  std::vector<char> out(zmax);
  std::memset(out.data(), 0, out.size());
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  const double t_zstd = best_of(runs, [&] {
    for (const auto& c : zchunks) {
      const size_t r = ZSTD_decompressDCtx(dctx, out.data(), out.size(), c.data(), c.size());
      if (ZSTD_isError(r)) die(std::string("zstd: ") + ZSTD_getErrorName(r));
    }
  });
  ZSTD_freeDCtx(dctx);

  // blosc (lz4 + shuffle): every chunk of the v2 blosc array, one thread.
  const auto bchunks = chunk_files(argv[2]);
  size_t bmax = 0, bbytes = 0;
  for (const auto& c : bchunks) {
    size_t nbytes = 0, cbytes = 0, blocksize = 0;
    blosc_cbuffer_sizes(c.data(), &nbytes, &cbytes, &blocksize);
    bmax = std::max(bmax, nbytes);
    bbytes += nbytes;
  }
  out.assign(std::max(bmax, zmax), 0);
  const double t_blosc = best_of(runs, [&] {
    for (const auto& c : bchunks) {
      if (blosc_decompress_ctx(c.data(), out.data(), out.size(), 1) < 0) die("blosc decode failed");
    }
  });
  size_t zstored = 0, bstored = 0;
  for (const auto& c : zchunks) zstored += c.size();
  for (const auto& c : bchunks) bstored += c.size();

  const double gb = 1e9;
  std::printf(
      "RESULT {\"nproc\": %u, \"memcpy_bytes\": %zu, \"memcpy_1t_gbs\": %.3f, \"memcpy_nt_gbs\": %.3f, "
      "\"zstd_chunks\": %zu, \"zstd_decoded_bytes\": %zu, \"zstd_stored_bytes\": %zu, \"zstd_1t_gbs\": %.3f, "
      "\"blosc_chunks\": %zu, \"blosc_decoded_bytes\": %zu, \"blosc_stored_bytes\": %zu, \"blosc_1t_gbs\": %.3f}\n",
      nproc, n, n / t_memcpy1 / gb, n / t_memcpyN / gb, zchunks.size(), zbytes, zstored, zbytes / t_zstd / gb,
      bchunks.size(), bbytes, bstored, bbytes / t_blosc / gb);
  return 0;
}
