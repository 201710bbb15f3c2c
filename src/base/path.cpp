#include "base/path.h"

#include <algorithm>
#include <filesystem>

#include "base/error.h"

namespace zarr::path {

std::string dot_segment(const std::string& path) {
  size_t begin = 0;
  while (begin <= path.size()) {
    size_t end = path.find_first_of("/\\", begin);
    if (end == std::string::npos) end = path.size();
    const std::string segment = path.substr(begin, end - begin);
    if (segment == "." || segment == "..") return segment;
    begin = end + 1;
  }
  return "";
}

std::string normalize(const std::string& path) {
  const std::string dot = dot_segment(path);
  if (!dot.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "path '" + path + "': segment '" + dot + "' is not allowed");
  std::string out;
  std::string segment;
  auto flush = [&]() {
    if (segment.empty()) return;
    if (!out.empty()) out += '/';
    out += segment;
    segment.clear();
  };
  for (char c : path) {
    if (c == '/' || c == '\\') {
      flush();
    } else {
      segment += c;
    }
  }
  flush();
  return out;
}

std::string segment_problem(const std::string& name) {
  if (name.empty()) return "an empty name";
  if (name == "." || name == "..") return "'" + name + "' is not a name";
  if (name.find('\0') != std::string::npos) return "it holds a NUL byte";
  if (name.find_first_of("/\\") != std::string::npos) return "it holds a path separator ('/' or '\\')";
  return "";
}

std::string percent_encode(const std::string& text, bool keep_slash) {
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

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The scheme of a URL ("file" for "file:///x"), or "" for a plain path.
std::string scheme_of(const std::string& url) {
  const size_t sep = url.find("://");
  if (sep == std::string::npos || sep == 0) return "";
  for (size_t i = 0; i < sep; ++i) {
    const char c = url[i];
    const bool ok = (c >= 'a' && c <= 'z') || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
    if (!ok) return "";
  }
  return url.substr(0, sep);
}

// url + "/" + tail, without doubling a '/' or adding one after "...:".
std::string append_path(const std::string& url, const std::string& tail) {
  const char last = url.empty() ? '/' : url.back();
  return (last == '/' || last == ':') ? url + tail : url + "/" + tail;
}

}  // namespace

std::optional<std::string> percent_decode(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const int hi = i + 2 < text.size() ? hex_value(text[i + 1]) : -1;
    const int lo = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::string join_url(const std::string& url, const std::string& node_path) {
  const size_t first = node_path.find_first_not_of('/');
  if (first == std::string::npos) return url;
  const std::string tail = node_path.substr(first);
  const std::string scheme = scheme_of(url);
  if (url.find("|zip:") != std::string::npos) return append_path(url, tail);  // the path inside the archive
  if (scheme == "file") return append_path(url, percent_encode(tail, true));
  if (scheme == "http" || scheme == "https") {
    const size_t query = std::min(url.find('?'), url.find('#'));
    if (query == std::string::npos) return append_path(url, percent_encode(tail, true));
    return append_path(url.substr(0, query), percent_encode(tail, true)) + url.substr(query);
  }
  if (scheme.empty() && tail.find('|') != std::string::npos) {
    return append_path(file_url(url.empty() ? "." : url), percent_encode(tail, true));
  }
  return append_path(url, tail);
}

std::string file_url(const std::string& filesystem_path) {
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(filesystem_path, ec).generic_string();
  if (ec) fail(ZARR_ERR_IO, "cannot make '" + filesystem_path + "' an absolute path: " + ec.message());
  return "file://" + percent_encode(absolute, true);
}

std::string join(const std::string& base, const std::string& name) {
  if (base.empty()) return name;
  if (name.empty()) return base;
  return base + "/" + name;
}

std::string parent(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (begin < path.size()) {
    size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    if (end > begin) out.push_back(path.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

}  // namespace zarr::path
