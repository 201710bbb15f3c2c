// Region I/O benchmark, the libzarr side of scripts/bench.sh (scripts/bench.py
// drives it; docs/performance.md has the table). It uses the public C API only
// (zarr.h), as an application would. A benchmark, not a test: it prints
// figures and exits 0 unless a libzarr call fails or a read gives wrong values.
//
//   bench_region_io gen     DATA                     write the 256 MiB data file
//   bench_region_io create  KIND DIR DATA            create array KIND at DIR from DATA
//   bench_region_io read    DIR RUNS [OFFSET [OPTIONS]]  open + read whole + close, best of RUNS
//                                                    (OFFSET: into a malloc'd buffer placed OFFSET
//                                                    bytes past a page boundary, issue 25; DIR may
//                                                    be an http:// URL, OPTIONS zarr_open_ex's JSON)
//   bench_region_io write   KIND DIR DATA RUNS       create + write whole + close, best of RUNS
//   bench_region_io windows DIR POSITIONS RUNS       read the 16^3 windows at POSITIONS
//   bench_region_io rss     DIR [STEP]               1 GiB write + read, one call each
//                                                    (STEP write: the write only, for diagnosis)
//   bench_region_io checksum DATA                    checksum of a data file
//   bench_region_io selcreate DIR                    the float64 array of the selection workloads
//   bench_region_io select DIR WORKLOAD MODE INDICES RUNS   one selection workload (below)
//   bench_region_io selsum DIR                       checksum of a selection array's values
//   bench_region_io selftest                         every kind on a small array (meson benchmark)
//
// KIND: v2raw8 | v2zstd8 | v2lz48 | v2zstd32 | v3shard | v3zstd8 (see kind_metadata).
// DATA: the raw C-order little-endian uint16 values of shape kShape.
// POSITIONS: text, one window start "z y x" per line.
//
// Selection workloads (issue 22; scripts/bench.py's S rows): float64 [5120, 5120]
// in [512, 512] chunks, blosc lz4 + shuffle, v2 (200 MiB). WORKLOAD: oindex (the
// orthogonal indices of INDICES), vindex (its points), mask (a 2-D mask of every 3rd
// row, as points), maskrows (a 1-D mask of every 3rd row, orthogonal), step (every 3rd
// row and column). MODE: read, write, or touched-read / touched-write: the chunks the
// selection touches read whole (and written back), the reference of "within 2x".
// INDICES: "n i_0 .. i_n-1" per axis for oindex, then "npoints r c r c ...".
//
// Each timed command prints one line "RESULT {json}" with best_s, runs_s (every
// run, seconds) and, for reads, the checksum of the values read (computed after
// the timed runs): s1 = sum v[i], s2 = sum v[i] * (i % 251 + 1), both exact in
// doubles, so Python and JavaScript compute the same pair.
#include <sys/resource.h>
#include <unistd.h>
#include <zarr/zarr.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// 256 MiB of uint16. 8 MiB chunks of [16, 512, 512], 32^3 chunks and
// 64x256x256 shards all tile it exactly.
uint64_t g_shape[3] = {64, 1024, 2048};

uint64_t n_elements() { return g_shape[0] * g_shape[1] * g_shape[2]; }

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_region_io: %s\n", what.c_str());
  std::exit(1);
}

void check(int status, const std::string& what) {
  if (status != ZARR_OK) die(what + ": " + zarr_status_name(status) + ": " + zarr_last_error());
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string shape_json(const uint64_t* s) {
  return "[" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " + std::to_string(s[2]) + "]";
}

