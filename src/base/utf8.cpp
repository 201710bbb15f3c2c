#include "base/utf8.h"

namespace zarr {

namespace {

bool is_scalar_value(uint32_t cp) { return cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff); }

}  // namespace

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

}  // namespace zarr
