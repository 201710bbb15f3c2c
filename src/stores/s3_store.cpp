#include "stores/s3_store.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <cstdlib>
#include <ctime>

#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "base/scrub.h"
#include "base/text.h"
#include "stores/aws_config.h"
#include "stores/http_range.h"
#include "stores/key_rules.h"
#include "stores/remote_options.h"
#include "stores/s3_xml.h"
#include "stores/sha256.h"
#include "stores/store_request.h"
#include "stores/uri_encode.h"

namespace zarr {

namespace {

// DELETE requests handed to the client at once by erase_prefix.
constexpr size_t kDeleteBatch = 1000;

struct Endpoint {
  std::string scheme;     // "http" or "https"
  std::string authority;  // "host[:port]"
  std::string path;       // "" or "/gateway/path", no trailing '/'
};

Endpoint parse_endpoint(const std::string& url) {
  auto bad = [&](const std::string& why) {
    fail(ZARR_ERR_INVALID_ARGUMENT, scrub_secrets("S3 endpoint '" + scrubbed_url(url) + "': " + why, url_secrets(url)));
  };
  Endpoint out;
  size_t scheme_end = url.find("://");
  out.scheme = scheme_end == std::string::npos ? "" : url.substr(0, scheme_end);
  if (out.scheme != "http" && out.scheme != "https") bad("expected http://HOST[:PORT] or https://HOST[:PORT]");
  if (url.find_first_of("?# \t\r\n") != std::string::npos) bad("no query, fragment or spaces allowed");
  size_t path_start = url.find('/', scheme_end + 3);
  out.authority = url.substr(scheme_end + 3, path_start - (scheme_end + 3));
  if (out.authority.empty()) bad("no host");
  if (path_start != std::string::npos) out.path = url.substr(path_start);
  while (!out.path.empty() && out.path.back() == '/') out.path.pop_back();
  return out;
}

bool is_valid_region(const std::string& region) {
  return !region.empty() && region.size() <= 64 &&
         region.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

std::string attempts_text(const HttpResponse& response) {
  return response.attempts > 1 ? " after " + std::to_string(response.attempts) + " attempts" : "";
}

void sort_unique(std::vector<std::string>& names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
}

std::string query_string(const aws::NameValues& query) {
  std::string out;
  for (const auto& [name, value] : query) {
    out += (out.empty() ? "?" : "&") + uri_encode(name, false) + "=" + uri_encode(value, false);
  }
  return out;
}

// Where a request goes: its host and its encoded path.
struct Target {
  std::string host;
  std::string encoded_path;
};

class S3Store final : public Store {
 public:
  explicit S3Store(const S3StoreOptions& options)
      : options_(options), endpoint_(endpoint_of(options)), client_(client_options(options)) {}

  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    return std::move(get_many({key}, max_size).front());
  }

  bool fetches_concurrently() const override { return true; }
  void get_each(const std::vector<std::string>& keys, uint64_t max_size, const ValueArrived& arrived) const override {
    std::vector<HttpRequest> requests;
    for (const std::string& key : keys) requests.push_back(object_request("GET", key, {}, {}, max_size));
    client_.perform_each(requests, [&](size_t i, HttpResponse response) {
      if (means_absent(response)) {
        arrived(i, std::nullopt);
      } else if (response.status == 200 && !response.too_large) {
        arrived(i, std::move(response.body));
      } else {
        fail_response(requests[i], response, keys[i]);
      }
    });
  }

  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    return get_range_versioned(key, range).bytes;
  }

  VersionedBytes get_range_versioned(const std::string& key, const ByteRange& range) const override {
    if (is_empty_range(range)) return {exists(key) ? std::optional<Bytes>(Bytes{}) : std::nullopt, {}};
    RangedGet how;
    how.request = [&](const ByteRange& r) {
      return object_request("GET", key, {{"range", range_value(r)}}, {}, range_body_limit(r, value_limit()));
    };
    how.is_absent = [this](const HttpResponse& response) { return means_absent(response); };
    how.describe = [this](const HttpRequest& r) { return describe_request(r); };
    how.fail = [&](const HttpRequest& r, const HttpResponse& response) { fail_response(r, response, key); };
    return fetch_range(client_, range, how);
  }

  bool exists(const std::string& key) const override { return head(key).has_value(); }