// The metadata document of each kind of array the benchmark uses.
std::string kind_metadata(const std::string& kind) {
  const std::string shape = shape_json(g_shape);
  const std::string v2 = R"({"zarr_format": 2, "shape": )" + shape +
                         R"(, "dtype": "<u2", "order": "C", "fill_value": 0, "filters": null, )";
  const std::string chunks8 = R"("chunks": [16, 512, 512], )";
  const std::string chunks32 = R"("chunks": [32, 32, 32], )";
  if (kind == "v2raw8") return v2 + chunks8 + R"("compressor": null})";
  if (kind == "v2zstd8") return v2 + chunks8 + R"("compressor": {"id": "zstd", "level": 1}})";
  if (kind == "v2lz48")
    return v2 + chunks8 + R"("compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}})";
  if (kind == "v2zstd32") return v2 + chunks32 + R"("compressor": {"id": "zstd", "level": 1}})";
  const std::string v3 = R"({"zarr_format": 3, "node_type": "array", "shape": )" + shape +
                         R"(, "data_type": "uint16", "fill_value": 0, )"
                         R"("chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}, )";
  const std::string bytes_zstd =
      R"([{"name": "bytes", "configuration": {"endian": "little"}}, )"
      R"({"name": "zstd", "configuration": {"level": 1, "checksum": false}}])";
  if (kind == "v3zstd8")
    return v3 + R"("chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [16, 512, 512]}}, "codecs": )" +
           bytes_zstd + "}";
  if (kind == "v3shard")
    return v3 + R"("chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [64, 256, 256]}}, )"
                R"("codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [32, 32, 32], "codecs": )" +
           bytes_zstd +
           R"(, "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}], )"
           R"("index_location": "end"}}]})";
  die("unknown kind " + kind);
}

// A smooth field plus 4 random low bits, the kind of data Zarr holds.
std::vector<uint16_t> make_data() {
  std::vector<uint16_t> v(n_elements());
  std::mt19937 rng(42);
  const uint64_t nz = g_shape[0], ny = g_shape[1], nx = g_shape[2];
  std::vector<double> sx(nx), cy(ny);
  for (uint64_t x = 0; x < nx; ++x) sx[x] = std::sin(6.0 * static_cast<double>(x) / static_cast<double>(nx));
  for (uint64_t y = 0; y < ny; ++y) cy[y] = std::cos(5.0 * static_cast<double>(y) / static_cast<double>(ny));
  size_t i = 0;
  for (uint64_t z = 0; z < nz; ++z) {
    const double fz = 0.15 * static_cast<double>(z) / static_cast<double>(nz);
    for (uint64_t y = 0; y < ny; ++y) {
      for (uint64_t x = 0; x < nx; ++x) {
        const double field = 0.4 + fz + 0.25 * sx[x] * cy[y];
        v[i++] = static_cast<uint16_t>(static_cast<uint16_t>(field * 4096.0) << 4 | (rng() & 0xF));
      }
    }
  }
  return v;
}

std::vector<uint16_t> load(const std::string& path) {
  std::vector<uint16_t> v(n_elements());
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * 2)))
    die("cannot read " + std::to_string(v.size() * 2) + " bytes from " + path);
  return v;
}

struct Checksum {
  double s1 = 0, s2 = 0;
};

Checksum checksum(const uint16_t* v, size_t n) {
  // Integer sums (exact), reported as doubles (exact below 2^53).
  uint64_t s1 = 0, s2 = 0, w = 1;
  for (size_t i = 0; i < n; ++i) {
    s1 += v[i];
    s2 += static_cast<uint64_t>(v[i]) * w;
    if (++w == 252) w = 1;
  }
  return {static_cast<double>(s1), static_cast<double>(s2)};
}

std::string checksum_json(const Checksum& c) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "[%.0f, %.0f]", c.s1, c.s2);
  return buf;
}

void print_result(const std::string& extra, const std::vector<double>& runs) {
  std::ostringstream o;
  o.precision(6);
  o << "RESULT {\"best_s\": " << *std::min_element(runs.begin(), runs.end()) << ", \"runs_s\": [";
  for (size_t i = 0; i < runs.size(); ++i) o << (i ? ", " : "") << runs[i];
  o << "]" << extra << "}";
  std::printf("%s\n", o.str().c_str());
  std::fflush(stdout);
}

void write_whole(const std::string& kind, const std::string& dir, const uint16_t* data) {
  zarr_array* a = nullptr;
  check(zarr_create(&a, dir.c_str(), kind_metadata(kind).c_str()), "zarr_create " + dir);
  const uint64_t start[3] = {0, 0, 0};
  check(zarr_write_region(a, 3, start, g_shape, data, n_elements() * 2), "zarr_write_region " + dir);
  check(zarr_close(a), "zarr_close " + dir);
}

