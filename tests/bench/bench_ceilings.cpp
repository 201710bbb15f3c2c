// The machine's ceilings for scripts/bench.sh (docs/performance.md): what no
// Zarr library can beat on this machine, measured in the same run as the
// region benchmarks.
//
//   bench_ceilings ZSTD_ARRAY_DIR BLOSC_ARRAY_DIR SMALL_ZSTD_ARRAY_DIR RAW_ARRAY_DIR SHARDED_ARRAY_DIR RUNS
//
// - memcpy of 256 MiB into a buffer already faulted in, on one thread and on
//   nproc threads (each copying its slice), GB/s (10^9 bytes/s);
// - decode of every stored chunk of the v2 arrays (files other than
//   .zarray/.zattrs) with libzstd (ZSTD_decompressDCtx, one context) and
//   c-blosc (blosc_decompress_ctx, 1 thread) called directly, chunk files
//   already in memory, into one reused output buffer: GB/s of decoded output
//   on one thread, and that times nproc (a parallel engine's ceiling, if
//   decode scales perfectly); for the 8 MiB chunks (W2, W2b) and the 64 KiB
//   chunks (W4, W5);
// - the floors of the whole-array reads W2, W2b, W4 and W6r: every chunk
//   (or shard) file opened, read and decoded, nothing copied out: the files
//   on one thread, the decode on one thread, and both on nproc threads at
//   once, each thread its share (seconds);
// - zstd level 1 encode (ZSTD_compressCCtx, one context) of the raw array's
//   8 MiB chunks, GB/s of input on one thread (the writes' ceiling, W3, W6w);
//   and the floor of a whole-array write: those chunks encoded and written to
//   files of their own (in RAW_ARRAY_DIR-floor-writes, removed after), timed
//   as the read floors are.
// Best of RUNS. Prints one line "RESULT {json}". A benchmark: never fails on speed.
#include <blosc.h>
#include <fcntl.h>
#include <unistd.h>
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

// Best time for `threads` threads to do work(t, i) for every item i < items,
// thread t taking every t-th item.
double best_of_shared(int runs, unsigned threads, size_t items, const std::function<void(unsigned, size_t)>& work) {
  return best_of(runs, [&] {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (size_t i = t; i < items; i += threads) work(t, i);
      });
    }
    for (auto& t : pool) t.join();
  });
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_ceilings: %s\n", what.c_str());
  std::exit(1);
}

// The chunk files of an array folder (all but .zarray, .zattrs and
// zarr.json; v3's c/ folders included), sorted.
std::vector<std::string> chunk_names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name[0] != '.' && name != "zarr.json") names.push_back(e.path().string());
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) die("no chunk files in " + dir);
  return names;
}

std::vector<std::vector<char>> chunk_files(const std::string& dir) {
  std::vector<std::vector<char>> chunks;
  for (const auto& n : chunk_names(dir)) {
    std::ifstream in(n, std::ios::binary);
    chunks.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return chunks;
}

// Best time to decode every chunk with one zstd context; sets the decoded total.
double zstd_decode_seconds(const std::vector<std::vector<char>>& chunks, int runs, size_t& decoded_bytes) {
  size_t largest = 0;
  decoded_bytes = 0;
  for (const auto& c : chunks) {
    const unsigned long long size = ZSTD_getFrameContentSize(c.data(), c.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) die("zstd chunk without content size");
    largest = std::max<size_t>(largest, size);
    decoded_bytes += size;
  }
  std::vector<char> out(largest, 0);
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  const double t = best_of(runs, [&] {
    for (const auto& c : chunks) {
      const size_t r = ZSTD_decompressDCtx(dctx, out.data(), out.size(), c.data(), c.size());
      if (ZSTD_isError(r)) die(std::string("zstd: ") + ZSTD_getErrorName(r));
    }
  });
  ZSTD_freeDCtx(dctx);
  return t;
}

size_t total_size(const std::vector<std::vector<char>>& chunks) {
  size_t n = 0;
  for (const auto& c : chunks) n += c.size();
  return n;
}

// Open, read whole into a reused buffer, and close one chunk file.
size_t read_file(const std::string& name, std::vector<char>& buffer) {
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) die("cannot open " + name);
  const ssize_t n = ::read(fd, buffer.data(), buffer.size());
  if (n < 0) die("cannot read " + name);
  ::close(fd);
  return static_cast<size_t>(n);
}

// Best time to open, read and close every chunk file of dir.
double file_read_seconds(const std::string& dir, int runs, size_t& files) {
  const std::vector<std::string> names = chunk_names(dir);
  files = names.size();
  std::vector<char> buffer(size_t{16} << 20, 0);
  return best_of(runs, [&] {
    for (const auto& name : names) read_file(name, buffer);
  });
}

enum class Decoder { kZstd, kBlosc, kZstdShard };