  // HeadObject's Content-Length: the object is not fetched.
  std::optional<uint64_t> value_size(const std::string& key) const override {
    std::optional<HttpResponse> response = head(key);
    if (!response) return std::nullopt;
    return announced_size(*response).value_or(0);
  }

  void set(const std::string& key, ByteView value) override {
    keys::check_key(key);
    if (options_.read_only) keys::fail_read_only(describe(), "set", key);
    HttpRequest put = object_request("PUT", key, {{"content-type", "application/octet-stream"}}, value);
    HttpResponse response = client_.perform(put);
    if (response.too_large || response.status != 200) fail_response(put, response);
  }

  void erase(const std::string& key) override {
    keys::check_key(key);
    if (options_.read_only) keys::fail_read_only(describe(), "erase", key);
    delete_objects({options_.prefix + key});
  }

  void erase_prefix(const std::string& prefix) override {
    keys::check_prefix(prefix);
    if (options_.read_only) keys::fail_read_only(describe(), "erase prefix", prefix);
    std::vector<std::string> objects;
    for_each_page(options_.prefix + prefix, false, [&](s3xml::ListPage& page) {
      for (std::string& object : page.keys) objects.push_back(std::move(object));
    });
    delete_objects(objects);
  }

  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    keys::check_prefix(prefix);
    std::vector<std::string> out;
    for_each_page(options_.prefix + prefix, false, [&](const s3xml::ListPage& page) {
      for (const std::string& object : page.keys) {
        std::string key = object.substr(options_.prefix.size());
        if (keys::is_valid_key(key)) out.push_back(std::move(key));
      }
    });
    std::sort(out.begin(), out.end());
    return out;
  }

  DirListing list_dir(const std::string& prefix) const override {
    const std::string dir = keys::dir_prefix(prefix);
    const std::string listed = options_.prefix + dir;
    DirListing out;
    for_each_page(listed, true, [&](const s3xml::ListPage& page) {
      for (const std::string& object : page.keys) {
        std::string name = object.substr(listed.size());
        if (keys::is_valid_key(dir + name) && name.find('/') == std::string::npos) out.keys.push_back(name);
      }
      for (const std::string& common : page.prefixes) {
        std::string name = common.substr(listed.size());
        if (!name.empty() && name.back() == '/') name.pop_back();
        if (!name.empty() && name.find('/') == std::string::npos) out.prefixes.push_back(name);
      }
    });
    sort_unique(out.keys);
    sort_unique(out.prefixes);  // servers may repeat a common prefix on later pages
    return out;
  }

  bool writable() const override { return !options_.read_only; }
  // The prefix one folder up ("a/b/" -> "a/", name "b"), same bucket,
  // endpoint and credentials; none at the bucket's root.
  std::optional<Above> store_above() const override {
    if (options_.prefix.empty()) return std::nullopt;
    const std::string folder = options_.prefix.substr(0, options_.prefix.size() - 1);
    const size_t slash = folder.rfind('/');
    S3StoreOptions up = options_;
    up.prefix = slash == std::string::npos ? "" : folder.substr(0, slash + 1);
    return Above{std::make_shared<S3Store>(up), slash == std::string::npos ? folder : folder.substr(slash + 1)};
  }
  std::string describe() const override {
    std::string prefix = options_.prefix.empty() ? "" : "/" + options_.prefix.substr(0, options_.prefix.size() - 1);
    return client_.scrub("s3://" + options_.bucket + prefix +
                         (options_.endpoint.empty() ? "" : " (endpoint " + options_.endpoint + ")"));
  }

 private:
  // The credentials are the client's secrets: no message shows them.
  static HttpClientOptions client_options(const S3StoreOptions& options) {
    HttpClientOptions client = options.client;
    for (const std::string* secret : {&options.credentials.access_key_id, &options.credentials.secret_access_key,
                                      &options.credentials.session_token}) {
      if (!secret->empty()) client.secrets.push_back(*secret);
    }
    return client;
  }

  static Endpoint endpoint_of(const S3StoreOptions& options) {
    if (std::string problem = bucket_name_problem(options.bucket); !problem.empty()) {
      // Quoted as a scrubbed URL shows it: "KEY:SECRET@bucket" hides its userinfo.
      fail(ZARR_ERR_INVALID_ARGUMENT,
           "S3 bucket name " + json::quote(scrubbed_url("s3://" + options.bucket).substr(5)) + ": " + problem);
    }
    if (!is_valid_region(options.region)) {
      fail(ZARR_ERR_INVALID_ARGUMENT,
           "S3 region '" + options.region + "': expected lower-case letters, digits and '-'");
    }
    if (!options.endpoint.empty()) return parse_endpoint(options.endpoint);
    return Endpoint{"https", "s3." + options.region + ".amazonaws.com", ""};
  }