void read_whole(const std::string& dir, uint16_t* out, const std::string& options = "") {
  zarr_array* a = nullptr;
  check(zarr_open_ex(&a, dir.c_str(), "r", options.empty() ? nullptr : options.c_str()), "zarr_open_ex " + dir);
  uint64_t shape[3];
  if (zarr_ndim(a) != 3) die(dir + " is not 3-d");
  check(zarr_shape(a, shape), "zarr_shape");
  if (!std::equal(shape, shape + 3, g_shape)) die(dir + " has another shape");
  const uint64_t start[3] = {0, 0, 0};
  check(zarr_read_region(a, 3, start, g_shape, out, n_elements() * 2), "zarr_read_region " + dir);
  check(zarr_close(a), "zarr_close " + dir);
}

// A buffer of n uint16 as users allocate theirs: malloc'd (glibc and NumPy
// put a large one 16 bytes past a page), here placed `offset` bytes past a
// page boundary (16, a cache line's 64, a page's 4096), pages faulted in.
class PlacedBuffer {
 public:
  PlacedBuffer(size_t n, size_t offset) : block_(static_cast<uint8_t*>(std::malloc(n * 2 + 2 * kPage))) {
    if (!block_) die("cannot allocate " + std::to_string(n * 2) + " bytes");
    std::memset(block_, 0xAB, n * 2 + 2 * kPage);
    const size_t to_page = (kPage - reinterpret_cast<uintptr_t>(block_) % kPage) % kPage;
    data_ = reinterpret_cast<uint16_t*>(block_ + to_page + offset % kPage);
  }
  PlacedBuffer(const PlacedBuffer&) = delete;
  PlacedBuffer& operator=(const PlacedBuffer&) = delete;
  ~PlacedBuffer() { std::free(block_); }
  uint16_t* data() const { return data_; }

 private:
  static constexpr size_t kPage = 4096;
  uint8_t* block_;
  uint16_t* data_ = nullptr;
};

// Without OFFSET the buffer is 16 bytes past a page, where the std::vector
// this read into before issue 25 was.
int cmd_read(const std::string& dir, int runs, size_t offset, const std::string& options = "") {
  const PlacedBuffer placed(n_elements(), offset);
  uint16_t* const out = placed.data();
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const double t0 = now();
    read_whole(dir, out, options);
    times.push_back(now() - t0);
  }
  const std::string page_offset = std::to_string(reinterpret_cast<uintptr_t>(out) % 4096);
  print_result(", \"page_offset\": " + page_offset + ", \"checksum\": " + checksum_json(checksum(out, n_elements())),
               times);
  return 0;
}

int cmd_write(const std::string& kind, const std::string& dir, const std::string& data_path, int runs) {
  const std::vector<uint16_t> data = load(data_path);
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    fs::remove_all(dir);  // untimed: every run writes a new array
    const double t0 = now();
    write_whole(kind, dir, data.data());
    times.push_back(now() - t0);
  }
  // Untimed: what was written reads back as the data.
  std::vector<uint16_t> back(n_elements());
  read_whole(dir, back.data());
  if (back != data) die("write " + kind + ": " + dir + " does not read back as the data");
  print_result(", \"checksum\": " + checksum_json(checksum(back.data(), back.size())), times);
  return 0;
}

int cmd_windows(const std::string& dir, const std::string& positions_path, int runs) {
  std::vector<uint64_t> pos;
  {
    std::ifstream in(positions_path);
    uint64_t v;
    while (in >> v) pos.push_back(v);
  }
  if (pos.empty() || pos.size() % 3) die("bad positions file " + positions_path);
  const size_t n = pos.size() / 3;
  const uint64_t count[3] = {16, 16, 16};
  std::vector<uint16_t> out(n * 4096);
  std::memset(out.data(), 0xAB, out.size() * 2);
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const double t0 = now();
    zarr_array* a = nullptr;
    check(zarr_open(&a, dir.c_str(), "r"), "zarr_open " + dir);
    for (size_t w = 0; w < n; ++w)
      check(zarr_read_region(a, 3, &pos[3 * w], count, &out[w * 4096], 4096 * 2), "zarr_read_region window");
    check(zarr_close(a), "zarr_close");
    times.push_back(now() - t0);
  }
  print_result(", \"windows\": " + std::to_string(n) + ", \"checksum\": " + checksum_json(checksum(out.data(), out.size())),
               times);
  return 0;
}

