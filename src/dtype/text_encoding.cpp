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

bool is_scalar_value(uint32_t cp) { return cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff); }

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

std::optional<std::vector<uint32_t>> utf8_to_utf32(const std::string& text) {
  std::vector<uint32_t> out;
  size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    size_t extra;
    uint32_t cp;
    uint32_t min_cp;  // smallest value the sequence length may encode (no overlong forms)
    if (lead < 0x80) {
      extra = 0, cp = lead, min_cp = 0;
    } else if ((lead & 0xe0) == 0xc0) {
      extra = 1, cp = lead & 0x1fu, min_cp = 0x80;
    } else if ((lead & 0xf0) == 0xe0) {
      extra = 2, cp = lead & 0x0fu, min_cp = 0x800;
    } else if ((lead & 0xf8) == 0xf0) {
      extra = 3, cp = lead & 0x07u, min_cp = 0x10000;
    } else {
      return std::nullopt;
    }
    if (text.size() - i <= extra) return std::nullopt;
    for (size_t k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (next & 0x3fu);
    }
    if (cp < min_cp || !is_scalar_value(cp)) return std::nullopt;
    out.push_back(cp);
    i += extra + 1;
  }
  return out;
}

std::optional<std::string> utf32_to_utf8(const std::vector<uint32_t>& code_points) {
  std::string out;
  for (uint32_t cp : code_points) {
    if (!is_scalar_value(cp)) return std::nullopt;
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  return out;
}

}  // namespace zarr::dtype_detail