  // Objects by their full name in the bucket; "" for the bucket itself.
  Target target(const std::string& object) const {
    if (options_.virtual_host) {
      return {options_.bucket + "." + endpoint_.authority, endpoint_.path + "/" + uri_encode(object, true)};
    }
    std::string path = endpoint_.path + "/" + options_.bucket;
    return {endpoint_.authority, object.empty() ? path : path + "/" + uri_encode(object, true)};
  }

  // A request signed for the current time (unsigned for anonymous stores).
  HttpRequest make_request(const std::string& method, const Target& where, const aws::NameValues& query,
                           const aws::NameValues& headers, ByteView body) const {
    aws::SignedRequest signing;
    signing.method = method;
    signing.encoded_path = where.encoded_path;
    signing.query = query;
    signing.headers = headers;
    signing.headers.emplace_back("host", where.host);
    signing.payload_sha256 = crypto::to_hex(crypto::sha256(body));
    if (options_.anonymous) {
      signing.headers.emplace_back("x-amz-content-sha256", signing.payload_sha256);
    } else {
      aws::sign(signing, options_.credentials, options_.region, std::time(nullptr));
    }
    HttpRequest out;
    out.method = method;
    out.url = endpoint_.scheme + "://" + where.host + where.encoded_path + query_string(query);
    for (const auto& [name, value] : signing.headers) out.headers.push_back(name + ": " + value);
    out.body = body;
    return out;
  }

  HttpRequest object_request(const std::string& method, const std::string& key, const aws::NameValues& headers = {},
                             ByteView body = {}, uint64_t max_body = kMaxAnswerBytes) const {
    keys::check_key(key);
    HttpRequest request = make_request(method, target(options_.prefix + key), {}, headers, body);
    request.max_body = max_body;
    return request;
  }

  // The answer to HeadObject; nullopt when the object is absent.
  std::optional<HttpResponse> head(const std::string& key) const {
    HttpRequest request = object_request("HEAD", key);
    HttpResponse response = client_.perform(request);
    if (means_absent(response)) return std::nullopt;
    if (response.status != 200) fail_response(request, response);
    return response;
  }

  static std::string range_value(const ByteRange& range) {
    return range_header(range).substr(std::string("Range: ").size());
  }

  std::string object_name(const HttpRequest& request) const {
    std::string path = request.url.substr(0, request.url.find('?'));
    std::string marker = options_.virtual_host ? endpoint_.path + "/" : endpoint_.path + "/" + options_.bucket + "/";
    size_t at = path.find(marker, path.find("://") + 3);
    return at == std::string::npos ? "" : path.substr(at + marker.size());
  }

  // "S3 GET s3://bucket/prefix/key" (the object name still URI-encoded).
  std::string describe_request(const HttpRequest& request) const {
    std::string object = object_name(request);
    return client_.scrub("S3 " + request.method + " s3://" + options_.bucket + (object.empty() ? "" : "/" + object) +
                         (options_.endpoint.empty() ? "" : " (endpoint " + options_.endpoint + ")"));
  }

  bool means_absent(const HttpResponse& response) const {
    if (response.status == 404) return s3xml::parse_error(ByteView(response.body).to_string()).code != "NoSuchBucket";
    if (response.status == 403 && options_.anonymous) {
      std::string code = s3xml::parse_error(ByteView(response.body).to_string()).code;
      return code.empty() || code == "AccessDenied";
    }
    return false;
  }

