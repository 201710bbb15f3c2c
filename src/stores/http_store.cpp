#include "stores/http_store.h"

#include "base/error.h"
#include "base/json.h"
#include "base/scrub.h"
#include "stores/http_range.h"
#include "stores/key_rules.h"
#include "stores/remote_options.h"
#include "stores/store_request.h"
#include "stores/uri_encode.h"

namespace zarr {

namespace {

// A base URL split so that keys go between its path and its query.
struct BaseUrl {
  std::string root;   // "http://host:port/path", no trailing '/'
  std::string query;  // after '?', or empty
};

[[noreturn]] void fail_base(const std::string& url, const std::string& why) {
  fail(ZARR_ERR_INVALID_ARGUMENT, scrub_secrets("HTTP store URL '" + scrubbed_url(url) + "': " + why, url_secrets(url)));
}

BaseUrl parse_base_url(const std::string& url) {
  size_t scheme_end = url.find("://");
  std::string scheme = scheme_end == std::string::npos ? "" : url.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https") fail_base(url, "expected http:// or https://");
  for (unsigned char c : url) {
    if (c <= ' ' || c == 0x7f) fail_base(url, "spaces and control characters must be percent-encoded");
  }
  if (url.find('#') != std::string::npos) fail_base(url, "a fragment ('#') names no store location");
  size_t query_start = url.find('?');
  BaseUrl base;
  base.root = url.substr(0, query_start);
  if (query_start != std::string::npos) base.query = url.substr(query_start + 1);
  size_t host_start = scheme_end + 3;
  size_t path_start = base.root.find('/', host_start);
  if (base.root.substr(host_start, path_start - host_start).empty()) fail_base(url, "no host");
  while (base.root.size() > host_start && base.root.back() == '/') base.root.pop_back();
  return base;
}

bool is_absent_status(long status) { return status == 404 || status == 403; }

std::string attempts_text(const HttpResponse& response) {
  return response.attempts > 1 ? " after " + std::to_string(response.attempts) + " attempts" : "";
}

class HttpStore final : public Store {
 public:
  HttpStore(BaseUrl base, HttpStoreOptions options)
      : base_(std::move(base)),
        headers_(std::move(options.headers)),
        client_(client_options(options, headers_, base_)) {}

  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    return std::move(get_many({key}, max_size).front());
  }

  bool fetches_concurrently() const override { return true; }
  void get_each(const std::vector<std::string>& keys, uint64_t max_size, const ValueArrived& arrived) const override {
    std::vector<HttpRequest> requests;
    for (const std::string& key : keys) requests.push_back(request("GET", key, max_size));
    client_.perform_each(requests, [&](size_t i, HttpResponse response) {
      arrived(i, whole_value(keys[i], requests[i], response));
    });
  }

  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    return get_range_versioned(key, range).bytes;
  }

  VersionedBytes get_range_versioned(const std::string& key, const ByteRange& range) const override {
    if (is_empty_range(range)) return {exists(key) ? std::optional<Bytes>(Bytes{}) : std::nullopt, {}};
    RangedGet how;
    how.request = [&](const ByteRange& r) {
      return request("GET", key, range_body_limit(r, value_limit()), range_header(r));
    };
    how.is_absent = [](const HttpResponse& response) { return is_absent_status(response.status); };
    how.describe = [this](const HttpRequest& r) { return describe_request(r); };
    how.fail = [&](const HttpRequest& r, const HttpResponse& response) { fail_status(key, r, response); };
    return fetch_range(client_, range, how);
  }

  bool exists(const std::string& key) const override { return head(key).has_value(); }

  // The Content-Length of a HEAD: the value is not fetched.
  std::optional<uint64_t> value_size(const std::string& key) const override {
    std::optional<HttpResponse> response = head(key);
    if (!response) return std::nullopt;
    return announced_size(*response).value_or(0);
  }

  void set(const std::string& key, ByteView) override { keys::fail_read_only(describe(), "set", key); }
  void erase(const std::string& key) override { keys::fail_read_only(describe(), "erase", key); }
  void erase_prefix(const std::string& prefix) override { keys::fail_read_only(describe(), "erase prefix", prefix); }

  std::vector<std::string> list_prefix(const std::string& prefix) const override { fail_listing(prefix); }
  DirListing list_dir(const std::string& prefix) const override { fail_listing(prefix); }

  bool writable() const override { return false; }
  bool listable() const override { return false; }
  // The URL's userinfo and query may hold secrets: messages leave them out
  // (the URL as the store parsed it, shown from its parts).
  std::string describe() const override {
    return client_.scrub(scrubbed_url(base_.root + (base_.query.empty() ? "" : "?" + base_.query)));
  }

 private:
  HttpRequest request(const std::string& method, const std::string& key, uint64_t max_body,
                      const std::string& range = "") const {
    keys::check_key(key);
    HttpRequest out;
    out.method = method;
    out.url = base_.root + "/" + uri_encode(key, true) + (base_.query.empty() ? "" : "?" + base_.query);
    out.headers = headers_;
    out.max_body = max_body;
    if (!range.empty()) out.headers.push_back(range);
    return out;
  }

