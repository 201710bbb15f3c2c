// Zarr v3 interop with zarrita.js 0.7.5 (Node.js), both ways:
//
//  * LibzarrWritesV3: libzarr creates v3 arrays with zarr_create over a matrix
//    of every core codec chain (bytes little/big, transpose, gzip, zstd with
//    and without checksum, blosc with every shuffle, crc32c, sharding_indexed
//    with inner codecs, index codecs and the index at the start or end) x every
//    data type zarrita reads (bool, int8..int64, uint8..uint64, float32,
//    float64), cycling through chunk layouts (ragged edges, chunks larger than
//    the array), all four chunk key encodings (default and v2, "/" and "."),
//    and fill values (zero, non-zero, NaN, infinities, -0.0, extremes); two
//    partial writes leave chunks (and inner chunks of shards) unwritten. Plus
//    0-d arrays and arrays never written. zarrita reads each whole and in an
//    unaligned box; both must equal the model of the contents this test keeps.
//  * ZarritaWritesV3: zarrita creates arrays with zarr.create and writes them
//    with zarr.set (what it can encode: bytes, transpose, zstd, blosc), in
//    groups with attributes; values come from this test, which keeps the
//    expected contents; libzarr checks the metadata (type, shape, chunks, fill
//    value, attributes, dimension names), reads whole, in sub-regions and
//    strided, and lists the groups.
//  * ZarritaWritesLibzarrUpdates: libzarr opens a third of those arrays "r+",
//    rewrites a box and replaces the attributes; zarrita reads them again.
//
// zarrita.js is installed from the npm registry into the build tree on first
// use (zarrita_setup.sh, pinned by zarrita-peer/package-lock.json); the tests
// skip with a message when Node.js, npm or the registry is unavailable.
//
// Peer limitations worked around (not libzarr's), see needs_zarrita_copy and
// zarrita_codecs: zarrita 0.7.5 ignores the sharding codec's index_location
// (it always reads the index from the end), so libzarr's index-at-start
// shards are checked byte by byte here and rewritten with the index at the
// end for zarrita; it byte-swaps bool chunks in groups of 4 when "endian" is
// "big", so it reads those through a copy saying "little" and writes bool
// little-endian; it writes -0.0 fill values as 0 and int64 -2^63 as
// -9223372036854776000. It has no float16 on Node.js without Float16Array, no
// complex types, and encodes neither gzip, crc32c nor sharding.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "interop_handles.h"
#include "interop_support.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarrita_runner.h"

namespace zarr::interop {
namespace {

namespace fs = std::filesystem;
using zarr::test::TempDir;

// ---- JSON and bytes helpers ------------------------------------------------------

std::string json_text(const rapidjson::Value& v) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  v.Accept(w);
  return sb.GetString();
}

bool json_equal(const std::string& a, const std::string& b) {
  rapidjson::Document da, db;
  da.Parse(a.c_str());
  db.Parse(b.c_str());
  return !da.HasParseError() && !db.HasParseError() && da == db;
}

std::string quote(const std::string& s) { return "\"" + s + "\""; }

std::string list_text(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::vector<uint64_t> u64_list(const rapidjson::Value& v) {
  std::vector<uint64_t> out;
  for (const auto& x : v.GetArray()) out.push_back(x.GetUint64());
  return out;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::string s = read_text(path);
  return std::vector<uint8_t>(s.begin(), s.end());
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& b) {
  write_text(path, std::string(b.begin(), b.end()));
}

std::string box_text(const Box& b) { return "start " + list_text(b.start) + " count " + list_text(b.count); }

uint32_t crc32c(const uint8_t* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
  }
  return ~c;
}

uint64_t get_le64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void put_le64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

bool host_is_little_endian() {
  const uint16_t one = 1;
  uint8_t b;
  std::memcpy(&b, &one, 1);
  return b == 1;
}

// ---- data types, values, fill values --------------------------------------------

enum class Kind { Bool, Int, UInt, Float };

struct V3Type {
  std::string name;
  size_t size;
  Kind kind;
};

// Every data type zarrita 0.7.5 reads and writes on Node.js.
const std::vector<V3Type>& v3_types() {
  static const std::vector<V3Type> types = {
      {"bool", 1, Kind::Bool},   {"int8", 1, Kind::Int},    {"int16", 2, Kind::Int},    {"int32", 4, Kind::Int},
      {"int64", 8, Kind::Int},   {"uint8", 1, Kind::UInt},  {"uint16", 2, Kind::UInt},  {"uint32", 4, Kind::UInt},
      {"uint64", 8, Kind::UInt}, {"float32", 4, Kind::Float}, {"float64", 8, Kind::Float},
  };
  return types;
}

// A scalar: its zarr.json text and its bytes (native = little-endian order).
struct Scalar {
  std::string tag, json;
  std::vector<uint8_t> bytes;
};

template <typename T>
Scalar scalar(const std::string& tag, const std::string& json, T v) {
  Scalar s{tag, json, std::vector<uint8_t>(sizeof(T))};
  std::memcpy(s.bytes.data(), &v, sizeof(T));
  return s;
}

// Fill values per type. 64-bit values stay exactly representable as doubles:
// zarrita parses zarr.json with JSON.parse.
std::vector<Scalar> fills_for(const V3Type& t, bool for_zarrita_writes) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::string& n = t.name;
  std::vector<Scalar> f;
  if (n == "bool") f = {scalar<uint8_t>("false", "false", 0), scalar<uint8_t>("true", "true", 1)};
  if (n == "int8") f = {scalar<int8_t>("zero", "0", 0), scalar<int8_t>("nz", "-7", -7), scalar<int8_t>("max", "127", 127)};
  if (n == "int16") f = {scalar<int16_t>("zero", "0", 0), scalar<int16_t>("nz", "-300", -300), scalar<int16_t>("min", "-32768", -32768)};
  if (n == "int32") f = {scalar<int32_t>("zero", "0", 0), scalar<int32_t>("nz", "123456", 123456), scalar<int32_t>("min", "-2147483648", INT32_MIN)};
  if (n == "int64") {
    f = {scalar<int64_t>("zero", "0", 0), scalar<int64_t>("nz", "1099511627776", int64_t{1} << 40)};
    // zarrita writes -2^63 as -9223372036854776000 (JavaScript's shortest
    // text of the double), out of int64's range: see z_int64_min_fill.
    if (!for_zarrita_writes) f.push_back(scalar<int64_t>("min", "-9223372036854775808", INT64_MIN));
  }
  if (n == "uint8") f = {scalar<uint8_t>("zero", "0", 0), scalar<uint8_t>("nz", "200", 200), scalar<uint8_t>("max", "255", 255)};
  if (n == "uint16") f = {scalar<uint16_t>("zero", "0", 0), scalar<uint16_t>("max", "65535", 65535), scalar<uint16_t>("nz", "4660", 4660)};
  if (n == "uint32") f = {scalar<uint32_t>("zero", "0", 0), scalar<uint32_t>("nz", "4000000000", 4000000000u)};
  if (n == "uint64") f = {scalar<uint64_t>("zero", "0", 0), scalar<uint64_t>("nz", "9007199254740992", uint64_t{1} << 53)};
  if (n == "float32") {
    f = {scalar<float>("zero", "0.0", 0.0f), scalar<float>("nz", "1.5", 1.5f), scalar<float>("nan", "\"NaN\"", static_cast<float>(nan)),
         scalar<float>("ninf", "\"-Infinity\"", static_cast<float>(-inf))};
    // zarrita stores -0 as 0 (JSON.stringify), so only libzarr writes it.
    if (!for_zarrita_writes) f.push_back(scalar<float>("negzero", "-0.0", -0.0f));
  }
  if (n == "float64") {
    f = {scalar<double>("zero", "0.0", 0.0), scalar<double>("nz", "-2.25", -2.25), scalar<double>("nan", "\"NaN\"", nan),
         scalar<double>("inf", "\"Infinity\"", inf), scalar<double>("big", "1e+300", 1e300)};
    if (!for_zarrita_writes) f.push_back(scalar<double>("negzero", "-0.0", -0.0));
  }
  return f;
}

// A value other than the fill values, for zarrita's scalar writes.
Scalar region_scalar(const V3Type& t) {
  const std::string& n = t.name;
  if (n == "bool") return scalar<uint8_t>("s", "true", 1);
  if (n == "int8") return scalar<int8_t>("s", "-5", -5);
  if (n == "int16") return scalar<int16_t>("s", "-1234", -1234);
  if (n == "int32") return scalar<int32_t>("s", "-70000", -70000);
  if (n == "int64") return scalar<int64_t>("s", "-4294967296", -(int64_t{1} << 32));
  if (n == "uint8") return scalar<uint8_t>("s", "77", 77);
  if (n == "uint16") return scalar<uint16_t>("s", "513", 513);
  if (n == "uint32") return scalar<uint32_t>("s", "3000000000", 3000000000u);
  if (n == "uint64") return scalar<uint64_t>("s", "8589934592", uint64_t{1} << 33);
  if (n == "float32") return scalar<float>("s", "\"-Infinity\"", -std::numeric_limits<float>::infinity());
  return scalar<double>("s", "\"NaN\"", std::numeric_limits<double>::quiet_NaN());
}