  // `key`: the store key the request reads, for a value over its limit.
  [[noreturn]] void fail_response(const HttpRequest& request, const HttpResponse& response,
                                  const std::string& key = "") const {
    const bool success = response.status / 100 == 2;
    if (response.too_large && success && !key.empty()) {
      fail_too_large(describe(), key, request.max_body, response.announced_size);
    }
    if (response.too_large) {
      fail(ZARR_ERR_IO, describe_request(request) + ": the answer (status " + std::to_string(response.status) +
                            ") is larger than its limit of " +
                            std::to_string(success ? request.max_body : kMaxAnswerBytes) + " bytes");
    }
    // What the server says may quote what it was sent: scrubbed.
    s3xml::ErrorInfo error = s3xml::parse_error(ByteView(response.body).to_string());
    std::string detail = error.code.empty() ? "" : " " + client_.scrub(error.code);
    if (!error.message.empty()) detail += ": " + client_.scrub(error.message);
    std::string status = "status " + std::to_string(response.status) + detail + attempts_text(response);
    if (error.code == "NoSuchBucket") {
      fail(ZARR_ERR_NOT_FOUND,
           describe_request(request) + ": bucket '" + options_.bucket + "' does not exist (" + status + ")");
    }
    if (response.status == 403) {
      fail(ZARR_ERR_IO, describe_request(request) + ": permission denied (" + status + "); check the credentials " +
                            "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or the store options) and the bucket's policy");
    }
    fail(ZARR_ERR_IO, describe_request(request) + ": " + status);
  }

  // Every page of ListObjectsV2 for objects starting with `object_prefix`,
  // grouped by '/' after it when `delimited`. A server that never ends the
  // listing (more than max_list_pages pages or max_list_entries keys and
  // common prefixes, or a continuation token that comes back) is
  // ZARR_ERR_IO: what a listing holds stays bounded (tokens are remembered
  // by their SHA-256, whatever their length).
  template <typename Visit>
  void for_each_page(const std::string& object_prefix, bool delimited, Visit visit) const {
    std::string token;
    std::set<crypto::Sha256Digest> tokens_seen;
    uint64_t entries = 0;
    for (int64_t pages = 1;; ++pages) {
      aws::NameValues query = {{"list-type", "2"},
                               {"max-keys", std::to_string(options_.list_page_size)},
                               {"prefix", object_prefix}};
      if (delimited) query.emplace_back("delimiter", "/");
      if (!token.empty()) query.emplace_back("continuation-token", token);
      HttpRequest list = make_request("GET", target(""), query, {}, {});
      HttpResponse response = client_.perform(list);
      if (response.too_large || response.status != 200) fail_response(list, response);
      const std::string what = describe_request(list) + " (ListObjectsV2, prefix '" + object_prefix + "')";
      s3xml::ListPage page = s3xml::parse_list_page(ByteView(response.body).to_string(), what);
      for (const std::string& listed : page.keys) check_listed(listed, object_prefix, what);
      for (const std::string& listed : page.prefixes) check_listed(listed, object_prefix, what);
      entries += page.keys.size() + page.prefixes.size();
      if (entries > options_.max_list_entries) {
        fail(ZARR_ERR_IO, what + ": the listing goes on past " + std::to_string(options_.max_list_entries) +
                              " keys and prefixes (store option \"max_list_entries\")");
      }
      visit(page);
      if (!page.truncated) return;
      if (page.next_token.empty() || !tokens_seen.insert(token_digest(page.next_token)).second) {
        fail(ZARR_ERR_IO, what + ": a truncated listing without a new continuation token (page " +
                              std::to_string(pages) + " repeats an earlier token or gives none)");
      }
      if (pages >= options_.max_list_pages) {
        fail(ZARR_ERR_IO, what + ": the listing goes on past " + std::to_string(options_.max_list_pages) +
                              " pages (store option \"max_list_pages\")");
      }
      token = page.next_token;
    }
  }

  static crypto::Sha256Digest token_digest(const std::string& token) {
    return crypto::sha256(ByteView(reinterpret_cast<const uint8_t*>(token.data()), token.size()));
  }

  // A listed key or prefix: at most the 1024 bytes S3 allows a key (so
  // max_list_entries bounds what a listing holds to about 1 GiB, whatever
  // a hostile server sends), and below the listing's prefix.
  static void check_listed(const std::string& listed, const std::string& object_prefix, const std::string& what) {
    constexpr size_t kMaxKeyBytes = 1024;
    if (listed.size() > kMaxKeyBytes) {
      fail(ZARR_ERR_IO, what + ": the server listed a key of " + std::to_string(listed.size()) +
                            " bytes; S3 keys have at most " + std::to_string(kMaxKeyBytes));
    }
    if (listed.compare(0, object_prefix.size(), object_prefix) != 0) {
      fail(ZARR_ERR_IO, what + ": the server listed '" + listed + "', which is outside the prefix");
    }
  }

