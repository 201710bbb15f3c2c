#include "stores/url.h"

#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "base/plugin_hook.h"
#include "base/scrub.h"
#include "stores/filesystem_store.h"
#include "stores/http_store.h"
#include "stores/memory_store.h"
#include "stores/plugin_store.h"
#include "stores/s3_store.h"
#include "stores/zip_store.h"

namespace zarr {

namespace {

// ---- parsing ------------------------------------------------------------------

std::string percent_decode(const StoreRequest& request, const std::string& s) {
  std::optional<std::string> decoded = path::percent_decode(s);
  if (!decoded) request.fail_url("bad percent escape");
  return *decoded;
}

// RFC 3986 scheme names, lower case only: "s3", "file", "http".
bool is_scheme_name(const std::string& s) {
  if (s.empty() || s[0] < 'a' || s[0] > 'z') return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

// TensorStore's URL pipeline, "BASE|zip:PATH_IN_ZIP". Only a '|' followed by
// a scheme name and ':' starts an adapter, so a path with a plain '|' in it
// ("/runs/a|b") stays a path.
struct Pipeline {
  std::string base;
  bool zip = false;
  std::string path_in_zip;  // taken literally
};

Pipeline split_pipeline(const std::string& url) {
  for (size_t bar = url.find('|'); bar != std::string::npos; bar = url.find('|', bar + 1)) {
    size_t colon = url.find(':', bar + 1);
    if (colon == std::string::npos) break;
    std::string adapter = url.substr(bar + 1, colon - bar - 1);
    if (!is_scheme_name(adapter)) continue;
    if (adapter != "zip") {
      fail(ZARR_ERR_INVALID_ARGUMENT, scrub_secrets("URL '" + scrubbed_url(url) + "': unknown adapter '" + adapter +
                                                    ":' (known: zip:)", url_secrets(url)));
    }
    return {url.substr(0, bar), true, url.substr(colon + 1)};
  }
  return {url, false, ""};
}

// The store part of a URL (before any "|zip:").
StoreRequest parse_base(const std::string& url, const std::string& base, StoreAccess access,
                        const rapidjson::Value* options) {
  StoreRequest request;
  request.url = url;
  request.access = access;
  request.options = options;
  if (base.empty()) request.fail_url("no path or URL before '|zip:'");
  size_t sep = base.find("://");
  if (sep == std::string::npos) {
    request.scheme = "file";
    request.location = base;
    return request;
  }
  request.scheme = base.substr(0, sep);
  if (!is_scheme_name(request.scheme)) request.fail_url("malformed scheme '" + request.scheme + "'");
  request.location = base.substr(sep + 3);
  if (request.scheme == "file") {
    if (request.location.empty() || request.location[0] != '/') {
      request.fail_url("file URLs need an absolute path (file:///path)");
    }
    request.location = percent_decode(request, request.location);
  }
  return request;
}

// ---- the schemes ----------------------------------------------------------------------

using StoreFactory = NodeLocation (*)(const StoreRequest&);

struct Scheme {
  const char* name;
  StoreFactory open;
};

// One line per URL scheme; plain paths are "file". Each factory, declared in
// its store's header, parses its own store options.
constexpr Scheme kSchemes[] = {
    {"file", open_filesystem_url},
    {"memory", open_memory_url},
    {"http", open_http_store},
    {"https", open_http_store},
    {"s3", open_s3_store},
};

}  // namespace

OpenOptions parse_open_options(const char* options_json) {
  OpenOptions out;
  if (!options_json || !*options_json) {
    out.document.SetObject();
    return out;
  }
  out.document = json::parse(options_json, "options");
  if (!out.document.IsObject()) fail(ZARR_ERR_INVALID_ARGUMENT, "options: expected a JSON object");
  auto store = out.document.FindMember("store");
  if (store != out.document.MemberEnd()) {
    if (!store->value.IsObject()) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'store' must be a JSON object of store options");
    }
    out.store = &store->value;
  }
  return out;
}

NodeLocation resolve_url(const std::string& url, StoreAccess access, const rapidjson::Value* store_options) {
  if (url.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "URL is empty");
  if (url.find('\0') != std::string::npos) fail(ZARR_ERR_INVALID_ARGUMENT, "URL contains a NUL byte");
  Pipeline pipeline = split_pipeline(url);
  StoreRequest base = parse_base(url, pipeline.base, access, store_options);
  const std::optional<uint64_t> value_limit = base.value_limit_option();  // checked before any store opens
  auto limited = [&value_limit](NodeLocation location) {
    if (value_limit) location.store->set_value_limit(*value_limit);
    return location;
  };
  for (const Scheme& scheme : kSchemes) {
    if (base.scheme != scheme.name) continue;
    return limited(pipeline.zip ? open_zip_url(base, pipeline.path_in_zip) : scheme.open(base));
  }
  // A scheme a program registered, or one a plugin library of
  // ZARR_PLUGIN_PATH registers when it is first met.
  std::string plugin_failures;
  if (!plugin_store_registered(base.scheme)) plugin_failures = load_new_plugins();
  if (plugin_store_registered(base.scheme)) {
    if (pipeline.zip) {
      fail(ZARR_ERR_UNSUPPORTED, base.shown("zip archives are read from local files only, not over " + base.scheme));
    }
    return limited(open_plugin_store(base));
  }
  std::string known;
  for (const std::string& name : reserved_url_schemes()) known += (known.empty() ? "" : ", ") + name;
  for (const std::string& name : plugin_store_schemes()) known += ", " + name;
  base.fail_url("unknown scheme '" + base.scheme + "' (known: " + known + ")" +
                (plugin_failures.empty() ? "" : " (plugins that failed to load: " + plugin_failures + ")"));
}

std::vector<std::string> reserved_url_schemes() {
  std::vector<std::string> names;
  for (const Scheme& scheme : kSchemes) names.push_back(scheme.name);
  names.push_back("zip");  // the pipeline adapter: "ARCHIVE|zip:path"
  return names;
}

void register_url_store(const zarr_store_vtable* vtable) { register_plugin_store(vtable, reserved_url_schemes()); }

}  // namespace zarr