// Valid values: bools 0/1; integers any bits; floats multiples of 1/16 with a
// quiet NaN, -0.0 and both infinities among them (no signalling NaNs: a
// JavaScript engine may quieten them when it copies a value).
std::vector<uint8_t> gen_values(const V3Type& t, uint64_t count, Rng& rng) {
  std::vector<uint8_t> out(static_cast<size_t>(count) * t.size);
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t* p = out.data() + i * t.size;
    if (t.kind == Kind::Bool) {
      p[0] = static_cast<uint8_t>(rng.below(2));
    } else if (t.kind != Kind::Float) {
      uint64_t bits = rng.next();
      std::memcpy(p, &bits, t.size);
    } else {
      double v = static_cast<double>(static_cast<int64_t>(rng.below(200001)) - 100000) / 16.0;
      if (i % 13 == 5) {
        const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -0.0, std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity()};
        v = specials[(i / 13) % 4];
      }
      if (t.size == 4) {
        float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
      } else {
        std::memcpy(p, &v, 8);
      }
    }
  }
  return out;
}

std::vector<uint8_t> repeat(const std::vector<uint8_t>& item, uint64_t count) {
  std::vector<uint8_t> out;
  out.reserve(item.size() * count);
  for (uint64_t i = 0; i < count; ++i) out.insert(out.end(), item.begin(), item.end());
  return out;
}

// ---- layouts and regions ---------------------------------------------------------

struct Layout {
  std::vector<uint64_t> shape, chunks, inner;  // inner: the inner chunks of a shard
};

// Ragged edges in every rank, one chunk exactly the array, a chunk larger
// than the array.
const std::vector<Layout>& plain_layouts() {
  static const std::vector<Layout> l = {
      {{23}, {6}, {}}, {{9, 11}, {4, 3}, {}}, {{5, 6, 7}, {2, 4, 3}, {}}, {{12, 8}, {12, 8}, {}}, {{3, 4}, {5, 5}, {}},
  };
  return l;
}

// Shard shape (the chunk grid) and inner chunks: ragged last shards, a single
// shard, a shard larger than the array (inner chunks wholly outside it).
const std::vector<Layout>& sharded_layouts() {
  static const std::vector<Layout> l = {
      {{23}, {8}, {4}}, {{9, 11}, {4, 6}, {2, 3}}, {{5, 6, 7}, {4, 4, 4}, {2, 2, 2}}, {{12, 8}, {12, 8}, {6, 4}},
      {{3, 4}, {6, 6}, {3, 3}},
  };
  return l;
}

// Two overlapping writes, [0, 60%) and [50%, 100%) on every axis: in 2-d and
// 3-d the off-diagonal corners (whole chunks, inner chunks of shards) stay
// unwritten.
std::vector<Box> write_boxes(const std::vector<uint64_t>& shape) {
  if (shape.empty()) return {Box{}};
  Box a, b;
  for (uint64_t s : shape) {
    a.start.push_back(0);
    a.count.push_back(std::max<uint64_t>(1, (s * 6 + 9) / 10));
    b.start.push_back(s / 2);
    b.count.push_back(s - s / 2);
  }
  return {a, b};
}

// The unaligned box zarrita also reads.
Box read_box(const std::vector<uint64_t>& shape) {
  Box b;
  for (uint64_t s : shape) {
    b.start.push_back(s / 3);
    b.count.push_back(std::max<uint64_t>(1, (s - s / 3 + 1) / 2));
  }
  return b;
}

// ---- codec JSON ------------------------------------------------------------------

std::string codec(const std::string& name, const std::string& configuration = "") {
  return "{\"name\": " + quote(name) + (configuration.empty() ? "" : ", \"configuration\": " + configuration) + "}";
}
std::string bytes_codec(const char* endian) { return codec("bytes", "{\"endian\": " + quote(endian) + "}"); }
std::string transpose_codec(size_t ndim) {
  std::vector<uint64_t> order;
  if (ndim == 1) order = {0};
  if (ndim == 2) order = {1, 0};
  if (ndim == 3) order = {2, 0, 1};
  return codec("transpose", "{\"order\": " + list_text(order) + "}");
}
std::string gzip_codec(int level) { return codec("gzip", "{\"level\": " + std::to_string(level) + "}"); }
std::string zstd_codec(int level, bool checksum) {
  return codec("zstd", "{\"level\": " + std::to_string(level) + ", \"checksum\": " + (checksum ? "true" : "false") + "}");
}
std::string blosc_codec(const char* cname, int clevel, const char* shuffle, size_t typesize, int blocksize) {
  return codec("blosc", "{\"cname\": " + quote(cname) + ", \"clevel\": " + std::to_string(clevel) + ", \"shuffle\": " +
                            quote(shuffle) + ", \"typesize\": " + std::to_string(typesize) +
                            ", \"blocksize\": " + std::to_string(blocksize) + "}");
}
std::string crc32c_codec() { return codec("crc32c"); }
std::string chain(const std::vector<std::string>& codecs) {
  std::string s = "[";
  for (size_t i = 0; i < codecs.size(); ++i) s += (i ? ", " : "") + codecs[i];
  return s + "]";
}
std::string sharding_codec(const std::vector<uint64_t>& inner, const std::vector<std::string>& codecs,
                           const std::vector<std::string>& index_codecs, const char* location) {
  return codec("sharding_indexed", "{\"chunk_shape\": " + list_text(inner) + ", \"codecs\": " + chain(codecs) +
                                       ", \"index_codecs\": " + chain(index_codecs) + ", \"index_location\": " +
                                       quote(location) + "}");
}

// ---- libzarr writes, zarrita reads ---------------------------------------------

struct CodecTag {
  std::string tag;
  bool sharded = false;
  bool index_at_start = false;
  bool index_crc = false;
};

// Every core codec and the combinations that matter; sharded chains last.
const std::vector<CodecTag>& libzarr_codec_tags() {
  static const std::vector<CodecTag> tags = {
      {"bytes_le"}, {"bytes_be"}, {"transpose"}, {"gzip"}, {"zstd"}, {"zstd_checksum_be"},
      {"blosc_lz4_shuffle"}, {"blosc_zstd_bitshuffle"}, {"blosc_blosclz_noshuffle_be"}, {"blosc_zlib_shuffle_blocksize"},
      {"crc32c"}, {"transpose_be_gzip_crc32c"},
      {"shard_end", true, false, true}, {"shard_end_transpose_be_zstd", true, false, true},
      {"shard_end_gzip_crc32c_bigindex", true, false, false}, {"shard_start", true, true, true},
      {"shard_start_blosc_plainindex", true, true, false},
  };
  return tags;
}

std::string libzarr_codecs(const std::string& tag, const V3Type& t, const Layout& l) {
  size_t nd = l.shape.size(), ts = t.size;
  if (tag == "bytes_le") return chain({bytes_codec("little")});
  if (tag == "bytes_be") return chain({bytes_codec("big")});
  if (tag == "transpose") return chain({transpose_codec(nd), bytes_codec("little")});
  if (tag == "gzip") return chain({bytes_codec("little"), gzip_codec(5)});
  if (tag == "zstd") return chain({bytes_codec("little"), zstd_codec(3, false)});
  if (tag == "zstd_checksum_be") return chain({bytes_codec("big"), zstd_codec(1, true)});
  if (tag == "blosc_lz4_shuffle") return chain({bytes_codec("little"), blosc_codec("lz4", 5, "shuffle", ts, 0)});
  if (tag == "blosc_zstd_bitshuffle") return chain({bytes_codec("little"), blosc_codec("zstd", 3, "bitshuffle", ts, 0)});
  if (tag == "blosc_blosclz_noshuffle_be") return chain({bytes_codec("big"), blosc_codec("blosclz", 9, "noshuffle", ts, 0)});
  if (tag == "blosc_zlib_shuffle_blocksize") return chain({bytes_codec("little"), blosc_codec("zlib", 1, "shuffle", ts, 256)});
  if (tag == "crc32c") return chain({bytes_codec("little"), crc32c_codec()});
  if (tag == "transpose_be_gzip_crc32c") {
    return chain({transpose_codec(nd), bytes_codec("big"), gzip_codec(1), crc32c_codec()});
  }
  const std::string index_crc = chain({bytes_codec("little"), crc32c_codec()});
  if (tag == "shard_end") {
    return chain({sharding_codec(l.inner, {bytes_codec("little")}, {bytes_codec("little"), crc32c_codec()}, "end")});
  }
  if (tag == "shard_end_transpose_be_zstd") {
    return chain({sharding_codec(l.inner, {transpose_codec(nd), bytes_codec("big"), zstd_codec(5, false)},
                                 {bytes_codec("little"), crc32c_codec()}, "end")});
  }
  if (tag == "shard_end_gzip_crc32c_bigindex") {
    return chain({sharding_codec(l.inner, {bytes_codec("little"), gzip_codec(6), crc32c_codec()}, {bytes_codec("big")},
                                 "end")});
  }
  if (tag == "shard_start") {
    return chain({sharding_codec(l.inner, {bytes_codec("little")}, {bytes_codec("little"), crc32c_codec()}, "start")});
  }
  if (tag == "shard_start_blosc_plainindex") {
    return chain({sharding_codec(l.inner, {bytes_codec("little"), blosc_codec("lz4", 5, "shuffle", ts, 0)},
                                 {bytes_codec("little")}, "start")});
  }
  throw std::runtime_error("no codec chain for tag " + tag);
}