  // The answer to a HEAD of the key; nullopt when it is absent.
  std::optional<HttpResponse> head(const std::string& key) const {
    HttpRequest request = this->request("HEAD", key, kMaxAnswerBytes);
    HttpResponse response = client_.perform(request);
    if (is_absent_status(response.status)) return std::nullopt;
    if (response.status / 100 != 2) fail_status(key, request, response);
    return response;
  }

  std::string describe_request(const HttpRequest& request) const {
    return client_.scrub("HTTP " + request.method + " " + request.url);
  }

  std::optional<Bytes> whole_value(const std::string& key, const HttpRequest& request, HttpResponse& response) const {
    if (is_absent_status(response.status)) return std::nullopt;
    if (response.too_large || response.status != 200) fail_status(key, request, response);
    return std::move(response.body);
  }

  // An answer over its limit is one too: a value (2xx) naming the key and
  // the limit, anything else naming the status.
  [[noreturn]] void fail_status(const std::string& key, const HttpRequest& request,
                                const HttpResponse& response) const {
    const bool success = response.status / 100 == 2;
    if (response.too_large && success) fail_too_large(describe(), key, request.max_body, response.announced_size);
    fail(ZARR_ERR_IO, describe_request(request) + ": the server answered with status " +
                          std::to_string(response.status) +
                          (response.too_large ? " and more than " + std::to_string(kMaxAnswerBytes) + " bytes" : "") +
                          attempts_text(response));
  }

  [[noreturn]] void fail_listing(const std::string& prefix) const {
    fail(ZARR_ERR_UNSUPPORTED, "cannot list '" + prefix + "' in " + describe() +
                                   ": HTTP servers offer no listing. Open the hierarchy through consolidated "
                                   "metadata (.zmetadata, or consolidated_metadata in zarr.json; "
                                   "zarr_consolidate_metadata writes it), or open its arrays by path");
  }

  // Web servers redirect (a folder to its name with '/', a moved file):
  // the store's policy decides where to. The header values are the
  // client's secrets: no message shows them.
  // The URL's userinfo and query are secrets as well, hidden wherever a
  // message (a transport error) repeats them.
  static HttpClientOptions client_options(const HttpStoreOptions& options, const std::vector<std::string>& headers,
                                          const BaseUrl& base) {
    HttpClientOptions client = options.client;
    client.redirects = options.redirects;
    for (const std::string& header : headers) client.secrets.push_back(trim_value(header));
    for (std::string& part : url_secrets(base.root + (base.query.empty() ? "" : "?" + base.query))) {
      client.secrets.push_back(std::move(part));
    }
    return client;
  }
  static std::string trim_value(const std::string& header) {
    const size_t colon = header.find(':');
    const size_t begin = header.find_first_not_of(' ', colon + 1);
    return begin == std::string::npos ? "" : header.substr(begin);
  }

  BaseUrl base_;
  std::vector<std::string> headers_;
  HttpClient client_;
};

// "headers": {"Name": "value", ...}: names are HTTP tokens, values one line.
std::vector<std::string> read_headers(const StoreRequest& request) {
  std::vector<std::string> out;
  if (!request.options || !request.options->HasMember("headers")) return out;
  const rapidjson::Value& headers = (*request.options)["headers"];
  if (!headers.IsObject()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "options: store option 'headers' must be an object of header names and values");
  }
  for (auto it = headers.MemberBegin(); it != headers.MemberEnd(); ++it) {
    std::string name = json::text(it->name);
    bool good_name = !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789!#$%&'*+-.^_`|~") == std::string::npos;
    if (!good_name) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: store option 'headers': '" + name + "' is not a header name");
    }
    if (!it->value.IsString()) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: store option 'headers': the value of '" + name + "' must be a string");
    }
    std::string value = json::text(it->value);
    if (value.find_first_of("\r\n", 0) != std::string::npos || value.find('\0') != std::string::npos) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: store option 'headers': the value of '" + name +
                                          "' must be one line without NUL bytes");
    }
    out.push_back(name + ": " + value);
  }
  return out;
}

// "redirects": "same_origin" (the default), "any_origin" or "none".
Redirects read_redirects(const StoreRequest& request) {
  const std::string value = request.string_option("redirects").value_or("same_origin");
  if (value == "same_origin") return Redirects::kSameOrigin;
  if (value == "any_origin") return Redirects::kAnyOrigin;
  if (value == "none") return Redirects::kNone;
  fail(ZARR_ERR_INVALID_ARGUMENT, "options: store option 'redirects' must be \"same_origin\", \"any_origin\" or "
                                  "\"none\", got " + json::quote(value));
}

}  // namespace

std::shared_ptr<Store> make_http_store(const std::string& base_url, const HttpStoreOptions& options) {
  return std::make_shared<HttpStore>(parse_base_url(base_url), options);
}

NodeLocation open_http_store(const StoreRequest& request) {
  request.allow_only("http", {"headers", "redirects", "timeout_ms", "connect_timeout_ms", "max_concurrency",
                              "max_retries"});
  if (request.writes()) {
    fail(ZARR_ERR_READ_ONLY, request.shown("HTTP stores are read-only: open with mode \"r\""));
  }
  HttpStoreOptions options;
  options.client = read_client_options(request);
  options.headers = read_headers(request);
  options.redirects = read_redirects(request);
  // The URL names the node, which is the store's root.
  return {make_http_store(request.scheme + "://" + request.location, options), ""};
}

}  // namespace zarr