// Peak memory of one 1 GiB write and one 1 GiB read (run under /usr/bin/time -v):
// uint16 [256, 1024, 2048], zstd 1, chunks [16, 512, 512]. One buffer of region
// bytes: written from, then read back into.
int cmd_rss(const std::string& dir, const std::string& step) {
  g_shape[0] = 256;
  std::vector<uint16_t> data = make_data();
  const Checksum before = checksum(data.data(), data.size());
  fs::remove_all(dir);
  double t0 = now();
  write_whole("v2zstd8", dir, data.data());
  const double t_write = now() - t0;
  if (step == "write") {
    std::printf("RESULT {\"region_bytes\": %llu, \"write_s\": %.4f}\n", static_cast<unsigned long long>(data.size() * 2),
                t_write);
    fs::remove_all(dir);
    return 0;
  }
  std::memset(data.data(), 0, data.size() * 2);
  t0 = now();
  read_whole(dir, data.data());
  const double t_read = now() - t0;
  const Checksum after = checksum(data.data(), data.size());
  if (after.s1 != before.s1 || after.s2 != before.s2) die("rss: the 1 GiB array does not read back as written");
  char buf[200];
  std::snprintf(buf, sizeof buf, "RESULT {\"region_bytes\": %llu, \"write_s\": %.4f, \"read_s\": %.4f}",
                static_cast<unsigned long long>(data.size() * 2), t_write, t_read);
  std::printf("%s\n", buf);
  fs::remove_all(dir);
  return 0;
}

int cmd_selftest() {
  g_shape[0] = 64;
  g_shape[1] = 256;
  g_shape[2] = 512;  // 16 MiB: still tiled by every chunk and shard shape
  const fs::path root = fs::temp_directory_path() / ("libzarr-bench-selftest-" + std::to_string(::getpid()));
  fs::create_directories(root);
  const std::vector<uint16_t> data = make_data();
  const std::string data_path = (root / "data.u16").string();
  {
    std::ofstream out(data_path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * 2));
  }
  const std::string expected = checksum_json(checksum(data.data(), data.size()));
  for (const char* kind : {"v2raw8", "v2zstd8", "v2lz48", "v2zstd32", "v3shard", "v3zstd8"}) {
    const std::string dir = (root / kind).string();
    std::printf("%-9s write: ", kind);
    cmd_write(kind, dir, data_path, 2);
    std::printf("%-9s read:  ", kind);
    cmd_read(dir, 2, 16);
  }
  std::printf("expected checksum %s\n", expected.c_str());
  fs::remove_all(root);
  return 0;
}


// ---- selections (issue 22) ----

constexpr uint64_t kSelSide = 5120;
constexpr uint64_t kSelChunk = 512;

std::string selection_metadata() {
  return R"({"zarr_format": 2, "shape": [5120, 5120], "chunks": [512, 512], "dtype": "<f8", "order": "C", )"
         R"("fill_value": 0, "filters": null, )"
         R"("compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}})";
}

// A smooth field plus noise in the last 20 bits of the fraction, as measured values are.
int cmd_selcreate(const std::string& dir) {
  std::vector<double> v(kSelSide * kSelSide);
  std::mt19937 rng(7);
  for (uint64_t y = 0; y < kSelSide; ++y) {
    for (uint64_t x = 0; x < kSelSide; ++x) {
      const double field = 280.0 + 10.0 * std::sin(static_cast<double>(x) / 300.0) * std::cos(static_cast<double>(y) / 200.0);
      v[y * kSelSide + x] = field + static_cast<double>(rng() % 1000000) * 1e-9;
    }
  }
  fs::remove_all(dir);
  zarr_array* a = nullptr;
  check(zarr_create(&a, dir.c_str(), selection_metadata().c_str()), "zarr_create " + dir);
  const uint64_t start[2] = {0, 0}, count[2] = {kSelSide, kSelSide};
  check(zarr_write_region(a, 2, start, count, v.data(), v.size() * 8), "zarr_write_region " + dir);
  check(zarr_close(a), "zarr_close " + dir);
  std::printf("RESULT {}\n");
  return 0;
}