// A shard of zstd inner chunks, decoded frame by frame up to its index (the
// index's first offset, 0, is no frame); false unless `expected` bytes came out.
bool decode_shard(ZSTD_DCtx* dctx, const char* in, size_t n, std::vector<char>& out, size_t expected) {
  size_t decoded = 0;
  for (size_t pos = 0; pos < n;) {
    const size_t frame = ZSTD_findFrameCompressedSize(in + pos, n - pos);
    if (ZSTD_isError(frame)) break;
    const size_t r = ZSTD_decompressDCtx(dctx, out.data(), out.size(), in + pos, frame);
    if (ZSTD_isError(r)) return false;
    decoded += r;
    pos += frame;
  }
  return decoded == expected;
}

bool decode(Decoder decoder, ZSTD_DCtx* dctx, const char* in, size_t n, std::vector<char>& out,
            size_t shard_bytes) {
  switch (decoder) {
    case Decoder::kZstd: return !ZSTD_isError(ZSTD_decompressDCtx(dctx, out.data(), out.size(), in, n));
    case Decoder::kBlosc: return blosc_decompress_ctx(in, out.data(), out.size(), 1) >= 0;
    case Decoder::kZstdShard: return decode_shard(dctx, in, n, out, shard_bytes);
  }
  return false;
}

// One whole-array read's or write's own work, for the floors: every chunk
// (or shard) file read and decoded, or encoded and written, nothing copied
// from or to a caller's buffer. Best of `runs` each.
struct Floor {
  double files_1t_s = 0;  // opening, reading (writing) and closing every file, one thread
  double codec_1t_s = 0;  // decoding (encoding) every chunk in memory, one thread
  double together_s = 0;  // both, on `threads` threads at once (thread t takes every t-th file)
};

Floor read_floor(const std::string& dir, int runs, unsigned threads, Decoder decoder, size_t shard_bytes = 0) {
  const std::vector<std::string> names = chunk_names(dir);
  Floor floor;
  size_t files = 0;
  floor.files_1t_s = file_read_seconds(dir, runs, files);
  const std::vector<std::vector<char>> chunks = chunk_files(dir);
  std::vector<char> out(size_t{16} << 20);
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  floor.codec_1t_s = best_of(runs, [&] {
    for (const auto& c : chunks) {
      if (!decode(decoder, dctx, c.data(), c.size(), out, shard_bytes)) die("cannot decode a chunk of " + dir);
    }
  });
  ZSTD_freeDCtx(dctx);
  // Measured, not one thread's figures times `threads`: threads running
  // together share the memory bus. Each thread's buffers and context are made
  // once, faulted in, as an engine keeps them.
  std::vector<std::vector<char>> in(threads, std::vector<char>(size_t{16} << 20, 0));
  std::vector<std::vector<char>> decoded(threads, std::vector<char>(size_t{16} << 20, 0));
  std::vector<ZSTD_DCtx*> contexts(threads);
  for (auto& c : contexts) c = ZSTD_createDCtx();
  floor.together_s = best_of_shared(runs, threads, names.size(), [&](unsigned t, size_t i) {
    const size_t n = read_file(names[i], in[t]);
    if (!decode(decoder, contexts[t], in[t].data(), n, decoded[t], shard_bytes)) die("cannot decode " + names[i]);
  });
  for (auto& c : contexts) ZSTD_freeDCtx(c);
  return floor;
}

// Write `bytes` to a new file (or over an old one) at `path`.
void write_file(const std::string& path, const char* bytes, size_t n) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) die("cannot create " + path);
  if (::write(fd, bytes, n) != static_cast<ssize_t>(n)) die("cannot write " + path);
  ::close(fd);
}

// A whole-array write's own work (W3, W6w): every raw chunk of raw_dir
// encoded with zstd level 1 and written to a file of its own in out_dir.
Floor write_floor(const std::string& raw_dir, const std::string& out_dir, int runs, unsigned threads) {
  const std::vector<std::vector<char>> chunks = chunk_files(raw_dir);
  fs::create_directories(out_dir);
  auto path = [&](size_t i) { return out_dir + "/" + std::to_string(i); };
  const size_t bound = ZSTD_compressBound(size_t{16} << 20);
  auto encode = [&](ZSTD_CCtx* cctx, const std::vector<char>& chunk, std::vector<char>& out) {
    const size_t n = ZSTD_compressCCtx(cctx, out.data(), out.size(), chunk.data(), chunk.size(), 1);
    if (ZSTD_isError(n)) die(std::string("zstd: ") + ZSTD_getErrorName(n));
    return n;
  };
  Floor floor;
  std::vector<std::vector<char>> encoded(chunks.size(), std::vector<char>(bound));
  std::vector<size_t> sizes(chunks.size());
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  floor.codec_1t_s = best_of(runs, [&] {
    for (size_t i = 0; i < chunks.size(); ++i) sizes[i] = encode(cctx, chunks[i], encoded[i]);
  });
  ZSTD_freeCCtx(cctx);
  floor.files_1t_s = best_of(runs, [&] {
    for (size_t i = 0; i < chunks.size(); ++i) write_file(path(i), encoded[i].data(), sizes[i]);
  });
  std::vector<std::vector<char>> out(threads, std::vector<char>(bound, 0));
  std::vector<ZSTD_CCtx*> contexts(threads);
  for (auto& c : contexts) c = ZSTD_createCCtx();
  floor.together_s = best_of_shared(runs, threads, chunks.size(), [&](unsigned t, size_t i) {
    write_file(path(i), out[t].data(), encode(contexts[t], chunks[i], out[t]));
  });
  for (auto& c : contexts) ZSTD_freeCCtx(c);
  fs::remove_all(out_dir);
  return floor;
}