struct KeyEncoding {
  std::string name, separator;
};
const std::vector<KeyEncoding>& key_encodings() {
  static const std::vector<KeyEncoding> k = {{"default", "/"}, {"default", "."}, {"v2", "."}, {"v2", "/"}};
  return k;
}

struct LibzarrCase {
  std::string name, tag;
  V3Type type;
  Layout layout;
  std::string codecs;
  KeyEncoding key;
  Scalar fill;
  bool sharded = false, index_at_start = false, index_crc = false;
  bool written = true;
  std::string attributes, dimension_names;  // JSON, "" for none
  uint64_t seed = 0;
};

void PrintTo(const LibzarrCase& c, std::ostream* os) { *os << c.name; }

std::string libzarr_doc(const LibzarrCase& c) {
  std::string doc = "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": " + list_text(c.layout.shape) +
                    ", \"data_type\": " + quote(c.type.name) +
                    ", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": " +
                    list_text(c.layout.chunks) + "}}, \"chunk_key_encoding\": {\"name\": " + quote(c.key.name) +
                    ", \"configuration\": {\"separator\": " + quote(c.key.separator) + "}}, \"fill_value\": " +
                    c.fill.json + ", \"codecs\": " + c.codecs;
  if (!c.attributes.empty()) doc += ", \"attributes\": " + c.attributes;
  if (!c.dimension_names.empty()) doc += ", \"dimension_names\": " + c.dimension_names;
  return doc + "}";
}

std::string dimension_names_for(size_t nd) {
  if (nd == 1) return "[\"x\"]";
  if (nd == 2) return "[\"y\", null]";
  if (nd == 3) return "[\"z\", \"y\", \"x\"]";
  return "[]";
}

const std::vector<LibzarrCase>& libzarr_cases() {
  static const std::vector<LibzarrCase> cases = [] {
    std::vector<LibzarrCase> out;
    const auto& tags = libzarr_codec_tags();
    const auto& types = v3_types();
    uint64_t seed = 1;
    for (size_t ti = 0; ti < tags.size(); ++ti) {
      for (size_t di = 0; di < types.size(); ++di) {
        LibzarrCase c;
        const CodecTag& tag = tags[ti];
        c.tag = tag.tag;
        c.type = types[di];
        c.name = tag.tag + "_" + c.type.name;
        c.sharded = tag.sharded;
        c.index_at_start = tag.index_at_start;
        c.index_crc = tag.index_crc;
        const auto& layouts = tag.sharded ? sharded_layouts() : plain_layouts();
        c.layout = layouts[(ti + di) % layouts.size()];
        c.codecs = libzarr_codecs(tag.tag, c.type, c.layout);
        c.key = key_encodings()[(ti * 3 + di) % key_encodings().size()];
        std::vector<Scalar> fills = fills_for(c.type, false);
        c.fill = fills[(ti + di) % fills.size()];
        if ((ti + di) % 6 == 0) {
          c.attributes = "{\"case\": " + quote(c.name) + ", \"scale\": 0.5, \"list\": [1, \"two\", null], "
                         "\"nested\": {\"ok\": true}}";
          c.dimension_names = dimension_names_for(c.layout.shape.size());
        }
        c.seed = seed++;
        out.push_back(c);
      }
    }
    auto extra = [&](const std::string& name, const std::string& type, Layout l, const std::string& codecs,
                     KeyEncoding key, Scalar fill, bool written) {
      LibzarrCase c;
      c.name = c.tag = name;
      for (const V3Type& t : types) {
        if (t.name == type) c.type = t;
      }
      c.layout = l;
      c.codecs = codecs;
      c.key = key;
      c.fill = fill;
      c.written = written;
      c.sharded = codecs.find("sharding_indexed") != std::string::npos;
      c.index_crc = c.sharded;
      c.seed = seed++;
      out.push_back(c);
    };
    extra("zerod_default_key", "float64", {{}, {}, {}}, chain({bytes_codec("big"), zstd_codec(3, true)}),
          {"default", "/"}, scalar<double>("nz", "1.5", 1.5), true);
    extra("zerod_v2_key", "int32", {{}, {}, {}}, chain({bytes_codec("little"), gzip_codec(9), crc32c_codec()}),
          {"v2", "."}, scalar<int32_t>("nz", "-7", -7), true);
    extra("zerod_unwritten", "uint16", {{}, {}, {}}, chain({bytes_codec("little")}), {"default", "."},
          scalar<uint16_t>("nz", "4660", 4660), false);
    extra("unwritten_plain", "float32", {{9, 11}, {4, 3}, {}}, chain({bytes_codec("little"), zstd_codec(3, false)}),
          {"v2", "/"}, scalar<float>("nan", "\"NaN\"", std::numeric_limits<float>::quiet_NaN()), false);
    extra("unwritten_sharded", "int16", {{9, 11}, {4, 6}, {2, 3}},
          chain({sharding_codec({2, 3}, {bytes_codec("little")}, {bytes_codec("little"), crc32c_codec()}, "end")}),
          {"default", "/"}, scalar<int16_t>("nz", "-300", -300), false);
    extra("large_sharded_3d", "float32", {{64, 50, 6}, {32, 32, 6}, {8, 8, 3}},
          chain({sharding_codec({8, 8, 3}, {bytes_codec("little"), zstd_codec(3, false)},
                                {bytes_codec("little"), crc32c_codec()}, "end")}),
          {"default", "/"}, scalar<float>("zero", "0.0", 0.0f), true);
    extra("large_blosc_2d", "uint16", {{300, 170}, {64, 64}, {}},
          chain({bytes_codec("little"), blosc_codec("zstd", 5, "shuffle", 2, 0)}), {"default", "."},
          scalar<uint16_t>("zero", "0", 0), true);
    return out;
  }();
  return cases;
}

// Tags libzarr cannot write yet: creation must fail with ZARR_ERR_UNSUPPORTED
// and name what is missing. A listed tag whose arrays create after all is
// verified like every other, with a note that its entry can go.
struct Pending {
  const char* why;
  const char* mention;
};
const std::map<std::string, Pending>& libzarr_expected_unsupported() {
  // Empty since sharding_indexed landed (its 7 tags were listed here).
  static const std::map<std::string, Pending> table = {};
  return table;
}
const Pending* pending_for(const LibzarrCase& c) {
  auto it = libzarr_expected_unsupported().find(c.tag);
  return it == libzarr_expected_unsupported().end() ? nullptr : &it->second;
}

// Where zarrita 0.7.5 misreads what the spec allows, it reads a copy of the
// array that holds the same data in a form it understands:
//  * bool with the bytes codec's "endian": "big": zarrita byte-swaps bool
//    chunks in groups of 4 (its BoolArray has no static BYTES_PER_ELEMENT);
//    for 1-byte types the endianness changes nothing, so the copy says
//    "little".
//  * shards with "index_location": "start": zarrita always reads the index
//    from the end. Every shard file is first checked byte by byte (index size,
//    crc32c of the index when index_codecs has one, every chunk between the
//    index and the end of the file), then rewritten with the chunks first and
//    the index, offsets shifted, at the end.
bool needs_zarrita_copy(const LibzarrCase& c) {
  return c.index_at_start || (c.type.name == "bool" && c.codecs.find("\"big\"") != std::string::npos);
}

// Sets "endian": "little" in the bytes codecs of a chain (not in index_codecs).
void bytes_codecs_little(rapidjson::Value& codecs, rapidjson::Document::AllocatorType& alloc) {
  for (auto& c : codecs.GetArray()) {
    if (!c.IsObject()) continue;
    if (c["name"] == "bytes" && c.HasMember("configuration")) {
      c["configuration"]["endian"].SetString("little", alloc);
    }
    if (c["name"] == "sharding_indexed") bytes_codecs_little(c["configuration"]["codecs"], alloc);
  }
}

