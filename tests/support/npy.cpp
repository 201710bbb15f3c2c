// The .npy format: magic "\x93NUMPY", major and minor version bytes, the
// header length (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0), then
// a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}
// padded with spaces and a newline, then the data.
#include "support/npy.h"

#include <cctype>
#include <cstring>
#include <stdexcept>

#include "support/test_support.h"

namespace zarr::test {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": not a valid .npy file: " + what);
}

// The text right after "'key':" in the header dict, leading spaces skipped.
size_t value_start(const std::string& header, const std::string& key, const std::string& where) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) bad(where, "header has no '" + key + "'");
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) bad(where, "no ':' after '" + key + "'");
  size_t v = colon + 1;
  while (v < header.size() && header[v] == ' ') ++v;
  return v;
}

std::string parse_descr(const std::string& header, const std::string& where) {
  size_t v = value_start(header, "descr", where);
  if (v >= header.size() || header[v] != '\'') bad(where, "'descr' is not a plain string (structured dtype?)");
  size_t end = header.find('\'', v + 1);
  if (end == std::string::npos) bad(where, "unterminated 'descr'");
  return header.substr(v + 1, end - v - 1);
}

bool parse_fortran_order(const std::string& header, const std::string& where) {
  size_t v = value_start(header, "fortran_order", where);
  if (header.compare(v, 4, "True") == 0) return true;
  if (header.compare(v, 5, "False") == 0) return false;
  bad(where, "'fortran_order' is neither True nor False");
}

// "(100, 10)", "(1000,)" or "()".
std::vector<uint64_t> parse_shape(const std::string& header, const std::string& where) {
  size_t v = value_start(header, "shape", where);
  size_t end = header.find(')', v);
  if (v >= header.size() || header[v] != '(' || end == std::string::npos) bad(where, "'shape' is not a tuple");
  std::vector<uint64_t> shape;
  for (size_t i = v + 1; i < end;) {
    if (std::isdigit(static_cast<unsigned char>(header[i]))) {
      size_t used = 0;
      shape.push_back(std::stoull(header.substr(i, end - i), &used));
      i += used;
    } else if (header[i] == ',' || header[i] == ' ' || header[i] == 'L') {
      ++i;
    } else {
      bad(where, "unexpected character in 'shape'");
    }
  }
  return shape;
}

uint32_t load_le(const uint8_t* p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}

}  // namespace

size_t NpyArray::item_size() const {
  // descr is byte order, kind, then a size: "<f8", "|S3", "<M8[ns]", "<U5".
  if (descr.size() < 3) throw std::runtime_error("npy: unsupported descr '" + descr + "'");
  char kind = descr[1];
  if (kind == 'O') throw std::runtime_error("npy: object arrays are not supported");
  size_t n = std::stoul(descr.substr(2));
  return kind == 'U' ? n * 4 : n;  // 'U' counts UCS-4 characters
}

uint64_t NpyArray::element_count() const {
  uint64_t count = 1;
  for (uint64_t extent : shape) count *= extent;
  return count;
}

NpyArray parse_npy(ByteView bytes, const std::string& where) {
  if (bytes.size < kMagicSize + 4 || std::memcmp(bytes.data, kMagic, kMagicSize) != 0) bad(where, "no magic");
  uint8_t major = bytes.data[kMagicSize];
  if (major < 1 || major > 3) bad(where, "unknown version " + std::to_string(major));
  size_t len_size = major == 1 ? 2 : 4;
  size_t header_start = kMagicSize + 2 + len_size;
  if (bytes.size < header_start) bad(where, "truncated header length");
  size_t header_len = load_le(bytes.data + kMagicSize + 2, len_size);
  if (bytes.size < header_start + header_len) bad(where, "truncated header");

  std::string header(reinterpret_cast<const char*>(bytes.data + header_start), header_len);
  NpyArray a;
  a.descr = parse_descr(header, where);
  a.fortran_order = parse_fortran_order(header, where);
  a.shape = parse_shape(header, where);
  a.data.assign(bytes.data + header_start + header_len, bytes.data + bytes.size);
  if (a.data.size() != a.element_count() * a.item_size()) {
    bad(where, "data has " + std::to_string(a.data.size()) + " bytes, shape and descr say " +
                   std::to_string(a.element_count() * a.item_size()));
  }
  return a;
}

NpyArray read_npy(const std::string& path) { return parse_npy(read_file(path), path); }

}  // namespace zarr::test
