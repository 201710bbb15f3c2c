// The spec front end: where the array is. TensorStore's kvstore (a URL in
// libzarr's syntax or a kvstore object) joined with the spec's "path", as a
// URL of libzarr's syntax (stores/url.h).
#include <atomic>
#include <optional>
#include <string>

#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "spec/spec_request.h"

namespace zarr::spec_detail {
namespace {

std::string kvstore_url(const Value& kvstore, const std::string& where);

// A kvstore's "path", or the spec's: relative to what holds it (for the
// file driver, where the store is), so a "." or ".." segment, which could
// climb out of it, is refused for every driver, as TensorStore's key rules
// refuse them. The text checked is the text used: paths are literal
// ("%2e%2e" is a name), and path::join_url encodes them where a URL is
// decoded, so no decoding after this check can make a dot segment. A
// leading '/' is dropped when joined: it stays inside.
void check_no_dot_segment(const std::string& text, const std::string& name) {
  const std::string dot = path::dot_segment(text);
  if (!dot.empty()) {
    invalid("'" + name + "' \"" + text + "\": segment '" + dot + "' is not allowed (a path must stay in its store)");
  }
}

std::string checked_path(const Value& v, const std::string& name) {
  std::string text = get_text(v, name);
  check_no_dot_segment(text, name);
  return text;
}

// The file driver's path is a filesystem path, as in TensorStore; one given
// as a file:// URL is decoded first, so that its check sees what the
// filesystem will. It reaches the URL resolver as written when the URL
// syntax reads it so, else as a file:// URL of it with every byte encoded.
std::string file_kvstore_url(const Value& kvstore, const std::string& where) {
  auto it = kvstore.FindMember("path");
  if (it == kvstore.MemberEnd()) invalid("'" + where + ".path' is required for the file driver");
  std::string file_path = get_text(it->value, where + ".path");
  if (file_path.rfind("file://", 0) == 0) {
    std::optional<std::string> decoded = path::percent_decode(file_path.substr(7));
    if (!decoded) invalid("'" + where + ".path' \"" + file_path + "\": bad percent escape");
    file_path = *decoded;
    if (file_path.find('\0') != std::string::npos) invalid("'" + where + ".path' holds a NUL byte (%00)");
  }
  check_no_dot_segment(file_path, where + ".path");
  if (file_path.empty()) invalid("'" + where + ".path' is required for the file driver");
  const bool plain = file_path.find('|') == std::string::npos && file_path.find("://") == std::string::npos;
  return plain ? file_path : path::file_url(file_path);
}

std::string optional_path(const Value& kvstore, const std::string& where) {
  auto it = kvstore.FindMember("path");
  return it == kvstore.MemberEnd() ? "" : checked_path(it->value, where + ".path");
}

std::string kvstore_object_url(const Value& kvstore, const std::string& where) {
  auto driver_it = kvstore.FindMember("driver");
  if (driver_it == kvstore.MemberEnd()) invalid("'" + where + "' needs a 'driver'");
  const std::string driver = get_text(driver_it->value, where + ".driver");
  if (driver == "file") {
    check_members(kvstore, where, {"driver", "path"}, {"context", "file_io_concurrency", "file_io_sync"});
    return file_kvstore_url(kvstore, where);
  }
  const std::string path = optional_path(kvstore, where);
  if (driver == "memory") {
    check_members(kvstore, where, {"driver", "path"}, {"context", "atomic", "memory_key_value_store"});
    return path::join_url("memory://", path);
  }
  if (driver == "zip") {
    check_members(kvstore, where, {"driver", "path", "base"}, {"context", "cache_pool", "data_copy_concurrency"});
    auto base = kvstore.FindMember("base");
    if (base == kvstore.MemberEnd()) invalid("'" + where + ".base' is required for the zip driver");
    return kvstore_url(base->value, where + ".base") + "|zip:" + path;
  }
  if (driver == "http") {
    check_members(kvstore, where, {"driver", "path", "base_url"}, {"context", "headers", "http_request_concurrency",
                                                                    "http_request_retries"});
    auto base = kvstore.FindMember("base_url");
    if (base == kvstore.MemberEnd()) invalid("'" + where + ".base_url' is required for the http driver");
    return path::join_url(get_text(base->value, where + ".base_url"), path);
  }
  if (driver == "s3") {
    check_members(kvstore, where, {"driver", "path", "bucket"},
                  {"context", "endpoint", "host_header", "aws_region", "requester_pays", "aws_credentials",
                   "s3_request_concurrency", "s3_request_retries", "experimental_s3_rate_limiter"});
    auto bucket = kvstore.FindMember("bucket");
    if (bucket == kvstore.MemberEnd()) invalid("'" + where + ".bucket' is required for the s3 driver");
    return path::join_url("s3://" + get_text(bucket->value, where + ".bucket"), path);
  }
  unsupported("'" + where + ".driver' \"" + driver + "\" is not a store libzarr has (file, memory, zip, http, s3)");
}

std::string kvstore_url(const Value& kvstore, const std::string& where) {
  if (kvstore.IsString()) {
    std::string url = get_text(kvstore, where);
    if (url.empty()) invalid("'" + where + "' is an empty URL");
    return url;
  }
  if (kvstore.IsObject()) return kvstore_object_url(kvstore, where);
  invalid("'" + where + "' must be a URL string or a kvstore object, got " + text(kvstore));
}

// TensorStore's memory kvstore without a path is a fresh store of its own;
// libzarr's memory stores are shared by name, so such a store gets a name
// nobody else uses.
std::string name_anonymous_memory_store(const std::string& url) {
  if (url != "memory://") return url;
  static std::atomic<uint64_t> counter{0};
  return "memory://zarr-spec-anonymous-" + std::to_string(counter.fetch_add(1));
}

}  // namespace

// kvstore joined with path, in libzarr's URL syntax.
std::string parse_location(const Value& doc) {
  auto kvstore = doc.FindMember("kvstore");
  if (kvstore == doc.MemberEnd()) invalid("member 'kvstore' is required");
  std::string url = kvstore_url(kvstore->value, "kvstore");
  auto path = doc.FindMember("path");
  if (path != doc.MemberEnd()) url = path::join_url(url, checked_path(path->value, "path"));
  return name_anonymous_memory_store(url);
}

}  // namespace zarr::spec_detail