std::string move_shard_index_to_end(const std::string& dst, uint64_t n_inner, bool crc) {
  const size_t index_size = static_cast<size_t>(n_inner) * 16 + (crc ? 4 : 0);
  int shards = 0;
  for (const auto& f : fs::recursive_directory_iterator(dst)) {
    if (!f.is_regular_file() || f.path().filename() == "zarr.json") continue;
    ++shards;
    std::string where = "shard " + f.path().lexically_relative(dst).string() + ": ";
    std::vector<uint8_t> b = read_bytes(f.path().string());
    if (b.size() < index_size) return where + std::to_string(b.size()) + " bytes, smaller than its index";
    std::vector<uint8_t> index(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(index_size));
    if (crc) {
      uint32_t stored = 0;
      for (int i = 3; i >= 0; --i) stored = (stored << 8) | index[n_inner * 16 + static_cast<size_t>(i)];
      if (stored != crc32c(index.data(), n_inner * 16)) return where + "the crc32c of the index is wrong";
    }
    for (uint64_t k = 0; k < n_inner; ++k) {
      uint64_t off = get_le64(&index[k * 16]), len = get_le64(&index[k * 16 + 8]);
      if (off == UINT64_MAX && len == UINT64_MAX) continue;
      if (off < index_size || off > b.size() || len > b.size() - off) {
        return where + "inner chunk " + std::to_string(k) + " at offset " + std::to_string(off) + ", length " +
               std::to_string(len) + " is not between the index (" + std::to_string(index_size) +
               " bytes) and the end of the shard (" + std::to_string(b.size()) + " bytes)";
      }
      put_le64(&index[k * 16], off - index_size);
    }
    if (crc) {
      uint32_t c = crc32c(index.data(), n_inner * 16);
      for (int i = 0; i < 4; ++i) index[n_inner * 16 + static_cast<size_t>(i)] = static_cast<uint8_t>(c >> (8 * i));
    }
    std::vector<uint8_t> moved(b.begin() + static_cast<std::ptrdiff_t>(index_size), b.end());
    moved.insert(moved.end(), index.begin(), index.end());
    write_bytes(f.path().string(), moved);
  }
  if (shards == 0) return "no shard files";
  return "";
}

// "" or what is wrong.
std::string make_zarrita_copy(const LibzarrCase& c, const std::string& src, const std::string& dst) {
  std::error_code ec;
  fs::copy(src, dst, fs::copy_options::recursive, ec);
  if (ec) return "cannot copy " + src + ": " + ec.message();
  rapidjson::Document meta;
  std::string text = read_text(dst + "/zarr.json");
  meta.Parse(text.c_str());
  if (meta.HasParseError() || !meta.HasMember("codecs")) return "cannot parse " + dst + "/zarr.json";
  if (c.type.name == "bool") bytes_codecs_little(meta["codecs"], meta.GetAllocator());
  if (c.index_at_start) {
    auto& cfg = meta["codecs"][0]["configuration"];
    if (!cfg.HasMember("index_location") || cfg["index_location"] != "start") {
      return "zarr.json does not record \"index_location\": \"start\": " + text;
    }
    cfg["index_location"].SetString("end");
    uint64_t n_inner = 1;
    for (size_t d = 0; d < c.layout.chunks.size(); ++d) n_inner *= c.layout.chunks[d] / c.layout.inner[d];
    std::string err = move_shard_index_to_end(dst, n_inner, c.index_crc);
    if (!err.empty()) return err;
  }
  write_text(dst + "/zarr.json", json_text(meta));
  return "";
}

struct LibzarrOutcome {
  int create_status = ZARR_OK;
  std::string create_error;  // status and message when libzarr refused or failed
  std::vector<uint8_t> expected;
  std::string libzarr_readback;  // "" or how libzarr's own read-back differs
  std::string convert_error;     // index-at-start conversion
  const rapidjson::Value* result = nullptr;
  std::string whole_file, box_file;
  Box box;
};

struct LibzarrWritten {
  std::string skip, error;
  std::unique_ptr<TempDir> dir;
  rapidjson::Document results;
  std::map<std::string, LibzarrOutcome> cases;
};

void run_libzarr_writes(LibzarrWritten& w) {
  if (!zarrita_peer().skip.empty()) {
    w.skip = zarrita_peer().skip;
    return;
  }
  w.dir = std::make_unique<TempDir>();
  const std::string root = w.dir->path();
  fs::create_directories(root + "/arrays");
  fs::create_directories(root + "/out");
  std::string spec = "{\"cases\": [";
  bool first = true;
  for (const LibzarrCase& c : libzarr_cases()) {
    LibzarrOutcome& o = w.cases[c.name];
    const std::string path = root + "/arrays/" + c.name;
    const std::vector<uint64_t>& shape = c.layout.shape;
    const size_t nd = shape.size();
    o.expected = repeat(c.fill.bytes, product(shape));
    Array a;
    int rc = zarr_create(a.out(), path.c_str(), libzarr_doc(c).c_str());
    if (rc != ZARR_OK) {
      o.create_status = rc;
      o.create_error = status_text(rc);
      continue;
    }
    Rng rng(c.seed);
    if (c.written) {
      for (const Box& b : write_boxes(shape)) {
        std::vector<uint8_t> values = gen_values(c.type, product(b.count), rng);
        rc = zarr_write_region(a, nd, b.start.data(), b.count.data(), values.data(), values.size());
        if (rc != ZARR_OK) {
          o.create_status = rc;
          o.create_error = "zarr_write_region(" + box_text(b) + "): " + status_text(rc);
          break;
        }
        paste_c_order(o.expected, shape, c.type.size, b.start, b.count, values.data());
      }
      if (o.create_status != ZARR_OK) continue;
    }
    // libzarr's own reading, through a fresh handle.
    a.close();
    Array r;
    rc = zarr_open(r.out(), path.c_str(), "r");
    if (rc != ZARR_OK) {
      o.libzarr_readback = "zarr_open: " + status_text(rc);
    } else {
      std::vector<uint8_t> got(o.expected.size(), 0xCD);
      std::vector<uint64_t> origin(nd, 0);
      rc = zarr_read_region(r, nd, origin.data(), shape.data(), got.data(), got.size());
      o.libzarr_readback = rc != ZARR_OK ? "zarr_read_region: " + status_text(rc)
                                         : compare_elements(got, o.expected, {}, shape, c.type.size);
      if (o.libzarr_readback.empty() && nd > 0) {  // and the box zarrita reads (a partial read of shards)
        Box b = read_box(shape);
        std::vector<uint8_t> part(static_cast<size_t>(product(b.count)) * c.type.size, 0xCD);
        rc = zarr_read_region(r, nd, b.start.data(), b.count.data(), part.data(), part.size());
        o.libzarr_readback =
            rc != ZARR_OK ? "zarr_read_region(" + box_text(b) + "): " + status_text(rc)
                          : compare_elements(part, slice_c_order(o.expected, shape, c.type.size, b.start, b.count), {},
                                             b.count, c.type.size);
      }
    }
    std::string zarrita_path = path;
    if (needs_zarrita_copy(c)) {
      zarrita_path = path + ".for_zarrita";
      o.convert_error = make_zarrita_copy(c, path, zarrita_path);
      if (!o.convert_error.empty()) continue;
    }
    o.whole_file = root + "/out/" + c.name + ".whole.bin";
    if (nd > 0) {
      o.box = read_box(shape);
      o.box_file = root + "/out/" + c.name + ".box.bin";
    }
    spec += std::string(first ? "" : ",") + "\n{\"name\": " + quote(c.name) + ", \"path\": " + quote(zarrita_path) +
            ", \"out\": " + quote(root + "/out/" + c.name) + ", \"box\": " +
            (nd > 0 ? "{\"start\": " + list_text(o.box.start) + ", \"count\": " + list_text(o.box.count) + "}" : "null") +
            "}";
    first = false;
  }
  spec += "]}";
  w.error = run_zarrita("read", spec, root, w.results);
  if (!w.error.empty()) return;
  for (const auto& r : w.results.GetArray()) {
    auto it = w.cases.find(r["name"].GetString());
    if (it != w.cases.end()) it->second.result = &r;
  }
}

LibzarrWritten& libzarr_written() {
  static LibzarrWritten w;
  static bool ran = (run_libzarr_writes(w), true);
  (void)ran;
  return w;
}

std::string case_name(const testing::TestParamInfo<LibzarrCase>& info) { return info.param.name; }

class LibzarrWritesV3 : public testing::TestWithParam<LibzarrCase> {};

