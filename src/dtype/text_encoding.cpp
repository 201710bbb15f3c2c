#include "dtype/text_encoding.h"

namespace zarr::dtype_detail {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The 6-bit value of an alphabet character, or -1.
int base64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string base64_encode(const uint8_t* data, size_t size) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (size_t i = 0; i < size; i += 3) {
    const size_t n = size - i < 3 ? size - i : 3;
    uint32_t group = static_cast<uint32_t>(data[i]) << 16;
    if (n > 1) group |= static_cast<uint32_t>(data[i + 1]) << 8;
    if (n > 2) group |= data[i + 2];
    for (size_t k = 0; k < 4; ++k) {
      out += k <= n ? kAlphabet[(group >> (18 - 6 * k)) & 0x3f] : '=';
    }
  }
  return out;
}

std::optional<Bytes> base64_decode_lenient(const std::string& text) {
  Bytes out;
  uint32_t acc = 0;  // bits of the current quad not yet emitted
  int quad_pos = 0;  // data characters seen in the current quad
  int pads = 0;      // '=' seen since the last data character
  for (unsigned char c : text) {
    if (c >= 0x80) return std::nullopt;  // Python rejects non-ASCII text outright
  }
  for (unsigned char c : text) {
    if (c == '=') {
      // Padding only counts after two data characters; once it completes the
      // quad the rest of the text is ignored (Python's non-strict mode).
      if (quad_pos >= 2 && quad_pos + ++pads >= 4) return out;
      continue;
    }
    const int v = base64_value(c);
    if (v < 0) continue;
    pads = 0;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    ++quad_pos;
    if (quad_pos == 2) out.push_back(static_cast<uint8_t>(acc >> 4));
    if (quad_pos == 3) out.push_back(static_cast<uint8_t>(acc >> 2));
    if (quad_pos == 4) {
      out.push_back(static_cast<uint8_t>(acc));
      quad_pos = 0;
      acc = 0;
    }
  }
  if (quad_pos != 0) return std::nullopt;  // missing padding or a lone character
  return out;
}

}  // namespace zarr::dtype_detail
