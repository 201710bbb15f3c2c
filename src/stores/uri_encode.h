// RFC 3986 percent-encoding of keys in the URLs of the remote stores, in the
// form AWS Signature Version 4 requires of paths and query strings.
#pragma once

#include <string>

namespace zarr {

// Unreserved characters (A-Z a-z 0-9 - _ . ~) are kept, every other byte
// becomes %XX (upper-case hex); '/' is kept when keep_slash (paths) and
// encoded otherwise (query values).
inline std::string uri_encode(const std::string& text, bool keep_slash) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_' || c == '.' || c == '~';
    if (unreserved || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace zarr