TEST_P(LibzarrWritesV3, ZarritaReadsIdenticalBytes) {
  const LibzarrCase& c = GetParam();
  LibzarrWritten& w = libzarr_written();
  if (!w.skip.empty()) GTEST_SKIP() << w.skip;
  ASSERT_TRUE(w.error.empty()) << w.error;
  const LibzarrOutcome& o = w.cases.at(c.name);
  const Pending* pending = pending_for(c);
  if (o.create_status != ZARR_OK) {
    ASSERT_NE(pending, nullptr) << "libzarr cannot write the case: " << o.create_error << "\nzarr.json: " << libzarr_doc(c);
    EXPECT_EQ(o.create_status, ZARR_ERR_UNSUPPORTED) << o.create_error << " (expected unsupported: " << pending->why << ")";
    EXPECT_NE(o.create_error.find(pending->mention), std::string::npos)
        << "the message should name " << pending->mention << ": " << o.create_error;
    return;
  }
  if (pending) {
    std::cout << "[ note     ] " << c.name << " now creates (" << pending->why
              << "): remove its tag from libzarr_expected_unsupported() in " << __FILE__ << "\n";
  }
  EXPECT_EQ(o.libzarr_readback, "") << "libzarr does not read back what it wrote";
  ASSERT_EQ(o.convert_error, "") << "preparing zarrita's copy (shards with the index at the start are checked then)";
  ASSERT_NE(o.result, nullptr) << "zarrita_peer.mjs returned nothing for " << c.name;
  const rapidjson::Value& r = *o.result;
  ASSERT_TRUE(r["ok"].GetBool()) << "zarrita cannot read the array: " << r["error"].GetString()
                                 << "\nzarr.json: " << libzarr_doc(c);
  EXPECT_EQ(std::string(r["dtype"].GetString()), c.type.name);
  EXPECT_EQ(u64_list(r["shape"]), c.layout.shape);
  EXPECT_EQ(u64_list(r["chunks"]), c.sharded ? c.layout.inner : c.layout.chunks) << "zarrita's chunk shape";
  if (!c.attributes.empty()) {
    EXPECT_TRUE(json_equal(json_text(r["attributes"]), c.attributes)) << json_text(r["attributes"]);
    EXPECT_TRUE(json_equal(json_text(r["dimension_names"]), c.dimension_names)) << json_text(r["dimension_names"]);
  }
  const std::vector<uint64_t>& shape = c.layout.shape;
  std::vector<uint8_t> whole = read_bytes(o.whole_file);
  EXPECT_EQ(compare_elements(whole, o.expected, {}, shape, c.type.size), "") << "the whole array as zarrita reads it";
  if (!o.box_file.empty()) {
    std::vector<uint8_t> box = read_bytes(o.box_file);
    std::vector<uint8_t> want = slice_c_order(o.expected, shape, c.type.size, o.box.start, o.box.count);
    EXPECT_EQ(compare_elements(box, want, {}, o.box.count, c.type.size), "") << "zarrita's read of " << box_text(o.box);
  }
}

INSTANTIATE_TEST_SUITE_P(Matrix, LibzarrWritesV3, testing::ValuesIn(libzarr_cases()), case_name);

TEST(LibzarrWritesV3Summary, CountsAndCoverage) {
  // Coverage of the matrix itself.
  std::set<std::string> types, keys, tags;
  int zero_d = 0, unwritten = 0, sharded = 0;
  for (const LibzarrCase& c : libzarr_cases()) {
    types.insert(c.type.name);
    keys.insert(c.key.name + c.key.separator);
    tags.insert(c.tag);
    zero_d += c.layout.shape.empty();
    unwritten += !c.written;
    sharded += c.sharded;
  }
  EXPECT_EQ(types.size(), v3_types().size());
  EXPECT_EQ(keys.size(), 4u);
  EXPECT_GE(zero_d, 3);
  EXPECT_GE(unwritten, 3);
  EXPECT_GE(sharded, 5 * 11);

  LibzarrWritten& w = libzarr_written();
  if (!w.skip.empty()) GTEST_SKIP() << w.skip;
  ASSERT_TRUE(w.error.empty()) << w.error;
  int identical = 0, failed = 0;
  std::map<std::string, int> pending;
  for (const LibzarrCase& c : libzarr_cases()) {
    const LibzarrOutcome& o = w.cases.at(c.name);
    if (o.create_status != ZARR_OK) {
      const Pending* p = pending_for(c);
      ++pending[p ? p->why : "NOT EXPECTED: " + o.create_error];
      continue;
    }
    bool same = o.result && (*o.result)["ok"].GetBool() && o.convert_error.empty() &&
                read_bytes(o.whole_file) == o.expected &&
                (o.box_file.empty() ||
                 read_bytes(o.box_file) == slice_c_order(o.expected, c.layout.shape, c.type.size, o.box.start, o.box.count));
    ++(same ? identical : failed);
  }
  std::string p = "none";
  int np = 0;
  for (const auto& k : pending) {
    p = (np == 0 ? "" : p + ", ") + std::to_string(k.second) + " " + k.first;
    np += k.second;
  }
  std::cout << "[ zarrita  ] libzarr -> zarrita: " << libzarr_cases().size() << " v3 arrays: " << identical
            << " read identically, " << failed << " differ or fail, " << np << " expected-unsupported (" << p << ")\n";
  EXPECT_EQ(failed, 0);
}

// ---- zarrita writes, libzarr reads ---------------------------------------------

// What zarrita 0.7.5 encodes: bytes, transpose, zstd, blosc.
const std::vector<std::string>& zarrita_codec_tags() {
  static const std::vector<std::string> tags = {
      "bytes_le", "bytes_be", "transpose", "transpose_be_zstd", "zstd_checksum", "blosc_lz4_shuffle",
      "blosc_zstd_bitshuffle", "blosc_zlib_noshuffle_be",
  };
  return tags;
}

// zarrita 0.7.5 encodes bool with "endian": "big" by swapping bytes in
// groups of 4 (see needs_zarrita_copy): its bool chunks are then not what the
// array holds, so bool arrays are written little-endian (the same bytes a
// correct big-endian encoder writes for 1-byte types).
std::string zarrita_codecs(const std::string& tag, const V3Type& t, size_t nd) {
  const char* big = t.name == "bool" ? "little" : "big";
  if (tag == "bytes_le") return chain({bytes_codec("little")});
  if (tag == "bytes_be") return chain({bytes_codec(big)});
  if (tag == "transpose") return chain({transpose_codec(nd), bytes_codec("little")});
  if (tag == "transpose_be_zstd") return chain({transpose_codec(nd), bytes_codec(big), zstd_codec(3, false)});
  if (tag == "zstd_checksum") return chain({bytes_codec("little"), zstd_codec(1, true)});
  if (tag == "blosc_lz4_shuffle") return chain({bytes_codec("little"), blosc_codec("lz4", 5, "shuffle", t.size, 0)});
  if (tag == "blosc_zstd_bitshuffle") return chain({bytes_codec("little"), blosc_codec("zstd", 3, "bitshuffle", t.size, 0)});
  if (tag == "blosc_zlib_noshuffle_be") return chain({bytes_codec(big), blosc_codec("zlib", 1, "noshuffle", t.size, 0)});
  throw std::runtime_error("no codec chain for tag " + tag);
}

struct ZarritaCase {
  std::string name;
  V3Type type;
  std::vector<uint64_t> shape, chunks;
  std::string separator = "/";
  std::string codecs;          // JSON list, "null" for zarrita's default
  bool has_fill = true;
  Scalar fill;
  std::string group;           // "" (the root), "g1" or "g1/g2"
  std::vector<Box> file_writes;
  bool scalar_write = false;   // zarr.set(arr, region, scalar) after the file writes
  Box scalar_region;           // empty start: the whole array
  std::string attributes, dimension_names;  // JSON, "" for none
  uint64_t seed = 0;
  // When libzarr must refuse zarrita's document: the field its message names.
  std::string refused_field;
  std::string path() const { return group.empty() ? name : group + "/" + name; }
};

void PrintTo(const ZarritaCase& c, std::ostream* os) { *os << c.name; }