// [sum u, sum u * (i % 251 + 1)] mod 2^64 of the values' bit patterns u: exact, and the
// same in NumPy (uint64 sums wrap).
std::string bits_checksum(const double* v, size_t n) {
  uint64_t s1 = 0, s2 = 0, w = 1;
  for (size_t i = 0; i < n; ++i) {
    uint64_t u;
    std::memcpy(&u, &v[i], 8);
    s1 += u;
    s2 += u * w;
    if (++w == 252) w = 1;
  }
  return "[" + std::to_string(s1) + ", " + std::to_string(s2) + "]";
}

// What a workload selects, as the C API takes it: per-axis indices or points.
struct SelectionKey {
  std::vector<std::vector<uint64_t>> axes;  // oindex, maskrows, step (as its indices, for touched)
  std::vector<uint64_t> coords;             // vindex, mask: point after point
  bool points = false;
};

// The 2-D mask of every 3rd row (a user's input, untimed).
std::vector<uint8_t> every_third_row_mask() {
  std::vector<uint8_t> mask(kSelSide * kSelSide, 0);
  for (uint64_t y = 0; y < kSelSide; y += 3) std::memset(&mask[y * kSelSide], 1, kSelSide);
  return mask;
}

// A mask's true positions as points (what zarr-python's mask selection does: np.nonzero).
std::vector<uint64_t> mask_points(const std::vector<uint8_t>& mask) {
  std::vector<uint64_t> coords;
  coords.reserve(2 * static_cast<size_t>(std::count(mask.begin(), mask.end(), uint8_t{1})));
  for (uint64_t i = 0; i < mask.size(); ++i) {
    if (mask[i]) {
      coords.push_back(i / kSelSide);
      coords.push_back(i % kSelSide);
    }
  }
  return coords;
}

std::vector<uint64_t> every_third(uint64_t n) {
  std::vector<uint64_t> v;
  for (uint64_t i = 0; i < n; i += 3) v.push_back(i);
  return v;
}

