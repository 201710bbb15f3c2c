// Codec speed: MB/s of encode and decode for every codec on a 64 MiB buffer,
// and for zstd, lz4, zlib and blosc the same work done by calling the library
// directly, so the cost of libzarr's wrapper shows as a percentage.
// Decoding writes into a buffer the caller owns (BytesCodec::decode_into, as
// the array engine uses it), on both sides. Encoding writes into a fresh
// buffer of the compressor's bound, not zeroed, on both sides
// (BytesCodec::encode_into for zstd, lz4 and blosc; the raw side allocates
// its compressBound output per call); encode() into a Bytes, which zeroes its
// bound first, is printed beside it.
// A benchmark, not a test: it prints figures and exits 0.
//
//   meson test -C build --benchmark --suite bench -v     (or run the executable)
//
// Data: uint16 values of a smooth field plus 4 random low bits, the kind of
// data Zarr holds; MB = 10^6 bytes of decoded data per second; best of 5.
#include <blosc.h>
#include <lz4.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/json.h"
#include "codecs/codec.h"

namespace {

using zarr::Bytes;
using zarr::ByteView;

constexpr size_t kBytes = 64u << 20;
constexpr int kRuns = 5;

Bytes make_data() {
  Bytes data(kBytes);
  std::mt19937 rng(42);
  auto* values = reinterpret_cast<uint16_t*>(data.data());
  for (size_t i = 0; i < kBytes / 2; ++i) {
    const double x = static_cast<double>(i % 4096) / 4096.0, y = static_cast<double>(i / 4096) / 8192.0;
    const double field = 0.5 + 0.25 * std::sin(6.0 * x) * std::cos(5.0 * y);
    values[i] = static_cast<uint16_t>(static_cast<uint16_t>(field * 4096.0) << 4 | (rng() & 0xF));
  }
  return data;
}

// Best wall time of kRuns calls, in seconds.
double best_of(const std::function<void()>& run) {
  double best = 1e30;
  for (int r = 0; r < kRuns; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

double mbps(double seconds) { return static_cast<double>(kBytes) / seconds / 1e6; }

using Owned = std::unique_ptr<char[]>;

struct Raw {
  std::function<size_t(const Bytes& in, Owned& out)> encode;  // returns the encoded size
  std::function<void(const char* in, size_t n, Bytes& out)> decode;
};

// The libraries called directly, as the libzarr codec of the same row calls them.
Raw raw_zstd(int level) {
  return {[level](const Bytes& in, Owned& out) {
            const size_t bound = ZSTD_compressBound(in.size());
            out.reset(new char[bound]);
            return ZSTD_compress(out.get(), bound, in.data(), in.size(), level);
          },
          [](const char* in, size_t n, Bytes& out) { ZSTD_decompress(out.data(), out.size(), in, n); }};
}

Raw raw_lz4() {  // numcodecs' lz4 adds a 4-byte size header, skipped here
  return {[](const Bytes& in, Owned& out) {
            const int bound = LZ4_compressBound(static_cast<int>(in.size()));
            out.reset(new char[bound]);
            return static_cast<size_t>(LZ4_compress_fast(reinterpret_cast<const char*>(in.data()), out.get(),
                                                         static_cast<int>(in.size()), bound, 1));
          },
          [](const char* in, size_t n, Bytes& out) {
            LZ4_decompress_safe(in, reinterpret_cast<char*>(out.data()), static_cast<int>(n),
                                static_cast<int>(out.size()));
          }};
}

Raw raw_zlib(int level) {
  return {[level](const Bytes& in, Owned& out) {
            uLongf n = compressBound(in.size());
            out.reset(new char[n]);
            compress2(reinterpret_cast<Bytef*>(out.get()), &n, in.data(), in.size(), level);
            return static_cast<size_t>(n);
          },
          [](const char* in, size_t n, Bytes& out) {
            uLongf size = out.size();
            uncompress(out.data(), &size, reinterpret_cast<const Bytef*>(in), n);
          }};
}

Raw raw_blosc(const char* cname, int clevel, int shuffle, size_t typesize) {
  return {[=](const Bytes& in, Owned& out) {
            const size_t bound = in.size() + BLOSC_MAX_OVERHEAD;
            out.reset(new char[bound]);
            return static_cast<size_t>(
                blosc_compress_ctx(clevel, shuffle, typesize, in.size(), in.data(), out.get(), bound, cname, 0, 1));
          },
          [](const char* in, size_t, Bytes& out) { blosc_decompress_ctx(in, out.data(), out.size(), 1); }};
}

struct Row {
  std::string config;  // v2 form
  std::function<Raw()> raw;  // empty: no raw comparison
};

void bench(const Row& row, const Bytes& data) {
  rapidjson::Document config = zarr::json::parse(row.config, "bench");
  const zarr::ChunkRepr repr{2, data.size(), "<u2"};
  std::unique_ptr<zarr::BytesCodec> codec = zarr::make_bytes_codec(config, repr);
  Bytes encoded;
  double enc = best_of([&] { encoded = codec->encode(data); });
  const double enc_to_bytes = enc;
  // Codecs with a bound encode into a fresh buffer of it, not zeroed, as the
  // array engine calls them and as the raw side below does.
  const size_t bound = codec->encoded_bound(data.size());
  if (bound != 0) {
    std::unique_ptr<uint8_t[]> out;
    size_t size = 0;
    enc = best_of([&] {
      out.reset(new uint8_t[bound]);
      size = codec->encode_into(data, out.get(), bound);
    });
    encoded.assign(out.get(), out.get() + size);
  }
  Bytes decoded(data.size());
  const double dec = best_of([&] { codec->decode_into(encoded, decoded.data(), decoded.size()); });
  const bool same = decoded == data;
  std::printf("%-62s ratio %6.2f  encode %8.0f MB/s  decode %8.0f MB/s%s\n", row.config.c_str(),
              static_cast<double>(data.size()) / encoded.size(), mbps(enc), mbps(dec), same ? "" : "  WRONG RESULT");
  if (bound != 0) {
    std::printf("%-62s encode() into a new Bytes (zeroed first): %.0f MB/s\n", "", mbps(enc_to_bytes));
  }
  if (!row.raw) return;
  Raw raw = row.raw();
  Owned raw_out;
  size_t raw_size = 0;
  const double raw_enc = best_of([&] { raw_size = raw.encode(data, raw_out); });
  Bytes raw_decoded(data.size());
  const double raw_dec = best_of([&] { raw.decode(raw_out.get(), raw_size, raw_decoded); });
  std::printf("%-62s ratio %6.2f  encode %8.0f MB/s  decode %8.0f MB/s   wrapper cost: encode %+.1f%%, decode %+.1f%%\n",
              "  the library called directly", static_cast<double>(data.size()) / raw_size, mbps(raw_enc),
              mbps(raw_dec), 100.0 * (enc / raw_enc - 1.0), 100.0 * (dec / raw_dec - 1.0));
}

}  // namespace

int main() {
  blosc_init();
  const Bytes data = make_data();
  std::printf("codec speed on %zu MiB of uint16 (smooth field + 4 random low bits), best of %d, one thread\n",
              kBytes >> 20, kRuns);
  const std::vector<Row> rows = {
      {R"({"id":"zstd","level":1})", [] { return raw_zstd(1); }},
      {R"({"id":"zstd","level":5})", [] { return raw_zstd(5); }},
      {R"({"id":"lz4","acceleration":1})", [] { return raw_lz4(); }},
      {R"({"id":"zlib","level":1})", [] { return raw_zlib(1); }},
      {R"({"id":"blosc","cname":"lz4","clevel":5,"shuffle":1,"blocksize":0})", [] { return raw_blosc("lz4", 5, 1, 2); }},
      {R"({"id":"blosc","cname":"zstd","clevel":3,"shuffle":2,"blocksize":0})", [] { return raw_blosc("zstd", 3, 2, 2); }},
      {R"({"id":"gzip","level":1})", nullptr},
      {R"({"id":"bz2","level":1})", nullptr},
      {R"({"id":"lzma","preset":1})", nullptr},
      {R"({"id":"shuffle","elementsize":2})", nullptr},
      {R"({"id":"delta","dtype":"<u2"})", nullptr},
      {R"({"id":"crc32c"})", nullptr},
      {R"({"id":"crc32"})", nullptr},
      {R"({"id":"adler32"})", nullptr},
      {R"({"id":"fletcher32"})", nullptr},
  };
  for (const Row& row : rows) bench(row, data);
  blosc_destroy();
  return 0;
}