const std::vector<ZarritaCase>& zarrita_cases() {
  static const std::vector<ZarritaCase> cases = [] {
    std::vector<ZarritaCase> out;
    const auto& tags = zarrita_codec_tags();
    const auto& types = v3_types();
    const char* groups[] = {"", "g1", "g1/g2"};
    uint64_t seed = 1000;
    for (size_t ti = 0; ti < tags.size(); ++ti) {
      for (size_t di = 0; di < types.size(); ++di) {
        ZarritaCase c;
        c.type = types[di];
        c.name = "z_" + tags[ti] + "_" + c.type.name;
        const Layout& l = plain_layouts()[(ti * 2 + di) % plain_layouts().size()];
        c.shape = l.shape;
        c.chunks = l.chunks;
        c.separator = (ti + di) % 2 ? "." : "/";
        c.codecs = zarrita_codecs(tags[ti], c.type, c.shape.size());
        std::vector<Scalar> fills = fills_for(c.type, true);
        c.fill = fills[(ti + di) % fills.size()];
        c.group = groups[(ti + di) % 3];
        c.file_writes = write_boxes(c.shape);
        if ((ti + di) % 3 == 1) {
          c.scalar_write = true;
          for (uint64_t s : c.shape) {
            c.scalar_region.start.push_back(s > 2 ? s - 2 : 0);
            c.scalar_region.count.push_back(s > 2 ? 2 : s);
          }
        }
        if ((ti + di) % 5 == 0) {
          c.attributes = "{\"writer\": \"zarrita\", \"case\": " + quote(c.name) + ", \"values\": [0.25, -1, null, \"s\"]}";
          c.dimension_names = dimension_names_for(c.shape.size());
        }
        c.seed = seed++;
        out.push_back(c);
      }
    }
    auto type_named = [&](const std::string& n) {
      for (const V3Type& t : types) {
        if (t.name == n) return t;
      }
      throw std::runtime_error("no type " + n);
    };
    {  // a 0-d array set through zarr.set(arr, null, value)
      ZarritaCase c;
      c.name = "z_zerod_scalar";
      c.type = type_named("float64");
      c.codecs = chain({bytes_codec("big"), zstd_codec(3, false)});
      c.fill = scalar<double>("nz", "1.5", 1.5);
      c.scalar_write = true;
      c.seed = seed++;
      out.push_back(c);
    }
    {  // a 0-d array never written: the fill value
      ZarritaCase c;
      c.name = "z_zerod_unwritten";
      c.type = type_named("int32");
      c.codecs = chain({bytes_codec("little")});
      c.fill = scalar<int32_t>("nz", "-7", -7);
      c.group = "g1";
      c.seed = seed++;
      out.push_back(c);
    }
    {  // every chunk from one scalar
      ZarritaCase c;
      c.name = "z_scalar_everywhere";
      c.type = type_named("uint16");
      c.shape = {7, 9};
      c.chunks = {3, 4};
      c.separator = ".";
      c.codecs = chain({transpose_codec(2), bytes_codec("little"), blosc_codec("lz4", 5, "shuffle", 2, 0)});
      c.fill = scalar<uint16_t>("zero", "0", 0);
      c.scalar_write = true;
      c.seed = seed++;
      out.push_back(c);
    }
    {  // nothing written
      ZarritaCase c;
      c.name = "z_unwritten";
      c.type = type_named("float32");
      c.shape = {10, 3};
      c.chunks = {4, 2};
      c.codecs = chain({bytes_codec("little"), zstd_codec(3, false)});
      c.fill = scalar<float>("nan", "\"NaN\"", std::numeric_limits<float>::quiet_NaN());
      c.group = "g1/g2";
      c.seed = seed++;
      out.push_back(c);
    }
    {  // larger, 3-d, several chunks per write
      ZarritaCase c;
      c.name = "z_large_3d";
      c.type = type_named("int32");
      c.shape = {40, 33, 5};
      c.chunks = {16, 16, 5};
      c.codecs = chain({bytes_codec("little"), blosc_codec("zstd", 5, "shuffle", 4, 0)});
      c.fill = scalar<int32_t>("zero", "0", 0);
      c.file_writes = write_boxes(c.shape);
      c.seed = seed++;
      out.push_back(c);
    }
    // zarr.create without a fill value writes "fill_value": null, not a v3
    // fill value: libzarr reads it as zarrita does, as the type's zero.
    {
      ZarritaCase c;
      c.name = "z_default_fill_null";
      c.type = type_named("int16");
      c.shape = {6};
      c.chunks = {4};
      c.codecs = chain({bytes_codec("little")});
      c.has_fill = false;
      c.file_writes = {{{0}, {4}}};  // the last chunk stays unwritten: fill
      c.seed = seed++;
      out.push_back(c);
    }
    // Documents zarrita writes that break the v3 spec, which libzarr refuses
    // naming the field: zarr.create without codecs ("codecs": [], no
    // array->bytes codec), and an int64 fill value out of range.
    {  // the int64 fill value -2^63 as zarrita writes it: -9223372036854776000
      ZarritaCase c;
      c.name = "z_int64_min_fill";
      c.type = type_named("int64");
      c.shape = {6};
      c.chunks = {4};
      c.codecs = chain({bytes_codec("little")});
      c.fill = scalar<int64_t>("min", "-9223372036854775808", INT64_MIN);
      c.file_writes = write_boxes(c.shape);
      c.refused_field = "fill_value";
      c.seed = seed++;
      out.push_back(c);
    }
    {
      ZarritaCase c;
      c.name = "z_default_codecs_empty";
      c.type = type_named("int16");
      c.shape = {6};
      c.chunks = {4};
      c.codecs = "null";
      c.fill = scalar<int16_t>("zero", "0", 0);
      c.file_writes = write_boxes(c.shape);
      c.refused_field = "codecs";
      c.seed = seed++;
      out.push_back(c);
    }
    return out;
  }();
  return cases;
}

struct ZarritaOutcome {
  std::vector<uint8_t> expected;
  const rapidjson::Value* result = nullptr;
  std::string readback_file;
};

struct ZarritaWritten {
  std::string skip, error, root;
  std::unique_ptr<TempDir> dir;
  rapidjson::Document results;
  std::map<std::string, ZarritaOutcome> cases;
  std::map<std::string, std::string> group_attributes;  // path -> JSON
  std::map<std::string, const rapidjson::Value*> group_results;
};

const std::vector<std::pair<std::string, std::string>>& zarrita_groups() {
  static const std::vector<std::pair<std::string, std::string>> g = {
      {"", "{\"title\": \"zarrita hierarchy\", \"n\": 3, \"unicode\": \"S\\u00e3o Paulo\"}"},
      {"g1", "{\"level\": 1, \"list\": [1, 2.5, \"x\", null, true]}"},
      {"g1/g2", "{}"},
  };
  return g;
}

void run_zarrita_writes(ZarritaWritten& w) {
  if (!zarrita_peer().skip.empty()) {
    w.skip = zarrita_peer().skip;
    return;
  }
  w.dir = std::make_unique<TempDir>();
  w.root = w.dir->path() + "/hierarchy.zarr";
  const std::string in = w.dir->path() + "/in", back = w.dir->path() + "/back";
  fs::create_directories(in);
  fs::create_directories(back);
  std::string spec = "{\"root\": " + quote(w.root) + ", \"groups\": [";
  bool first = true;
  for (const auto& g : zarrita_groups()) {
    spec += std::string(first ? "" : ", ") + "{\"path\": " + quote(g.first) + ", \"attributes\": " + g.second + "}";
    first = false;
  }
  spec += "], \"arrays\": [";
  first = true;
  for (const ZarritaCase& c : zarrita_cases()) {
    ZarritaOutcome& o = w.cases[c.name];
    o.expected = repeat(c.has_fill ? c.fill.bytes : std::vector<uint8_t>(c.type.size, 0), product(c.shape));
    o.readback_file = back + "/" + c.name + ".bin";
    Rng rng(c.seed);
    std::string writes;
    int k = 0;
    for (const Box& b : c.file_writes) {
      std::vector<uint8_t> values = gen_values(c.type, product(b.count), rng);
      std::string file = in + "/" + c.name + "." + std::to_string(k++) + ".bin";
      write_bytes(file, values);
      paste_c_order(o.expected, c.shape, c.type.size, b.start, b.count, values.data());
      writes += std::string(writes.empty() ? "" : ", ") + "{\"start\": " + list_text(b.start) + ", \"count\": " +
                list_text(b.count) + ", \"file\": " + quote(file) + "}";
    }
    if (c.scalar_write) {
      Scalar s = region_scalar(c.type);
      Box region = c.scalar_region;
      if (region.start.empty()) {  // the whole array
        region.start.assign(c.shape.size(), 0);
        region.count = c.shape;
        writes += std::string(writes.empty() ? "" : ", ") + "{\"scalar\": " + s.json + "}";
      } else {
        writes += std::string(writes.empty() ? "" : ", ") + "{\"start\": " + list_text(region.start) + ", \"count\": " +
                  list_text(region.count) + ", \"scalar\": " + s.json + "}";
      }
      std::vector<uint8_t> values = repeat(s.bytes, product(region.count));
      paste_c_order(o.expected, c.shape, c.type.size, region.start, region.count, values.data());
    }
    spec += std::string(first ? "" : ",") + "\n{\"name\": " + quote(c.name) + ", \"path\": " + quote(c.path()) +
            ", \"dtype\": " + quote(c.type.name) + ", \"shape\": " + list_text(c.shape) + ", \"chunk_shape\": " +
            list_text(c.chunks) + ", \"separator\": " + quote(c.separator) + ", \"codecs\": " + c.codecs +
            (c.has_fill ? ", \"fill_value\": " + c.fill.json : "") +
            (c.attributes.empty() ? "" : ", \"attributes\": " + c.attributes) +
            (c.dimension_names.empty() ? "" : ", \"dimension_names\": " + c.dimension_names) + ", \"writes\": [" +
            writes + "], \"readback\": " + (c.refused_field.empty() ? quote(o.readback_file) : "null") + "}";
    first = false;
  }
  spec += "]}";
  w.error = run_zarrita("write", spec, w.dir->path(), w.results);
  if (!w.error.empty()) return;
  for (const auto& r : w.results.GetArray()) {
    std::string name = r["name"].GetString();
    if (name.rfind("group:", 0) == 0) {
      w.group_results[name.substr(6)] = &r;
      continue;
    }
    auto it = w.cases.find(name);
    if (it != w.cases.end()) it->second.result = &r;
  }
}

