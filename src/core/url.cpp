#include "core/url.h"

#include <filesystem>

#include "core/error.h"
#include "core/path.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"

namespace fs = std::filesystem;

namespace zarr {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(const std::string& s, const std::string& url) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    int hi = i + 2 < s.size() ? hex_value(s[i + 1]) : -1;
    int lo = i + 2 < s.size() ? hex_value(s[i + 2]) : -1;
    if (hi < 0 || lo < 0) fail(ZARR_ERR_INVALID_ARGUMENT, "URL '" + url + "': bad percent escape");
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

struct ParsedUrl {
  std::string scheme;  // "file" or "memory"
  std::string rest;    // filesystem path, or "NAME/path" for memory
};

ParsedUrl parse_url(const std::string& url) {
  if (url.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "URL is empty");
  if (url.find('\0') != std::string::npos) fail(ZARR_ERR_INVALID_ARGUMENT, "URL contains a NUL byte");
  size_t sep = url.find("://");
  if (sep == std::string::npos) return {"file", url};
  std::string scheme = url.substr(0, sep);
  std::string rest = url.substr(sep + 3);
  if (scheme == "file") {
    if (rest.empty() || rest[0] != '/') {
      fail(ZARR_ERR_INVALID_ARGUMENT, "URL '" + url + "': file URLs need an absolute path (file:///path)");
    }
    return {"file", percent_decode(rest, url)};
  }
  if (scheme == "memory") {
    if (rest.empty() || rest[0] == '/') fail(ZARR_ERR_INVALID_ARGUMENT, "URL '" + url + "': memory URLs need a name (memory://NAME)");
    return {"memory", rest};
  }
  if (scheme == "http" || scheme == "https" || scheme == "s3") {
    fail(ZARR_ERR_UNSUPPORTED, "URL '" + url + "': the " + scheme + " store is not available in this version of libzarr");
  }
  fail(ZARR_ERR_INVALID_ARGUMENT, "URL '" + url + "': unknown scheme '" + scheme + "'");
}

NodeLocation memory_location(const std::string& rest) {
  size_t slash = rest.find('/');
  std::string name = rest.substr(0, slash);
  std::string node = slash == std::string::npos ? "" : rest.substr(slash + 1);
  return {make_memory_store(name), path::normalize(node)};
}

// The topmost folder above `node` that belongs to the same hierarchy: walk up
// past folders that do not exist yet (they will be created) and folders that
// are groups (.zgroup or zarr.json); stop at the first other existing folder.
fs::path hierarchy_root(const fs::path& node) {
  fs::path root = node;
  for (fs::path dir = node.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    std::error_code ec;
    if (fs::exists(dir / kV2GroupKey, ec) || fs::exists(dir / kV3MetadataKey, ec)) {
      root = dir;
    } else if (fs::exists(dir, ec)) {
      break;
    }
    if (dir == dir.root_path()) break;
  }
  return root;
}

}  // namespace

NodeLocation resolve_for_open(const std::string& url) {
  ParsedUrl parsed = parse_url(url);
  if (parsed.scheme == "memory") return memory_location(parsed.rest);
  return {make_filesystem_store(parsed.rest), ""};
}

NodeLocation resolve_for_create(const std::string& url) {
  ParsedUrl parsed = parse_url(url);
  if (parsed.scheme == "memory") return memory_location(parsed.rest);
  fs::path node = fs::absolute(fs::path(parsed.rest)).lexically_normal();
  if (node.filename().empty()) node = node.parent_path();  // trailing slash
  fs::path root = hierarchy_root(node);
  std::string relative = node.lexically_relative(root).generic_string();
  return {make_filesystem_store(root.string()), path::normalize(relative == "." ? "" : relative)};
}

}  // namespace zarr
