#include "interop_support.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

#include "stores/sha256.h"

#ifndef ZARR_SOURCE_ROOT
#define ZARR_SOURCE_ROOT "."
#endif

namespace zarr::interop {

// ---- the Python peer ---------------------------------------------------------

std::string python_exe() {
  const char* env = std::getenv("ZARR_INTEROP_PYTHON");
  return env && *env ? env : "/usr/bin/python3";
}

std::string scripts_dir() {
  const char* env = std::getenv("ZARR_INTEROP_SCRIPTS");
  return env && *env ? env : std::string(ZARR_SOURCE_ROOT) + "/tests/interop";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

int run_command(const std::string& command, std::string* out) {
  FILE* p = popen(command.c_str(), "r");
  if (!p) return -1;
  std::string text;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) text.append(buf.data(), n);
  int status = pclose(p);
  if (out) *out = std::move(text);
  if (status == -1) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string python_unavailable_reason() {
  static const std::string reason = [] {
    std::string out;
    std::string cmd = shell_quote(python_exe()) +
                      " -c 'import zarr, numcodecs, numpy; print(zarr.__version__)' 2>&1";
    int rc = run_command(cmd, &out);
    if (rc != 0) return python_exe() + " cannot import zarr, numcodecs and numpy: " + out;
    if (out.rfind("2.", 0) != 0) return python_exe() + " has zarr " + out + ", these tests need zarr-python 2";
    return std::string();
  }();
  return reason;
}

// ---- bytes -------------------------------------------------------------------

std::string sha256_hex(const void* data, size_t size) {
  return crypto::to_hex(crypto::sha256(ByteView(static_cast<const uint8_t*>(data), size)));
}

std::string to_hex(const void* data, size_t size) {
  static const char* digits = "0123456789abcdef";
  const uint8_t* p = static_cast<const uint8_t*>(data);
  std::string s;
  s.reserve(2 * size);
  for (size_t i = 0; i < size; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

std::vector<uint8_t> from_hex(const std::string& hex) {
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("bad hex digit in '" + hex + "'");
  };
  if (hex.size() % 2) throw std::runtime_error("odd-length hex '" + hex + "'");
  std::vector<uint8_t> out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << text;
  if (!out) throw std::runtime_error("failed writing " + path);
}

uint64_t product(const std::vector<uint64_t>& v) {
  uint64_t n = 1;
  for (uint64_t x : v) n *= x;
  return n;
}

namespace {

// Calls f(offset of a contiguous run in `whole`, offset in the box, run bytes)
// for each innermost row of the box.
template <typename F>
void for_each_row(const std::vector<uint64_t>& shape, size_t item_size, const std::vector<uint64_t>& start,
                  const std::vector<uint64_t>& count, F f) {
  size_t nd = shape.size();
  if (start.size() != nd || count.size() != nd) throw std::runtime_error("box rank differs from the array's");
  for (size_t d = 0; d < nd; ++d) {
    if (start[d] + count[d] > shape[d]) throw std::runtime_error("box outside the array");
  }
  if (nd == 0) {
    f(0, 0, item_size);
    return;
  }
  if (product(count) == 0) return;
  // C-order strides of the whole array, in elements.
  std::vector<uint64_t> stride(nd, 1);
  for (size_t d = nd - 1; d > 0; --d) stride[d - 1] = stride[d] * shape[d];
  size_t row = static_cast<size_t>(count[nd - 1]) * item_size;
  std::vector<uint64_t> idx(nd, 0);  // over the outer nd-1 axes of the box
  size_t box_off = 0;
  while (true) {
    uint64_t off = 0;
    for (size_t d = 0; d < nd; ++d) off += (start[d] + idx[d]) * stride[d];
    f(static_cast<size_t>(off) * item_size, box_off, row);
    box_off += row;
    size_t d = nd - 1;
    while (d > 0) {
      --d;
      if (++idx[d] < count[d]) break;
      idx[d] = 0;
      if (d == 0) return;
    }
    if (nd == 1) return;
  }
}

}  // namespace

std::vector<uint8_t> slice_c_order(const std::vector<uint8_t>& whole, const std::vector<uint64_t>& shape,
                                   size_t item_size, const std::vector<uint64_t>& start,
                                   const std::vector<uint64_t>& count) {
  std::vector<uint8_t> out(static_cast<size_t>(product(count)) * item_size);
  for_each_row(shape, item_size, start, count, [&](size_t off, size_t box_off, size_t n) {
    std::memcpy(out.data() + box_off, whole.data() + off, n);
  });
  return out;
}

void paste_c_order(std::vector<uint8_t>& whole, const std::vector<uint64_t>& shape, size_t item_size,
                   const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, const uint8_t* box) {
  for_each_row(shape, item_size, start, count, [&](size_t off, size_t box_off, size_t n) {
    std::memcpy(whole.data() + off, box + box_off, n);
  });
}

std::string compare_elements(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                             const std::vector<uint8_t>& defined, const std::vector<uint64_t>& shape,
                             size_t item_size) {
  if (got.size() != want.size()) {
    return "got " + std::to_string(got.size()) + " bytes, expected " + std::to_string(want.size());
  }
  size_t n = item_size ? got.size() / item_size : 0;
  if (!defined.empty() && defined.size() != n) {
    return "mask has " + std::to_string(defined.size()) + " elements, data " + std::to_string(n);
  }
  static const std::vector<uint8_t> zeros(1 << 16, 0);
  size_t bad = 0, first = n;
  bool first_undefined = false;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* g = got.data() + i * item_size;
    bool is_defined = defined.empty() || defined[i];
    const uint8_t* w = is_defined ? want.data() + i * item_size : zeros.data();
    if (std::memcmp(g, w, item_size) != 0) {
      if (bad++ == 0) {
        first = i;
        first_undefined = !is_defined;
      }
    }
  }
  if (!bad) return "";
  // Element index of `first` as coordinates.
  std::vector<uint64_t> coord(shape.size());
  size_t rem = first;
  for (size_t d = shape.size(); d-- > 0;) {
    coord[d] = shape[d] ? rem % shape[d] : 0;
    rem = shape[d] ? rem / shape[d] : 0;
  }
  std::ostringstream os;
  os << bad << " of " << n << " elements differ; first at [";
  for (size_t d = 0; d < coord.size(); ++d) os << (d ? "," : "") << coord[d];
  os << "]: got " << to_hex(got.data() + first * item_size, item_size) << ", expected "
     << (first_undefined ? std::string(2 * item_size, '0') + " (undefined there: libzarr reads zeros)"
                         : to_hex(want.data() + first * item_size, item_size));
  return os.str();
}

// ---- deterministic randomness ------------------------------------------------

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<uint8_t> generate_values(const DTypeInfo& dt, uint64_t count, Rng& rng) {
  std::vector<uint8_t> out(static_cast<size_t>(count) * dt.item_size);
  switch (dt.gen) {
    case Gen::kBytes:
      for (auto& b : out) b = static_cast<uint8_t>(rng.next());
      break;
    case Gen::kBool:
      for (auto& b : out) b = static_cast<uint8_t>(rng.below(2));
      break;
    case Gen::kUcs4:
      for (uint64_t i = 0; i < count; ++i) {
        size_t len = static_cast<size_t>(rng.below(dt.nchar + 1));
        for (size_t j = 0; j < dt.nchar; ++j) {
          uint32_t cp = 0;
          if (j < len) {
            cp = static_cast<uint32_t>(rng.between(1, 0x110000 - 0x800 - 1));
            if (cp >= 0xD800) cp += 0x800;  // skip the surrogates
          }
          std::memcpy(out.data() + (i * dt.nchar + j) * 4, &cp, 4);
        }
      }
      break;
  }
  return out;
}

// ---- the case matrix ---------------------------------------------------------

namespace {

std::vector<std::pair<std::string, std::string>> int_fills(const std::string& nz) {
  return {{"nz", nz}, {"zero", "0"}, {"null", "null"}};
}
std::vector<std::pair<std::string, std::string>> float_fills(const std::string& nz) {
  return {{"nz", nz}, {"zero", "0.0"}, {"nan", "\"NaN\""}, {"null", "null"}};
}
std::vector<std::pair<std::string, std::string>> plain_fills(const std::string& nz, const std::string& zero) {
  return {{"nz", nz}, {"zero", zero}, {"null", "null"}};
}

DTypeInfo simple(const std::string& tag, const std::string& typestr, size_t size, const std::string& v3,
                 std::vector<std::pair<std::string, std::string>> fills, Gen gen = Gen::kBytes) {
  return DTypeInfo{tag, "\"" + typestr + "\"", size, gen, 0, v3, std::move(fills)};
}

std::string join(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// Boxes that leave chunk row 0 (along axis 0) unwritten, reach the ragged
// edge, and cut chunks at unaligned places.
std::vector<Box> make_boxes(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks, Rng& rng) {
  size_t nd = shape.size();
  if (nd == 0) return {Box{}};
  if (product(shape) == 0) return {};
  uint64_t lo0 = shape[0] > chunks[0] ? chunks[0] : 0;
  std::vector<Box> boxes(3);
  for (size_t d = 0; d < nd; ++d) {
    uint64_t lo = d == 0 ? lo0 : 0;
    // box 0: up to the far (ragged) edge
    uint64_t s0 = d == 0 ? rng.between(lo, shape[d] - 1) : rng.between(0, shape[d] / 2);
    boxes[0].start.push_back(s0);
    boxes[0].count.push_back(shape[d] - s0);
    // box 1: anywhere past chunk row 0
    uint64_t s1 = rng.between(lo, shape[d] - 1);
    boxes[1].start.push_back(s1);
    boxes[1].count.push_back(rng.between(1, shape[d] - s1));
    // box 2: one or two elements per axis, overwriting parts of the others
    uint64_t s2 = rng.between(lo, shape[d] - 1);
    boxes[2].start.push_back(s2);
    boxes[2].count.push_back(rng.between(1, std::min<uint64_t>(2, shape[d] - s2)));
  }
  return boxes;
}

}  // namespace

const std::vector<DTypeInfo>& dtype_table() {
  static const std::vector<DTypeInfo> table = [] {
    std::vector<DTypeInfo> t;
    t.push_back(simple("b1", "|b1", 1, "bool", plain_fills("true", "false"), Gen::kBool));
    t.push_back(simple("i1", "|i1", 1, "int8", int_fills("-7")));
    t.push_back(simple("i2le", "<i2", 2, "int16", int_fills("-300")));
    t.push_back(simple("i2be", ">i2", 2, "int16", int_fills("12345")));
    t.push_back(simple("i4le", "<i4", 4, "int32", int_fills("123456")));
    t.push_back(simple("i4be", ">i4", 4, "int32", int_fills("-2147483648")));
    t.push_back(simple("i8le", "<i8", 8, "int64", int_fills("-9000000000")));
    t.push_back(simple("i8be", ">i8", 8, "int64", int_fills("9223372036854775807")));
    t.push_back(simple("u1", "|u1", 1, "uint8", int_fills("200")));
    t.push_back(simple("u2le", "<u2", 2, "uint16", int_fills("65535")));
    t.push_back(simple("u2be", ">u2", 2, "uint16", int_fills("513")));
    t.push_back(simple("u4le", "<u4", 4, "uint32", int_fills("4000000000")));
    t.push_back(simple("u4be", ">u4", 4, "uint32", int_fills("16909060")));
    t.push_back(simple("u8le", "<u8", 8, "uint64", int_fills("18446744073709551615")));
    t.push_back(simple("u8be", ">u8", 8, "uint64", int_fills("72623859790382856")));
    t.push_back(simple("f2le", "<f2", 2, "float16", float_fills("-2.5")));
    t.push_back(simple("f2be", ">f2", 2, "float16", float_fills("\"Infinity\"")));
    t.push_back(simple("f4le", "<f4", 4, "float32", float_fills("0.1")));
    t.push_back(simple("f4be", ">f4", 4, "float32", float_fills("\"-Infinity\"")));
    t.push_back(simple("f8le", "<f8", 8, "float64", float_fills("1e+300")));
    t.push_back(simple("f8be", ">f8", 8, "float64", float_fills("-0.0")));
    // Complex fill values avoid NaN and infinity: zarr-python 2.13 computes
    // re + 1j*im, which mixes the parts (docs/dtypes.md); libzarr keeps them apart.
    t.push_back(simple("c8le", "<c8", 8, "complex64", plain_fills("[1.5,-2.0]", "[0.0,0.0]")));
    t.push_back(simple("c8be", ">c8", 8, "complex64", plain_fills("[-0.25,1e+20]", "[0.0,0.0]")));
    t.push_back(simple("c16le", "<c16", 16, "complex128", plain_fills("[-1.25,3e+100]", "[0.0,0.0]")));
    t.push_back(simple("c16be", ">c16", 16, "complex128", plain_fills("[2.0,-1e-300]", "[0.0,0.0]")));
    t.push_back(simple("M8ns_le", "<M8[ns]", 8, "", int_fills("1600000000000000000")));
    t.push_back(simple("M8ns_be", ">M8[ns]", 8, "", int_fills("\"NaT\"")));
    t.push_back(simple("M8D", "<M8[D]", 8, "", int_fills("18000")));
    t.push_back(simple("m8s_le", "<m8[s]", 8, "", int_fills("-86400")));
    t.push_back(simple("m8s_be", ">m8[s]", 8, "", int_fills("\"NaT\"")));
    t.push_back(simple("S5", "|S5", 5, "", plain_fills("\"aGVsbG8=\"", "\"\"")));
    DTypeInfo u4le = simple("U4le", "<U4", 16, "", plain_fills("\"a\xc3\xa9\xf0\x9f\x98\x80\"", "\"\""), Gen::kUcs4);
    u4le.nchar = 4;
    t.push_back(u4le);
    DTypeInfo u4be = simple("U4be", ">U4", 16, "", plain_fills("\"xyzw\"", "\"\""), Gen::kUcs4);
    u4be.nchar = 4;
    t.push_back(u4be);
    t.push_back(simple("V3", "|V3", 3, "", plain_fills("\"AQID\"", "\"AAAA\"")));
    // A nested record and a subarray; fill values are base64 of the stored record.
    t.push_back(DTypeInfo{"struct_le", R"([["a","<i4"],["b",[["x","<f8"],["y","|u1"]]],["c","<i2",[2,3]]])", 25,
                          Gen::kBytes, 0, "",
                          plain_fills("\"+////wAAAAAAAARABwEAAgADAAQABQAGAA==\"",
                                      "\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==\"")});
    t.push_back(DTypeInfo{"struct_mixed",
                          R"([["a",">i4"],["b",[["x",">f8"],["y","|u1"]]],["c","<i2",[2,3]],["d","|S3"]])", 28,
                          Gen::kBytes, 0, "",
                          plain_fills("\"////+0AEAAAAAAAABwEAAgADAAQABQAGAHh5eg==\"",
                                      "\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==\"")});
    return t;
  }();
  return table;
}

const std::vector<std::pair<std::string, std::string>>& compressor_table() {
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"raw", "null"},
      {"zlib1", R"({"id":"zlib","level":1})"},
      {"zlib9", R"({"id":"zlib","level":9})"},
      {"gzip5", R"({"id":"gzip","level":5})"},
      {"bz2", R"({"id":"bz2","level":9})"},
      {"zstd3", R"({"id":"zstd","level":3})"},
      {"zstd0", R"({"id":"zstd","level":0})"},
      {"blosc_lz4_byte", R"({"id":"blosc","cname":"lz4","clevel":5,"shuffle":1,"blocksize":0})"},
      {"blosc_zstd_bit", R"({"id":"blosc","cname":"zstd","clevel":3,"shuffle":2,"blocksize":0})"},
      {"blosc_blosclz_noshuf", R"({"id":"blosc","cname":"blosclz","clevel":9,"shuffle":0,"blocksize":0})"},
      {"blosc_zlib_auto", R"({"id":"blosc","cname":"zlib","clevel":1,"shuffle":-1,"blocksize":0})"},
      {"blosc_lz4hc_bs256", R"({"id":"blosc","cname":"lz4hc","clevel":5,"shuffle":1,"blocksize":256})"},
      {"lz4", R"({"id":"lz4","acceleration":1})"},
      {"lzma_xz", R"({"id":"lzma","format":1,"check":-1,"preset":1,"filters":null})"},
      {"lzma_alone", R"({"id":"lzma","format":2,"check":-1,"preset":6,"filters":null})"},
  };
  return table;
}

const std::vector<CaseSpec>& case_matrix() {
  static const std::vector<CaseSpec> cases = [] {
    const std::vector<std::pair<std::vector<uint64_t>, std::vector<uint64_t>>> shapes = {
        {{37}, {8}}, {{13, 17}, {4, 5}}, {{6, 7, 5}, {4, 3, 2}}, {{20, 9}, {7, 9}}, {{5, 3, 4, 2}, {2, 2, 3, 1}}};
    const auto& dts = dtype_table();
    const auto& comps = compressor_table();
    std::vector<CaseSpec> out;
    for (size_t i = 0; i < dts.size(); ++i) {
      for (size_t k = 0; k < 3; ++k) {
        CaseSpec c;
        c.dtype = dts[i];
        const auto& comp = comps[(3 * i + k) % comps.size()];
        c.compressor_tag = comp.first;
        c.compressor_json = comp.second;
        c.order = (i + k) % 2 ? "F" : "C";
        c.separator = (i / 2 + k) % 2 ? "/" : ".";
        const auto& fill = c.dtype.fills[(i + k) % c.dtype.fills.size()];
        c.fill_tag = fill.first;
        c.fill_json = fill.second;
        const auto& sh = shapes[(i + 2 * k) % shapes.size()];
        c.shape = sh.first;
        c.chunks = sh.second;
        c.seed = 1000 + 3 * i + k;
        Rng rng(c.seed);
        c.boxes = make_boxes(c.shape, c.chunks, rng);
        c.name = c.dtype.tag + "_" + c.compressor_tag + "_" + c.order + "_" + (c.separator == "." ? "dot" : "slash") +
                 "_" + c.fill_tag;
        out.push_back(std::move(c));
      }
    }
    // Edge cases.
    auto find = [&](const std::string& tag) {
      for (const auto& d : dts) {
        if (d.tag == tag) return d;
      }
      throw std::runtime_error("no dtype " + tag);
    };
    auto comp_json = [&](const std::string& tag) {
      for (const auto& c : comps) {
        if (c.first == tag) return c.second;
      }
      throw std::runtime_error("no compressor " + tag);
    };
    auto extra = [&](const std::string& name, const std::string& dtype, std::vector<uint64_t> shape,
                     std::vector<uint64_t> chunks, const std::string& comp, const std::string& order,
                     const std::string& sep, const std::string& fill_tag, const std::string& fill_json,
                     std::vector<Box> boxes) {
      CaseSpec c;
      c.name = name;
      c.dtype = find(dtype);
      c.shape = std::move(shape);
      c.chunks = std::move(chunks);
      c.compressor_tag = comp;
      c.compressor_json = comp_json(comp);
      c.order = order;
      c.separator = sep;
      c.fill_tag = fill_tag;
      c.fill_json = fill_json;
      c.seed = 5000 + out.size();
      c.boxes = std::move(boxes);
      out.push_back(std::move(c));
    };
    extra("edge_0d_written_f8le", "f8le", {}, {}, "zlib1", "C", ".", "nz", "1.5", {Box{}});
    extra("edge_0d_unwritten_U4le", "U4le", {}, {}, "raw", "C", ".", "nz", "\"ab\"", {});
    extra("edge_empty_i4le", "i4le", {0, 5}, {2, 2}, "blosc_lz4_byte", "C", ".", "nz", "3", {});
    extra("edge_chunk_gt_shape_i2be", "i2be", {5, 3}, {10, 10}, "gzip5", "F", "/", "nz", "7",
          {Box{{1, 0}, {2, 2}}});
    extra("edge_null_full_f4le", "f4le", {9, 4}, {4, 3}, "zstd3", "C", "/", "null", "null",
          {Box{{0, 0}, {9, 4}}});
    extra("edge_big_u2le_blocksize", "u2le", {300, 257}, {64, 100}, "blosc_lz4hc_bs256", "C", ".", "nz", "9",
          {Box{{64, 3}, {236, 254}}, Box{{100, 0}, {1, 257}}});
    extra("edge_big_f4be_F", "f4be", {120, 90}, {50, 40}, "blosc_zstd_bit", "F", "/", "nan", "\"NaN\"",
          {Box{{50, 1}, {70, 89}}});
    extra("edge_1x1_chunks_u1", "u1", {4, 5}, {1, 1}, "raw", "C", "/", "nz", "1",
          {Box{{1, 1}, {3, 3}}});
    return out;
  }();
  return cases;
}

std::string zarray_json(const CaseSpec& c) {
  return "{\"zarr_format\":2,\"shape\":" + join(c.shape) + ",\"chunks\":" + join(c.chunks) +
         ",\"dtype\":" + c.dtype.json + ",\"compressor\":" + c.compressor_json + ",\"fill_value\":" + c.fill_json +
         ",\"order\":\"" + c.order + "\",\"filters\":null,\"dimension_separator\":\"" + c.separator + "\"}";
}

std::string case_json(const CaseSpec& c) {
  std::string boxes = "[";
  for (size_t i = 0; i < c.boxes.size(); ++i) {
    boxes += (i ? "," : "") + std::string("{\"start\":") + join(c.boxes[i].start) +
             ",\"count\":" + join(c.boxes[i].count) + "}";
  }
  boxes += "]";
  return "{\"name\":\"" + c.name + "\",\"dtype\":" + c.dtype.json + ",\"shape\":" + join(c.shape) +
         ",\"chunks\":" + join(c.chunks) + ",\"compressor\":" + c.compressor_json + ",\"order\":\"" + c.order +
         "\",\"separator\":\"" + c.separator + "\",\"fill_value\":" + c.fill_json + ",\"boxes\":" + boxes +
         ",\"seed\":" + std::to_string(c.seed) + "}";
}

// The sub-regions the interop tests read from each array: unaligned, a single element at the
// ragged corner, one straddling chunk boundaries, an empty one.
std::vector<Box> sub_regions(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks, uint64_t seed) {
  size_t nd = shape.size();
  if (nd == 0) return {Box{}};
  std::vector<Box> out;
  Box empty;
  empty.start.assign(nd, 0);
  empty.count.assign(nd, 0);
  out.push_back(empty);
  if (product(shape) == 0) return out;
  Rng rng(seed * 7919 + 17);
  for (int r = 0; r < 3; ++r) {
    Box b;
    for (size_t d = 0; d < nd; ++d) {
      uint64_t s = rng.below(shape[d]);
      b.start.push_back(s);
      b.count.push_back(rng.between(1, shape[d] - s));
    }
    out.push_back(b);
  }
  Box corner, cross;
  for (size_t d = 0; d < nd; ++d) {
    corner.start.push_back(shape[d] - 1);
    corner.count.push_back(1);
    uint64_t s = std::min(chunks[d] > 0 ? chunks[d] - 1 : 0, shape[d] - 1);
    cross.start.push_back(s);
    cross.count.push_back(std::min<uint64_t>(3, shape[d] - s));
  }
  out.push_back(corner);
  out.push_back(cross);
  return out;
}

}  // namespace zarr::interop