ZarritaWritten& zarrita_written() {
  static ZarritaWritten w;
  static bool ran = (run_zarrita_writes(w), true);
  (void)ran;
  return w;
}

std::string zcase_name(const testing::TestParamInfo<ZarritaCase>& info) { return info.param.name; }

class ZarritaWritesV3 : public testing::TestWithParam<ZarritaCase> {};

// Checks an array zarrita wrote, open in `a`, against the test's model.
void verify_zarrita_array(zarr_array* a, const ZarritaCase& c, const ZarritaOutcome& o) {
  const size_t nd = c.shape.size();
  EXPECT_EQ(zarr_format(a), 3);
  EXPECT_STREQ(zarr_data_type(a), c.type.name.c_str());
  ASSERT_EQ(zarr_ndim(a), nd);
  ASSERT_EQ(zarr_item_size(a), c.type.size);
  std::vector<uint64_t> shape(nd), chunks(nd);
  ASSERT_EQ(zarr_shape(a, shape.data()), ZARR_OK);
  ASSERT_EQ(zarr_chunk_shape(a, chunks.data()), ZARR_OK);
  EXPECT_EQ(shape, c.shape);
  EXPECT_EQ(chunks, c.chunks);
  std::vector<uint8_t> fill(c.type.size, 0xAB);
  int is_null = -1;
  ASSERT_EQ(zarr_fill_value(a, fill.data(), fill.size(), &is_null), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(is_null, 0);
  // No fill value given to zarrita: it writes null, read as the type's zero.
  const std::vector<uint8_t> want_fill = c.has_fill ? c.fill.bytes : std::vector<uint8_t>(c.type.size, 0);
  EXPECT_EQ(to_hex(fill.data(), fill.size()), to_hex(want_fill.data(), want_fill.size())) << "fill value " << c.fill.json;
  LibString attrs, names;
  ASSERT_EQ(zarr_get_attributes(a, attrs.out()), ZARR_OK) << zarr_last_error();
  EXPECT_TRUE(json_equal(attrs.str(), c.attributes.empty() ? "{}" : c.attributes)) << attrs.str();
  ASSERT_EQ(zarr_get_dimension_names(a, names.out()), ZARR_OK) << zarr_last_error();
  EXPECT_TRUE(json_equal(names.str(), c.dimension_names.empty() ? "null" : c.dimension_names)) << names.str();

  std::vector<uint8_t> got(o.expected.size(), 0xCD);
  std::vector<uint64_t> origin(nd, 0);
  int rc = zarr_read_region(a, nd, origin.data(), shape.data(), got.data(), got.size());
  ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
  EXPECT_EQ(compare_elements(got, o.expected, {}, shape, c.type.size), "") << "the whole array";

  for (const Box& b : sub_regions(c.shape, c.chunks, c.seed)) {
    std::vector<uint8_t> part(static_cast<size_t>(product(b.count)) * c.type.size, 0xCD);
    rc = zarr_read_region(a, nd, b.start.data(), b.count.data(), part.data(), part.size());
    EXPECT_EQ(rc, ZARR_OK) << box_text(b) << ": " << status_text(rc);
    EXPECT_EQ(compare_elements(part, slice_c_order(o.expected, c.shape, c.type.size, b.start, b.count), {}, b.count,
                               c.type.size),
              "")
        << box_text(b);
  }
  if (nd >= 2) {  // the whole array into a Fortran-ordered buffer
    std::vector<int64_t> strides(nd);
    int64_t s = static_cast<int64_t>(c.type.size);
    for (size_t d = 0; d < nd; ++d) {
      strides[d] = s;
      s *= static_cast<int64_t>(c.shape[d]);
    }
    std::vector<uint8_t> f(o.expected.size(), 0xCD);
    rc = zarr_read_region_strided(a, nd, origin.data(), shape.data(), strides.data(), f.data(), f.size());
    ASSERT_EQ(rc, ZARR_OK) << status_text(rc);
    std::vector<uint8_t> c_order(f.size());
    std::vector<uint64_t> idx(nd, 0);
    for (uint64_t i = 0; i < product(c.shape); ++i) {
      uint64_t off = 0;
      for (size_t d = 0; d < nd; ++d) off += idx[d] * static_cast<uint64_t>(strides[d]);
      std::memcpy(c_order.data() + i * c.type.size, f.data() + off, c.type.size);
      for (size_t d = nd; d-- > 0;) {
        if (++idx[d] < c.shape[d]) break;
        idx[d] = 0;
      }
    }
    EXPECT_EQ(compare_elements(c_order, o.expected, {}, shape, c.type.size), "") << "the Fortran-ordered read";
  }
}

TEST_P(ZarritaWritesV3, LibzarrReadsIdenticalBytes) {
  const ZarritaCase& c = GetParam();
  ZarritaWritten& w = zarrita_written();
  if (!w.skip.empty()) GTEST_SKIP() << w.skip;
  ASSERT_TRUE(w.error.empty()) << w.error;
  const ZarritaOutcome& o = w.cases.at(c.name);
  ASSERT_NE(o.result, nullptr) << "zarrita_peer.mjs returned nothing for " << c.name;
  ASSERT_TRUE((*o.result)["ok"].GetBool()) << "zarrita could not write the case: " << (*o.result)["error"].GetString();
  const std::string path = w.root + "/" + c.path();

  Array a;
  int rc = zarr_open(a.out(), path.c_str(), "r");
  if (!c.refused_field.empty()) {
    if (rc == ZARR_OK) {
      std::cout << "[ note     ] " << c.name << ": libzarr now opens zarrita's document (" << c.refused_field
                << "): update the case in " << __FILE__ << "\n";
      return;
    }
    EXPECT_EQ(rc, ZARR_ERR_INVALID_METADATA) << status_text(rc);
    EXPECT_NE(std::string(zarr_last_error()).find(c.refused_field), std::string::npos) << zarr_last_error();
    return;
  }
  ASSERT_EQ(rc, ZARR_OK) << status_text(rc) << "\nzarr.json: " << read_text(path + "/zarr.json");
  // zarrita's own reading of what it wrote: where it differs from the model,
  // the peer wrote something other than asked and libzarr is not to blame.
  std::vector<uint8_t> zarrita_back = read_bytes(o.readback_file);
  EXPECT_EQ(compare_elements(zarrita_back, o.expected, {}, c.shape, c.type.size), "")
      << "zarrita does not read back what it was asked to write";
  verify_zarrita_array(a, c, o);

  // The same array through its group.
  Group g;
  ASSERT_EQ(zarr_group_open(g.out(), (w.root + (c.group.empty() ? "" : "/" + c.group)).c_str(), "r"), ZARR_OK)
      << zarr_last_error();
  Array via_group;
  ASSERT_EQ(zarr_group_open_array(via_group.out(), g, c.name.c_str(), "r"), ZARR_OK) << zarr_last_error();
  std::vector<uint8_t> got(o.expected.size(), 0xCD);
  std::vector<uint64_t> origin(c.shape.size(), 0);
  ASSERT_EQ(zarr_read_region(via_group, c.shape.size(), origin.data(), c.shape.data(), got.data(), got.size()), ZARR_OK)
      << zarr_last_error();
  EXPECT_EQ(got, o.expected) << "read through zarr_group_open_array";
}

INSTANTIATE_TEST_SUITE_P(Matrix, ZarritaWritesV3, testing::ValuesIn(zarrita_cases()), zcase_name);

TEST(ZarritaWritesV3Groups, LibzarrListsChildrenAndAttributes) {
  ZarritaWritten& w = zarrita_written();
  if (!w.skip.empty()) GTEST_SKIP() << w.skip;
  ASSERT_TRUE(w.error.empty()) << w.error;
  for (const auto& grp : zarrita_groups()) {
    SCOPED_TRACE("group '" + grp.first + "'");
    auto r = w.group_results.find(grp.first);
    ASSERT_NE(r, w.group_results.end());
    ASSERT_TRUE((*r->second)["ok"].GetBool()) << (*r->second)["error"].GetString();
    std::vector<std::pair<std::string, int>> want;
    for (const ZarritaCase& c : zarrita_cases()) {
      if (c.group == grp.first) want.emplace_back(c.name, ZARR_NODE_ARRAY);
    }
    for (const auto& sub : zarrita_groups()) {
      std::string prefix = grp.first.empty() ? "" : grp.first + "/";
      if (sub.first.empty() || sub.first.rfind(prefix, 0) != 0) continue;
      std::string rest = sub.first.substr(prefix.size());
      if (!rest.empty() && rest.find('/') == std::string::npos) want.emplace_back(rest, ZARR_NODE_GROUP);
    }
    std::sort(want.begin(), want.end());
    Group g;
    ASSERT_EQ(zarr_group_open(g.out(), (w.root + (grp.first.empty() ? "" : "/" + grp.first)).c_str(), "r"), ZARR_OK)
        << zarr_last_error();
    size_t count = 0;
    ASSERT_EQ(zarr_group_child_count(g, &count), ZARR_OK) << zarr_last_error();
    std::vector<std::pair<std::string, int>> got;
    for (size_t i = 0; i < count; ++i) {
      const char* name = nullptr;
      int kind = 0;
      ASSERT_EQ(zarr_group_child(g, i, &name, &kind), ZARR_OK) << zarr_last_error();
      got.emplace_back(name, kind);
    }
    EXPECT_EQ(got, want);
    EXPECT_GE(got.size(), 2u);
    LibString attrs;
    ASSERT_EQ(zarr_group_get_attributes(g, attrs.out()), ZARR_OK) << zarr_last_error();
    EXPECT_TRUE(json_equal(attrs.str(), grp.second)) << attrs.str() << " vs " << grp.second;
  }
}

// ---- zarrita writes, libzarr updates, zarrita reads again --------------------

// Every third array zarrita wrote (a copy of it), opened "r+" by libzarr: a
// box rewritten with new values and the attributes replaced. zarrita then
// reads the result: libzarr's chunks must be encoded with zarrita's codec
// configuration, and zarr.json must stay readable by it.
struct Updated {
  std::string skip, error;
  std::vector<std::string> names;
  std::map<std::string, std::vector<uint8_t>> expected;
  std::map<std::string, std::string> update_error;
  std::map<std::string, const rapidjson::Value*> result;
  std::map<std::string, std::string> whole_file;
  rapidjson::Document results;
};

const std::string kUpdatedAttributes = "{\"updated_by\": \"libzarr\", \"n\": [1, 2]}";

void run_updates(Updated& u) {
  ZarritaWritten& w = zarrita_written();
  if (!w.skip.empty()) {
    u.skip = w.skip;
    return;
  }
  if (!w.error.empty()) {
    u.error = "zarrita could not write: " + w.error;
    return;
  }
  const std::string dir = w.dir->path() + "/updated", out = w.dir->path() + "/updated-out";
  fs::create_directories(dir);
  fs::create_directories(out);
  std::string spec = "{\"cases\": [";
  int i = 0;
  for (const ZarritaCase& c : zarrita_cases()) {
    if (!c.refused_field.empty() || i++ % 3 != 0) continue;
    u.names.push_back(c.name);
    std::string path = dir + "/" + c.name;
    std::error_code ec;
    fs::copy(w.root + "/" + c.path(), path, fs::copy_options::recursive, ec);
    if (ec) {
      u.update_error[c.name] = "cannot copy: " + ec.message();
      continue;
    }
    std::vector<uint8_t> expected = w.cases.at(c.name).expected;
    Array a;
    int rc = zarr_open(a.out(), path.c_str(), "r+");
    if (rc != ZARR_OK) {
      u.update_error[c.name] = "zarr_open(r+): " + status_text(rc);
      continue;
    }
    Box b = read_box(c.shape);
    Rng rng(c.seed + 77);
    std::vector<uint8_t> values = gen_values(c.type, product(b.count), rng);
    rc = zarr_write_region(a, c.shape.size(), b.start.data(), b.count.data(), values.data(), values.size());
    if (rc == ZARR_OK) rc = zarr_set_attributes(a, kUpdatedAttributes.c_str());
    if (rc != ZARR_OK) {
      u.update_error[c.name] = status_text(rc);
      continue;
    }
    paste_c_order(expected, c.shape, c.type.size, b.start, b.count, values.data());
    u.expected[c.name] = expected;
    u.whole_file[c.name] = out + "/" + c.name + ".whole.bin";
    spec += std::string(u.expected.size() == 1 ? "" : ",") + "\n{\"name\": " + quote(c.name) + ", \"path\": " +
            quote(path) + ", \"out\": " + quote(out + "/" + c.name) + ", \"box\": null}";
  }
  spec += "]}";
  u.error = run_zarrita("read", spec, out, u.results);
  if (!u.error.empty()) return;
  for (const auto& r : u.results.GetArray()) u.result[r["name"].GetString()] = &r;
}

Updated& updated() {
  static Updated u;
  static bool ran = (run_updates(u), true);
  (void)ran;
  return u;
}

TEST(ZarritaWritesLibzarrUpdates, ZarritaReadsLibzarrsChanges) {
  Updated& u = updated();
  if (!u.skip.empty()) GTEST_SKIP() << u.skip;
  ASSERT_TRUE(u.error.empty()) << u.error;
  ASSERT_GE(u.names.size(), 25u);
  int same = 0;
  for (const std::string& name : u.names) {
    SCOPED_TRACE(name);
    auto err = u.update_error.find(name);
    if (err != u.update_error.end()) {
      ADD_FAILURE() << "libzarr cannot update zarrita's array: " << err->second;
      continue;
    }
    auto r = u.result.find(name);
    ASSERT_NE(r, u.result.end());
    if (!(*r->second)["ok"].GetBool()) {
      ADD_FAILURE() << "zarrita cannot read the array libzarr updated: " << (*r->second)["error"].GetString();
      continue;
    }
    EXPECT_TRUE(json_equal(json_text((*r->second)["attributes"]), kUpdatedAttributes))
        << json_text((*r->second)["attributes"]);
    const std::vector<uint8_t>& want = u.expected.at(name);
    std::vector<uint8_t> got = read_bytes(u.whole_file.at(name));
    EXPECT_EQ(got, want) << "zarrita reads other values than libzarr wrote; first bytes "
                         << to_hex(got.data(), std::min<size_t>(got.size(), 16));
    same += got == want;
  }
  std::cout << "[ zarrita  ] zarrita -> libzarr (r+) -> zarrita: " << u.names.size() << " arrays, " << same
            << " read identically after libzarr's update\n";
}

TEST(ZarritaWritesV3Summary, Counts) {
  ZarritaWritten& w = zarrita_written();
  if (!w.skip.empty()) GTEST_SKIP() << w.skip;
  ASSERT_TRUE(w.error.empty()) << w.error;
  int identical = 0, refused = 0, failed = 0;
  for (const ZarritaCase& c : zarrita_cases()) {
    const ZarritaOutcome& o = w.cases.at(c.name);
    Array a;
    int rc = zarr_open(a.out(), (w.root + "/" + c.path()).c_str(), "r");
    if (!c.refused_field.empty() && rc != ZARR_OK) {
      ++refused;
      continue;
    }
    bool same = false;
    if (rc == ZARR_OK && zarr_item_size(a) == c.type.size) {
      std::vector<uint8_t> got(o.expected.size());
      std::vector<uint64_t> origin(c.shape.size(), 0);
      same = zarr_read_region(a, c.shape.size(), origin.data(), c.shape.data(), got.data(), got.size()) == ZARR_OK &&
             got == o.expected;
    }
    ++(same ? identical : failed);
  }
  std::cout << "[ zarrita  ] zarrita -> libzarr: " << zarrita_cases().size() << " v3 arrays in 3 groups: " << identical
            << " read identically, " << failed << " differ or fail, " << refused
            << " refused as the v3 spec asks (zarrita's defaults fill_value null and codecs [], int64 fill "
               "-9223372036854776000)\n";
  EXPECT_EQ(failed, 0);
}

// ---- the helpers themselves ----------------------------------------------------

TEST(ZarritaSupport, Crc32cKnownAnswer) {
  const char* s = "123456789";
  EXPECT_EQ(crc32c(reinterpret_cast<const uint8_t*>(s), 9), 0xE3069283u);
}

TEST(ZarritaSupport, HostIsLittleEndian) {
  // The expected bytes here and the peers' hashes are little-endian.
  EXPECT_TRUE(host_is_little_endian());
}

}  // namespace
}  // namespace zarr::interop