  void delete_objects(const std::vector<std::string>& objects) const {
    for (size_t first = 0; first < objects.size(); first += kDeleteBatch) {
      std::vector<HttpRequest> requests;
      for (size_t i = first; i < std::min(objects.size(), first + kDeleteBatch); ++i) {
        requests.push_back(make_request("DELETE", target(objects[i]), {}, {}, {}));
      }
      std::vector<HttpResponse> responses = client_.perform(requests);
      for (size_t i = 0; i < requests.size(); ++i) {
        long status = responses[i].status;
        const bool done = !responses[i].too_large && (status == 204 || status == 200 || means_absent(responses[i]));
        if (!done) fail_response(requests[i], responses[i]);
      }
    }
  }

  S3StoreOptions options_;
  Endpoint endpoint_;
  HttpClient client_;
};

const char* getenv_nonempty(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

// Option first, then the first environment variable set, then the profile's
// config settings (the AWS CLI's order), then the fallback.
std::string setting(const StoreRequest& request, const char* option, std::initializer_list<const char*> variables,
                    const aws::Profile& profile, std::initializer_list<const char*> profile_keys,
                    const std::string& fallback = "") {
  if (std::optional<std::string> value = request.string_option(option)) return *value;
  for (const char* variable : variables) {
    if (const char* value = getenv_nonempty(variable)) return value;
  }
  for (const char* key : profile_keys) {
    if (std::string value = aws::profile_setting(profile, key); !value.empty()) return value;
  }
  return fallback;
}

// Credentials come whole from the options, else whole from the environment,
// else from the profile's shared files: never a key from one and a secret or
// token from another.
aws::Credentials read_credentials(const StoreRequest& request, const aws::Profile& profile) {
  std::optional<std::string> key = request.string_option("access_key_id");
  std::optional<std::string> secret = request.string_option("secret_access_key");
  std::optional<std::string> token = request.string_option("session_token");
  if (key || secret || token) {
    if (!key || !secret) {
      request.fail_url("store options 'access_key_id' and 'secret_access_key' go together");
    }
    return {*key, *secret, token.value_or("")};
  }
  const char* env_key = getenv_nonempty("AWS_ACCESS_KEY_ID");
  const char* env_secret = getenv_nonempty("AWS_SECRET_ACCESS_KEY");
  if (env_key && env_secret) {
    const char* env_token = getenv_nonempty("AWS_SESSION_TOKEN");
    return {env_key, env_secret, env_token ? env_token : ""};
  }
  if (std::optional<aws::StaticCredentials> shared = aws::profile_credentials(profile)) {
    return {shared->access_key_id, shared->secret_access_key, shared->session_token};
  }
  request.fail_url("no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give AWS profile '" +
                   profile.name + "' keys in ~/.aws/credentials (AWS_PROFILE picks another), or the store options " +
                   "'access_key_id' and 'secret_access_key', or \"anonymous\": true (AWS_NO_SIGN_REQUEST=true) " +
                   "for a public bucket");
}

// The store option "anonymous", else AWS_NO_SIGN_REQUEST (as GDAL reads it:
// YES/TRUE/1 or NO/FALSE/0, any case).
bool read_anonymous(const StoreRequest& request) {
  if (std::optional<bool> anonymous = request.bool_option("anonymous")) return *anonymous;
  const char* variable = getenv_nonempty("AWS_NO_SIGN_REQUEST");
  if (!variable) return false;
  std::string value = variable;
  for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (value == "yes" || value == "true" || value == "1") return true;
  if (value == "no" || value == "false" || value == "0") return false;
  fail(ZARR_ERR_INVALID_ARGUMENT, "AWS_NO_SIGN_REQUEST must be YES, TRUE or 1 (or NO, FALSE, 0), got \"" +
                                      value.substr(0, 32) + "\"");
}

bool read_virtual_host(const StoreRequest& request, bool has_endpoint, const aws::Profile& profile) {
  std::optional<std::string> addressing = request.string_option("addressing");
  const std::string style = aws::profile_setting(profile, "s3.addressing_style");  // path, virtual or auto
  if (!addressing && (style == "path" || style == "virtual")) addressing = style;
  if (!addressing) return !has_endpoint;  // AWS: virtual hosts; other servers (MinIO, s3rver): paths
  if (*addressing != "path" && *addressing != "virtual") {
    fail(ZARR_ERR_INVALID_ARGUMENT, "options: store option 'addressing' must be \"path\" or \"virtual\", got \"" +
                                        *addressing + "\"");
  }
  return *addressing == "virtual";
}

}  // namespace