std::string floor_json(const char* name, const Floor& f) {
  char text[256];
  std::snprintf(text, sizeof text, "\"%s_floor\": {\"files_1t_s\": %.5f, \"codec_1t_s\": %.5f, \"together_s\": %.5f}",
                name, f.files_1t_s, f.codec_1t_s, f.together_s);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    die("usage: bench_ceilings ZSTD_ARRAY_DIR BLOSC_ARRAY_DIR SMALL_ZSTD_ARRAY_DIR RAW_ARRAY_DIR SHARDED_ARRAY_DIR RUNS");
  }
  const int runs = std::atoi(argv[6]);
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

  // zstd: every chunk of the v2 zstd arrays (8 MiB and 64 KiB chunks).
  const auto zchunks = chunk_files(argv[1]);
  size_t zbytes = 0;
  const double t_zstd = zstd_decode_seconds(zchunks, runs, zbytes);
  const auto small_chunks = chunk_files(argv[3]);
  size_t small_bytes = 0;
  const double t_small = zstd_decode_seconds(small_chunks, runs, small_bytes);
  // The floors of the whole-array reads W2, W2b, W4 and W6r.
  const std::string floors = floor_json("w2", read_floor(argv[1], runs, nproc, Decoder::kZstd)) + ", " +
                             floor_json("w2b", read_floor(argv[2], runs, nproc, Decoder::kBlosc)) + ", " +
                             floor_json("w4", read_floor(argv[3], runs, nproc, Decoder::kZstd)) + ", " +
                             floor_json("w6r", read_floor(argv[5], runs, nproc, Decoder::kZstdShard,
                                                          size_t{64} * 256 * 256 * 2));

  // The floor of a whole-array write (W3, W6w), whose encode on one thread is
  // also the writes' ceiling; the files go beside the raw array, then away.
  const auto raw_chunks = chunk_files(argv[4]);
  const Floor writes = write_floor(argv[4], std::string(argv[4]) + "-floor-writes", runs, nproc);
  const double t_encode = writes.codec_1t_s;

  // blosc (lz4 + shuffle): every chunk of the v2 blosc array, one thread.
  const auto bchunks = chunk_files(argv[2]);
  size_t bmax = 0, bbytes = 0;
  for (const auto& c : bchunks) {
    size_t nbytes = 0, cbytes = 0, blocksize = 0;
    blosc_cbuffer_sizes(c.data(), &nbytes, &cbytes, &blocksize);
    bmax = std::max(bmax, nbytes);
    bbytes += nbytes;
  }
  std::vector<char> out(bmax, 0);
  const double t_blosc = best_of(runs, [&] {
    for (const auto& c : bchunks) {
      if (blosc_decompress_ctx(c.data(), out.data(), out.size(), 1) < 0) die("blosc decode failed");
    }
  });
  const size_t zstored = total_size(zchunks), bstored = total_size(bchunks);

  const double gb = 1e9;
  std::printf(
      "RESULT {\"nproc\": %u, \"memcpy_bytes\": %zu, \"memcpy_1t_gbs\": %.3f, \"memcpy_nt_gbs\": %.3f, "
      "\"zstd_chunks\": %zu, \"zstd_decoded_bytes\": %zu, \"zstd_stored_bytes\": %zu, \"zstd_1t_gbs\": %.3f, "
      "\"blosc_chunks\": %zu, \"blosc_decoded_bytes\": %zu, \"blosc_stored_bytes\": %zu, \"blosc_1t_gbs\": %.3f, "
      "\"small_zstd_chunks\": %zu, \"small_zstd_decoded_bytes\": %zu, \"small_zstd_1t_gbs\": %.3f, "
      "\"small_zstd_decode_us\": %.2f, "
      "%s, "
      "\"zstd1_encode_bytes\": %zu, \"zstd1_encode_1t_gbs\": %.3f}\n",
      nproc, n, n / t_memcpy1 / gb, n / t_memcpyN / gb, zchunks.size(), zbytes, zstored, zbytes / t_zstd / gb,
      bchunks.size(), bbytes, bstored, bbytes / t_blosc / gb, small_chunks.size(), small_bytes,
      small_bytes / t_small / gb, t_small / small_chunks.size() * 1e6,
      (floors + ", " + floor_json("write", writes)).c_str(), total_size(raw_chunks),
      total_size(raw_chunks) / t_encode / gb);
  return 0;
}