std::vector<uint64_t> all_of(uint64_t n) {
  std::vector<uint64_t> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

SelectionKey read_indices(const std::string& workload, const std::string& path) {
  std::ifstream in(path);
  SelectionKey key;
  for (int d = 0; d < 2; ++d) {
    uint64_t n = 0;
    in >> n;
    std::vector<uint64_t> axis(n);
    for (uint64_t& i : axis) in >> i;
    if (workload == "oindex") key.axes.push_back(std::move(axis));
  }
  uint64_t npoints = 0;
  in >> npoints;
  std::vector<uint64_t> coords(2 * npoints);
  for (uint64_t& c : coords) in >> c;
  if (!in) die("bad index file " + path);
  if (workload == "vindex") {
    key.coords = std::move(coords);
    key.points = true;
  } else if (workload == "maskrows") {
    key.axes = {every_third(kSelSide), all_of(kSelSide)};
  } else if (workload == "step") {
    key.axes = {every_third(kSelSide), every_third(kSelSide)};
  } else if (workload == "mask") {
    key.points = true;  // the coordinates are made from the mask in the timed part
  } else if (workload != "oindex") {
    die("unknown selection workload " + workload);
  }
  return key;
}

// One timed selection call (open and close around it), as a user writes it.
std::vector<double> select_once(zarr_array* a, const std::string& workload, bool write, const SelectionKey& key,
                                const std::vector<uint8_t>& mask) {
  if (workload == "step") {
    const uint64_t start[2] = {0, 0}, count[2] = {key.axes[0].size(), key.axes[1].size()}, step[2] = {3, 3};
    std::vector<double> buf(count[0] * count[1]);
    if (write) {
      for (size_t i = 0; i < buf.size(); ++i) buf[i] = -static_cast<double>(i + 1);
      check(zarr_write_region_step(a, 2, start, count, step, buf.data(), buf.size() * 8), "zarr_write_region_step");
    } else {
      check(zarr_read_region_step(a, 2, start, count, step, buf.data(), buf.size() * 8), "zarr_read_region_step");
    }
    return buf;
  }
  if (key.points) {
    const std::vector<uint64_t> computed = workload == "mask" ? mask_points(mask) : std::vector<uint64_t>();
    const std::vector<uint64_t>& coords = workload == "mask" ? computed : key.coords;
    const uint64_t n = coords.size() / 2;
    std::vector<double> buf(n);
    if (write) {
      for (size_t i = 0; i < n; ++i) buf[i] = workload == "mask" ? 5.0 : -static_cast<double>(i + 1);
      check(zarr_write_points(a, 2, n, coords.data(), buf.data(), n * 8), "zarr_write_points");
    } else {
      check(zarr_read_points(a, 2, n, coords.data(), buf.data(), n * 8), "zarr_read_points");
    }
    return buf;
  }
  const uint64_t* indices[2] = {key.axes[0].data(), key.axes[1].data()};
  const uint64_t counts[2] = {key.axes[0].size(), key.axes[1].size()};
  std::vector<double> buf(counts[0] * counts[1]);
  if (write) {
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = workload == "maskrows" ? 5.0 : -static_cast<double>(i + 1);
    check(zarr_write_orthogonal(a, 2, indices, counts, buf.data(), buf.size() * 8), "zarr_write_orthogonal");
  } else {
    check(zarr_read_orthogonal(a, 2, indices, counts, buf.data(), buf.size() * 8), "zarr_read_orthogonal");
  }
  return buf;
}

// The chunks a selection touches, as runs of whole chunks along each chunk row:
// (first row, first column, columns) in elements.
std::vector<std::array<uint64_t, 3>> touched_runs(const std::string& workload, const SelectionKey& key) {
  const uint64_t grid = kSelSide / kSelChunk;
  std::vector<uint8_t> touched(grid * grid, 0);
  if (key.points) {
    const std::vector<uint64_t> coords = workload == "mask" ? mask_points(every_third_row_mask()) : key.coords;
    for (size_t p = 0; p < coords.size(); p += 2) touched[coords[p] / kSelChunk * grid + coords[p + 1] / kSelChunk] = 1;
  } else {
    for (uint64_t r : key.axes[0])
      for (uint64_t c : key.axes[1]) touched[r / kSelChunk * grid + c / kSelChunk] = 1;
  }
  std::vector<std::array<uint64_t, 3>> runs;
  for (uint64_t r = 0; r < grid; ++r) {
    for (uint64_t c = 0; c < grid;) {
      if (!touched[r * grid + c]) {
        ++c;
        continue;
      }
      uint64_t end = c;
      while (end < grid && touched[r * grid + end]) ++end;
      runs.push_back({r * kSelChunk, c * kSelChunk, (end - c) * kSelChunk});
      c = end;
    }
  }
  return runs;
}

// The touched chunks read whole (and, for touched-write, written back whole).
void touched_once(zarr_array* a, const std::vector<std::array<uint64_t, 3>>& runs, bool write) {
  std::vector<double> buf(kSelChunk * kSelSide);
  for (const auto& run : runs) {
    const uint64_t start[2] = {run[0], run[1]}, count[2] = {kSelChunk, run[2]};
    const size_t nbytes = count[0] * count[1] * 8;
    check(zarr_read_region(a, 2, start, count, buf.data(), nbytes), "zarr_read_region (touched)");
    if (write) check(zarr_write_region(a, 2, start, count, buf.data(), nbytes), "zarr_write_region (touched)");
  }
}

// CPU seconds (user + system, every thread) this process has used: with wall time, it
// tells the work done from waiting for a CPU on a shared machine.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

int cmd_select(const std::string& dir, const std::string& workload, const std::string& mode,
               const std::string& index_path, int runs) {
  const SelectionKey key = read_indices(workload, index_path);
  const std::vector<uint8_t> mask = workload == "mask" ? every_third_row_mask() : std::vector<uint8_t>();
  const bool touched = mode.rfind("touched-", 0) == 0;
  const bool write = mode == "write" || mode == "touched-write";
  if (!write && mode != "read" && mode != "touched-read") die("unknown selection mode " + mode);
  const std::vector<std::array<uint64_t, 3>> runs_of_chunks = touched ? touched_runs(workload, key)
                                                                      : std::vector<std::array<uint64_t, 3>>();
  std::vector<double> times, cpu, last;
  for (int r = 0; r < runs; ++r) {
    const double t0 = now(), c0 = cpu_seconds();
    zarr_array* a = nullptr;
    check(zarr_open(&a, dir.c_str(), write ? "r+" : "r"), "zarr_open " + dir);
    if (touched) {
      touched_once(a, runs_of_chunks, write);
    } else {
      last = select_once(a, workload, write, key, mask);
    }
    check(zarr_close(a), "zarr_close " + dir);
    times.push_back(now() - t0);
    cpu.push_back(cpu_seconds() - c0);
  }
  std::string extra = ", \"best_cpu_s\": " + std::to_string(*std::min_element(cpu.begin(), cpu.end())) +
                      ", \"chunk_runs\": " + std::to_string(runs_of_chunks.size());
  if (!touched && !write) extra += ", \"elements\": " + std::to_string(last.size()) + ", \"checksum\": " +
                                   bits_checksum(last.data(), last.size());
  print_result(extra, times);
  return 0;
}

int cmd_selsum(const std::string& dir) {
  std::vector<double> v(kSelSide * kSelSide);
  zarr_array* a = nullptr;
  check(zarr_open(&a, dir.c_str(), "r"), "zarr_open " + dir);
  const uint64_t start[2] = {0, 0}, count[2] = {kSelSide, kSelSide};
  check(zarr_read_region(a, 2, start, count, v.data(), v.size() * 8), "zarr_read_region " + dir);
  check(zarr_close(a), "zarr_close " + dir);
  std::printf("RESULT {\"checksum\": %s}\n", bits_checksum(v.data(), v.size()).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  auto need = [&](size_t n) {
    if (a.size() != n) die("wrong number of arguments for " + (a.empty() ? std::string("?") : a[0]));
  };
  if (a.empty()) die("usage: see the comment at the top of tests/bench/bench_region_io.cpp");
  const std::string& cmd = a[0];
  if (cmd == "gen") {
    need(2);
    const std::vector<uint16_t> data = make_data();
    std::ofstream out(a[1], std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * 2));
    if (!out) die("cannot write " + a[1]);
    std::printf("RESULT {\"checksum\": %s}\n", checksum_json(checksum(data.data(), data.size())).c_str());
    return 0;
  }
  if (cmd == "checksum") {
    need(2);
    const std::vector<uint16_t> data = load(a[1]);
    std::printf("RESULT {\"checksum\": %s}\n", checksum_json(checksum(data.data(), data.size())).c_str());
    return 0;
  }
  if (cmd == "create") {
    need(4);
    const std::vector<uint16_t> data = load(a[3]);
    fs::remove_all(a[2]);
    write_whole(a[1], a[2], data.data());
    std::printf("RESULT {}\n");
    return 0;
  }
  if (cmd == "read") {
    if (a.size() < 3 || a.size() > 5) need(3);
    if (a.size() >= 4 && std::stoul(a[3]) % 2) die("read: OFFSET must be even (the buffer holds uint16)");
    return cmd_read(a[1], std::stoi(a[2]), a.size() >= 4 ? std::stoul(a[3]) : 16, a.size() == 5 ? a[4] : "");
  }
  if (cmd == "write") {
    need(5);
    return cmd_write(a[1], a[2], a[3], std::stoi(a[4]));
  }
  if (cmd == "windows") {
    need(4);
    return cmd_windows(a[1], a[2], std::stoi(a[3]));
  }
  if (cmd == "rss") {
    if (a.size() != 2 && a.size() != 3) need(2);
    return cmd_rss(a[1], a.size() == 3 ? a[2] : "both");
  }
  if (cmd == "selftest") return cmd_selftest();
  if (cmd == "selcreate") {
    need(2);
    return cmd_selcreate(a[1]);
  }
  if (cmd == "select") {
    need(6);
    return cmd_select(a[1], a[2], a[3], a[4], std::stoi(a[5]));
  }
  if (cmd == "selsum") {
    need(2);
    return cmd_selsum(a[1]);
  }
  die("unknown command " + cmd);
}