namespace {

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// "192.168.5.4": four dot-separated runs of digits.
bool looks_like_ipv4(const std::string& name) {
  int parts = 0;
  for (size_t begin = 0; begin <= name.size(); ++parts) {
    const size_t dot = std::min(name.find('.', begin), name.size());
    if (dot == begin || name.find_first_not_of("0123456789", begin) < dot) return false;
    begin = dot + 1;
  }
  return parts == 4;
}

}  // namespace

std::string bucket_name_problem(const std::string& bucket) {
  if (bucket.size() < 3 || bucket.size() > 63) return "bucket names are 3 to 63 characters long";
  if (bucket.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-") != std::string::npos) {
    return "bucket names hold only lower-case letters, digits, '.' and '-'";
  }
  if (!is_lower_alnum(bucket.front()) || !is_lower_alnum(bucket.back())) {
    return "bucket names start and end with a letter or a digit";
  }
  if (bucket.find("..") != std::string::npos) return "bucket names hold no \"..\"";
  if (looks_like_ipv4(bucket)) return "bucket names are not IP addresses";
  for (const char* prefix : {"xn--", "sthree-", "amzn-s3-demo-"}) {
    if (bucket.rfind(prefix, 0) == 0) return std::string("bucket names do not start with \"") + prefix + "\"";
  }
  for (const char* suffix : {"-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"}) {
    if (ends_with(bucket, suffix)) return std::string("bucket names do not end with \"") + suffix + "\"";
  }
  return "";
}

std::shared_ptr<Store> make_s3_store(const S3StoreOptions& options) { return std::make_shared<S3Store>(options); }

NodeLocation open_s3_store(const StoreRequest& request) {
  request.allow_only("s3", {"endpoint", "region", "access_key_id", "secret_access_key", "session_token", "anonymous",
                            "profile", "addressing", "timeout_ms", "connect_timeout_ms", "max_concurrency", "max_retries",
                            "max_list_pages", "max_list_entries"});
  const std::string& location = request.location;  // "bucket/prefix"
  size_t slash = location.find('/');
  S3StoreOptions options;
  options.bucket = location.substr(0, slash);
  if (std::string problem = bucket_name_problem(options.bucket); !problem.empty()) {
    // The bucket is the URL's authority: quoted as messages show a URL
    // (userinfo given as "KEY:SECRET@bucket" hidden).
    const std::string shown_bucket = scrubbed_url("s3://" + options.bucket).substr(5);
    request.fail_url("expected s3://BUCKET[/PREFIX]; bucket " + json::quote(shown_bucket) + ": " + problem +
                     " (AWS's naming rules)");
  }
  options.max_list_pages = request.int_option("max_list_pages", 1, INT64_MAX).value_or(options.max_list_pages);
  options.max_list_entries = static_cast<uint64_t>(
      request.int_option("max_list_entries", 1, INT64_MAX).value_or(static_cast<int64_t>(options.max_list_entries)));
  // The URL names the node, which is the store's root: its keys live under the prefix.
  std::string prefix = slash == std::string::npos ? "" : path::normalize(location.substr(slash + 1));
  options.prefix = prefix.empty() ? "" : prefix + "/";
  const aws::Profile profile = aws::read_profile(request.string_option("profile").value_or(""));
  options.region = setting(request, "region", {"AWS_REGION", "AWS_DEFAULT_REGION"}, profile, {"region"}, "us-east-1");
  options.endpoint = setting(request, "endpoint", {"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"}, profile,
                             {"s3.endpoint_url", "endpoint_url"});
  options.virtual_host = read_virtual_host(request, !options.endpoint.empty(), profile);
  options.anonymous = read_anonymous(request);
  if (options.anonymous && (request.string_option("access_key_id") || request.string_option("secret_access_key") ||
                            request.string_option("session_token"))) {
    request.fail_url("store option 'anonymous' sends unsigned requests: give it or credentials, not both");
  }
  if (!options.anonymous) options.credentials = read_credentials(request, profile);
  options.read_only = !request.writes();
  options.client = read_client_options(request);
  return {make_s3_store(options), ""};
}

}  // namespace zarr
