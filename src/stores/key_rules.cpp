#include "stores/key_rules.h"

#include <cstdio>

#include "base/error.h"

namespace zarr::keys {
namespace {

[[noreturn]] void reject(const char* what, const std::string& text, const std::string& why) {
  fail(ZARR_ERR_INVALID_ARGUMENT, std::string("invalid ") + what + " " + quote(text) + ": " + why);
}

// Checks one complete segment (between separators) of a key or prefix.
void check_segment(const char* what, const std::string& text, const std::string& segment) {
  if (segment.empty()) reject(what, text, "empty segment");
  if (segment == "." || segment == "..") reject(what, text, "segment '" + segment + "' is not allowed");
  if (is_temp_name(segment)) {
    reject(what, text, "segments starting with '" + std::string(kTempPrefix) + "' are reserved");
  }
}

// Checks what keys and prefixes share, and every '/'-terminated segment of
// text[0, complete_end); the rest of the text is the caller's business.
void check_common(const char* what, const std::string& text, size_t complete_end) {
  if (text.find('\0') != std::string::npos) reject(what, text, "contains a NUL byte");
  if (!text.empty() && text[0] == '/') reject(what, text, "must be relative (no leading '/')");
  size_t begin = 0;
  while (begin < complete_end) {
    size_t slash = text.find('/', begin);
    if (slash == std::string::npos) slash = text.size();
    check_segment(what, text, text.substr(begin, slash - begin));
    begin = slash + 1;
  }
}

}  // namespace

bool is_temp_name(const std::string& name) { return name.rfind(kTempPrefix, 0) == 0; }

void check_key(const std::string& key) {
  if (key.empty()) reject("key", key, "empty key");
  check_common("key", key, key.size());
  // check_common walks segments up to each '/'; a trailing '/' leaves an
  // empty last segment that it does not see.
  if (key.back() == '/') reject("key", key, "empty segment");
}

bool is_valid_key(const std::string& key) {
  try {
    check_key(key);
    return true;
  } catch (const Error&) {
    return false;
  }
}

void check_prefix(const std::string& prefix) {
  // Only segments followed by '/' are complete; the last one may be partial.
  size_t last_slash = prefix.rfind('/');
  check_common("prefix", prefix, last_slash == std::string::npos ? 0 : last_slash + 1);
}

std::string dir_prefix(const std::string& prefix) {
  if (prefix.empty() || prefix.back() == '/') {
    check_prefix(prefix);
    return prefix;
  }
  // Without its '/', the last segment is complete too: check it as such.
  std::string with_slash = prefix + "/";
  check_prefix(with_slash);
  return with_slash;
}

std::string quote(const std::string& text) {
  std::string out = "'";
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += ch;
    }
  }
  return out + "'";
}

Span clip(uint64_t size, const ByteRange& range) {
  Span span;
  if (range.suffix) {  // the last *suffix bytes, or the whole value when shorter
    span.begin = *range.suffix < size ? size - *range.suffix : 0;
    span.end = size;
    return span;
  }
  span.begin = range.offset < size ? range.offset : size;
  uint64_t available = size - span.begin;
  uint64_t wanted = range.length ? *range.length : available;
  span.end = span.begin + (wanted < available ? wanted : available);
  return span;
}

[[noreturn]] void fail_read_only(const std::string& where, const char* operation,
                                 const std::string& key) {
  fail(ZARR_ERR_READ_ONLY, std::string("cannot ") + operation + " " + quote(key) +
                               ": store " + where + " is read-only");
}

}  // namespace zarr::keys
