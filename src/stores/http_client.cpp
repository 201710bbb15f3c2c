#include "stores/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <random>

#include "base/error.h"
#include "base/scrub.h"
#include "zarr/zarr_version.h"

namespace zarr {

namespace {

using Clock = std::chrono::steady_clock;

constexpr long kMaxBackoffMs = 5000;
constexpr size_t kMaxIdleMultiHandles = 8;
constexpr int kMaxPollMs = 1000;

void init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) fail(ZARR_ERR_IO, "libcurl failed to initialise");
  });
}

std::string trim(const std::string& s) {
  size_t begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Failures without a response that a later attempt may not meet.
bool is_retryable_transport(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

// Exponential backoff with jitter (50-100% of the step), so that many
// clients failing together do not retry together.
long backoff_ms(long first_delay_ms, int retry) {
  long step = first_delay_ms;
  for (int i = 1; i < retry && step < kMaxBackoffMs; ++i) step *= 2;
  step = std::min(step, kMaxBackoffMs);
  thread_local std::minstd_rand random(std::random_device{}());
  return step / 2 + static_cast<long>(random() % static_cast<unsigned long>(step / 2 + 1));
}

// At most this many redirects in a row (as browsers and curl's default).
constexpr int kMaxRedirects = 5;

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// A parsed URL (curl's URL API), freed however the scope is left.
class ParsedUrl {
 public:
  explicit ParsedUrl(const std::string& url) : handle_(curl_url()) {
    if (!handle_) throw std::bad_alloc();
    ok_ = curl_url_set(handle_, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK;
  }
  ~ParsedUrl() { curl_url_cleanup(handle_); }
  ParsedUrl(const ParsedUrl&) = delete;
  ParsedUrl& operator=(const ParsedUrl&) = delete;

  bool ok() const { return ok_; }
  // A part ("" when absent), lower case for scheme and host.
  std::string part(CURLUPart which, unsigned flags = 0) const {
    char* value = nullptr;
    if (!ok_ || curl_url_get(handle_, which, &value, flags) != CURLUE_OK || !value) return "";
    std::string out = value;
    curl_free(value);
    return which == CURLUPART_SCHEME || which == CURLUPART_HOST ? lower(out) : out;
  }
  // Scheme, host and port (the scheme's default port when none is given).
  std::string origin() const {
    return part(CURLUPART_SCHEME) + "://" + part(CURLUPART_HOST) + ":" + part(CURLUPART_PORT, CURLU_DEFAULT_PORT);
  }
  void set(CURLUPart which, const std::string& value) {
    if (curl_url_set(handle_, which, value.empty() ? nullptr : value.c_str(), 0) != CURLUE_OK) ok_ = false;
  }
  std::string url() const { return part(CURLUPART_URL); }

 private:
  CURLU* handle_;
  bool ok_ = false;
};

// One request of a call, with its easy handle, across its attempts and redirects.
struct Transfer {
  const HttpRequest* request = nullptr;
  size_t index = 0;  // of the request in its call
  CURL* easy = nullptr;
  curl_slist* header_list = nullptr;
  HttpResponse response;
  char error[CURL_ERROR_SIZE] = {0};
  Clock::time_point not_before;
  bool in_multi = false;
  std::string url;           // where it goes now: the request's URL, or where redirects led
  int redirects = 0;         // followed so far
  bool left_origin = false;  // a redirect led away from the request's origin
  long answer_status = 0;    // of the response whose headers and body are arriving

  Transfer() = default;
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;
  ~Transfer() {
    if (easy) curl_easy_cleanup(easy);
    curl_slist_free_all(header_list);
  }

  std::string what() const { return request->method + " " + url; }
};

// The body limit of the response arriving: the request's for a success,
// which carries the value; kMaxAnswerBytes for the others (404 pages,
// error documents, redirects), whose bodies are never values.
uint64_t body_limit(const Transfer& t) {
  return t.answer_status / 100 == 2 ? t.request->max_body : kMaxAnswerBytes;
}

// libcurl calls these from inside curl_multi_perform: no exception may pass.
// Returning fewer bytes than given ends the transfer (CURLE_WRITE_ERROR).
size_t on_body(char* data, size_t size, size_t count, void* user) {
  try {
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    Bytes& body = t->response.body;
    if (n > body_limit(*t) - std::min<uint64_t>(body.size(), body_limit(*t))) {
      t->response.too_large = true;
      return 0;
    }
    body.insert(body.end(), data, data + n);
    return n;
  } catch (...) {
    return 0;
  }
}

// A Content-Length header's number (UINT64_MAX when it has more digits).
std::optional<uint64_t> parse_length(const std::string& value) {
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return value.size() > 19 ? UINT64_MAX : std::stoull(value);
}

// A Content-Length above the limit ends the transfer before its body comes.
bool announces_too_much(Transfer& t, const std::string& name, const std::string& value) {
  if (name != "content-length" || t.request->method == "HEAD") return false;
  const std::optional<uint64_t> length = parse_length(value);
  if (!length) return false;
  const uint64_t size = *length;
  if (size <= body_limit(t)) return false;
  t.response.too_large = true;
  t.response.announced_size = size;
  return true;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  try {
    auto* t = static_cast<Transfer*>(user);
    std::string line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) {
      t->response.headers.clear();  // a new response (after a 100 Continue)
      const size_t space = line.find(' ');
      t->answer_status = space == std::string::npos ? 0 : std::strtol(line.c_str() + space + 1, nullptr, 10);
    } else if (size_t colon = line.find(':'); colon != std::string::npos) {
      std::string name = lower(trim(line.substr(0, colon)));
      std::string value = trim(line.substr(colon + 1));
      if (announces_too_much(*t, name, value)) return 0;
      t->response.headers.emplace_back(std::move(name), std::move(value));
    }
    return size * count;
  } catch (...) {
    return 0;
  }
}

template <typename T>
void set_option(Transfer& t, CURLoption option, T value) {
  if (curl_easy_setopt(t.easy, option, value) != CURLE_OK) {
    fail(ZARR_ERR_INTERNAL, "HTTP " + t.request->method + ": libcurl refused option " +
                                std::to_string(static_cast<int>(option)));
  }
}

void add_header(Transfer& t, const std::string& header) {
  curl_slist* grown = curl_slist_append(t.header_list, header.c_str());
  if (!grown) fail(ZARR_ERR_NO_MEMORY, "HTTP " + t.request->method + ": out of memory for its headers");
  t.header_list = grown;
}

// The request's headers; once it has left its origin, only Range (custom
// headers, Authorization and signatures stay with the origin they were for).
void set_headers(Transfer& t) {
  curl_slist_free_all(t.header_list);
  t.header_list = nullptr;
  const std::string& method = t.request->method;
  if (method == "PUT" || method == "POST") add_header(t, "Expect:");  // no 100-continue round trip
  for (const std::string& header : t.request->headers) {
    if (!t.left_origin || lower(header.substr(0, header.find(':'))) == "range") add_header(t, header);
  }
  set_option(t, CURLOPT_HTTPHEADER, t.header_list);
}

// Never file://, ftp://... whatever a URL says (redirects are followed by
// on_done, which takes only http and https).
void restrict_to_http(Transfer& t) {
#if LIBCURL_VERSION_NUM >= 0x075500  // 7.85 named the protocols instead of bit masks
  set_option(t, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  set_option(t, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

void set_method(Transfer& t) {
  const std::string& method = t.request->method;
  if (method == "GET") {
    set_option(t, CURLOPT_HTTPGET, 1L);
  } else if (method == "HEAD") {
    set_option(t, CURLOPT_NOBODY, 1L);
  } else if (method == "PUT" || method == "POST") {
    static const char kEmpty[] = "";
    const ByteView& body = t.request->body;
    set_option(t, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size));
    set_option(t, CURLOPT_POSTFIELDS, body.data ? reinterpret_cast<const char*>(body.data) : kEmpty);
    set_option(t, CURLOPT_CUSTOMREQUEST, method.c_str());
  } else {
    set_option(t, CURLOPT_CUSTOMREQUEST, method.c_str());
  }
}

void configure(Transfer& t, const HttpClientOptions& options, CURLSH* share) {
  t.easy = curl_easy_init();
  if (!t.easy) fail(ZARR_ERR_NO_MEMORY, "HTTP " + t.request->method + ": libcurl could not allocate a handle");
  t.url = t.request->url;
  set_option(t, CURLOPT_URL, t.url.c_str());
  set_option(t, CURLOPT_NOSIGNAL, 1L);  // threads: never SIGALRM for DNS timeouts
  set_option(t, CURLOPT_SHARE, share);
  set_option(t, CURLOPT_PRIVATE, static_cast<void*>(&t));
  set_option(t, CURLOPT_ERRORBUFFER, t.error);
  set_option(t, CURLOPT_TIMEOUT_MS, options.timeout_ms);
  set_option(t, CURLOPT_CONNECTTIMEOUT_MS, options.connect_timeout_ms);
  set_option(t, CURLOPT_USERAGENT, "libzarr/" ZARR_VERSION_STRING);
  restrict_to_http(t);
  set_option(t, CURLOPT_WRITEFUNCTION, on_body);
  set_option(t, CURLOPT_WRITEDATA, static_cast<void*>(&t));
  set_option(t, CURLOPT_HEADERFUNCTION, on_header);
  set_option(t, CURLOPT_HEADERDATA, static_cast<void*>(&t));
  set_method(t);
  set_headers(t);
}

std::string transport_error(const Transfer& t, CURLcode code) {
  std::string detail = t.error[0] ? std::string(t.error) : curl_easy_strerror(code);
  return t.what() + ": " + detail + " (" + std::to_string(t.response.attempts) +
         (t.response.attempts == 1 ? " attempt)" : " attempts)");
}

// Where a redirect leads, as it may be asked for: userinfo only while the
// request stays in its origin (the request's own), and only http(s).
std::string redirect_target(const Transfer& t, const std::string& location, bool same_origin) {
  ParsedUrl target(location);
  ParsedUrl original(t.request->url);
  target.set(CURLUPART_USER, same_origin ? original.part(CURLUPART_USER) : "");
  target.set(CURLUPART_PASSWORD, same_origin ? original.part(CURLUPART_PASSWORD) : "");
  return target.ok() ? target.url() : "";
}

}  // namespace

std::optional<uint64_t> announced_size(const HttpResponse& response) {
  std::optional<std::string> length = response.header("content-length");
  return length ? parse_length(*length) : std::nullopt;
}

bool is_retryable_status(long status) {
  return status == 429 || (status >= 500 && status <= 599 && status != 501 && status != 505);
}

std::optional<std::string> HttpResponse::header(const std::string& name) const {
  for (const auto& [n, value] : headers) {
    if (n == name) return value;
  }
  return std::nullopt;
}

// Multi handles keep the connections of the requests they ran, so a handle
// taken again reuses them. One call uses one multi handle at a time (libcurl
// handles are not thread-safe); DNS answers and TLS sessions are shared
// between all of them through a share handle, which may be used from
// several threads when it is given locks.
class HttpClient::Pool {
 public:
  explicit Pool(long max_idle_connections) : max_idle_connections_(max_idle_connections) {
    share_ = curl_share_init();
    if (!share_) fail(ZARR_ERR_NO_MEMORY, "libcurl could not allocate a share handle");
    curl_share_setopt(share_, CURLSHOPT_LOCKFUNC, lock);
    curl_share_setopt(share_, CURLSHOPT_UNLOCKFUNC, unlock);
    curl_share_setopt(share_, CURLSHOPT_USERDATA, static_cast<void*>(this));
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }

  ~Pool() {
    for (CURLM* multi : idle_) curl_multi_cleanup(multi);
    curl_share_cleanup(share_);
  }

  CURLM* acquire() {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      if (!idle_.empty()) {
        CURLM* multi = idle_.back();
        idle_.pop_back();
        return multi;
      }
    }
    CURLM* multi = curl_multi_init();
    if (!multi) fail(ZARR_ERR_NO_MEMORY, "libcurl could not allocate a multi handle");
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, max_idle_connections_);
    return multi;
  }

  void release(CURLM* multi) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (idle_.size() < kMaxIdleMultiHandles) {
      idle_.push_back(multi);
    } else {
      curl_multi_cleanup(multi);
    }
  }

  CURLSH* share() const { return share_; }

 private:
  static void lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<Pool*>(user)->locks_[data].lock();
  }
  static void unlock(CURL*, curl_lock_data data, void* user) { static_cast<Pool*>(user)->locks_[data].unlock(); }

  long max_idle_connections_;
  CURLSH* share_ = nullptr;
  std::mutex locks_[CURL_LOCK_DATA_LAST];
  std::mutex mutex_;
  std::vector<CURLM*> idle_;
};

namespace {

// One perform() call: its transfers on one multi handle. The destructor takes
// every transfer off the multi handle before the handles are freed, whether
// the call finished or threw.
class Batch {
 public:
  Batch(CURLM* multi, const HttpClientOptions& options, int in_flight)
      : multi_(multi), options_(options), in_flight_(in_flight) {}
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;
  ~Batch() {
    for (auto& t : transfers_) {
      if (t->in_multi) curl_multi_remove_handle(multi_, t->easy);
    }
  }

  void run(const std::vector<HttpRequest>& requests, CURLSH* share, const HttpClient::ResponseDone& done) {
    for (size_t i = 0; i < requests.size(); ++i) {
      transfers_.push_back(std::make_unique<Transfer>());
      transfers_.back()->request = &requests[i];
      transfers_.back()->index = i;
      configure(*transfers_.back(), options_, share);
      waiting_.push_back(transfers_.back().get());
    }
    size_t finished = 0;
    while (finished < transfers_.size()) {
      start_ready_transfers();
      int running = 0;
      check(curl_multi_perform(multi_, &running));
      // The finished ones first, so that their successors are under way
      // while `done` works on them.
      std::vector<Transfer*> final;
      int left = 0;
      while (CURLMsg* message = curl_multi_info_read(multi_, &left)) {
        if (message->msg != CURLMSG_DONE) continue;
        if (Transfer* t = on_done(message->easy_handle, message->data.result)) final.push_back(t);
      }
      if (!final.empty()) {
        start_ready_transfers();
        check(curl_multi_perform(multi_, &running));
      }
      for (Transfer* t : final) {
        done(t->index, std::move(t->response));
        release(*t);
        ++finished;
      }
      if (finished < transfers_.size()) check(curl_multi_poll(multi_, nullptr, 0, poll_timeout_ms(), nullptr));
    }
  }

 private:
  void check(CURLMcode code) const {
    if (code != CURLM_OK) fail(ZARR_ERR_IO, std::string("libcurl: ") + curl_multi_strerror(code));
  }

  void start_ready_transfers() {
    const Clock::time_point now = Clock::now();
    for (auto it = waiting_.begin(); it != waiting_.end() && active_ < in_flight_;) {
      Transfer* t = *it;
      if (t->not_before > now) {
        ++it;
        continue;
      }
      t->error[0] = '\0';
      check(curl_multi_add_handle(multi_, t->easy));
      t->in_multi = true;
      ++active_;
      it = waiting_.erase(it);
    }
  }

  // Until the next retry is due, at most kMaxPollMs (libcurl asks for less
  // when its own timers need it).
  int poll_timeout_ms() const {
    auto wait = std::chrono::milliseconds(kMaxPollMs);
    const Clock::time_point now = Clock::now();
    for (const Transfer* t : waiting_) {
      if (active_ >= in_flight_) break;
      auto until = std::chrono::duration_cast<std::chrono::milliseconds>(t->not_before - now);
      wait = std::max(std::chrono::milliseconds(0), std::min(wait, until));
    }
    return static_cast<int>(wait.count());
  }

  // A transfer handed over: its easy handle goes now, not at the end of
  // the call (a call of thousands of requests keeps only those in flight).
  void release(Transfer& t) {
    curl_easy_cleanup(t.easy);
    t.easy = nullptr;
    curl_slist_free_all(t.header_list);
    t.header_list = nullptr;
  }

  // The transfer of a finished attempt when it is finished for good.
  Transfer* on_done(CURL* easy, CURLcode code) {
    void* owner = nullptr;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &owner);
    Transfer& t = *static_cast<Transfer*>(owner);
    return finished_for_good(t, code) ? &t : nullptr;
  }

  // True when the transfer is finished for good; false when it will be
  // retried or goes on to where a redirect leads.
  bool finished_for_good(Transfer& t, CURLcode code) {
    CURL* easy = t.easy;
    check(curl_multi_remove_handle(multi_, easy));
    t.in_multi = false;
    --active_;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &t.response.status);
    if (code == CURLE_OK && follow_redirect(t)) return false;
    ++t.response.attempts;
    if (t.response.too_large) return true;  // cut off on purpose: the caller names the limit
    const bool no_response = code != CURLE_OK;
    const bool transient = no_response ? is_retryable_transport(code) : is_retryable_status(t.response.status);
    if (transient && t.response.attempts <= options_.max_retries) {
      t.response.body.clear();
      t.response.headers.clear();
      t.answer_status = 0;
      t.not_before = Clock::now() + std::chrono::milliseconds(backoff_ms(options_.retry_delay_ms, t.response.attempts));
      waiting_.push_back(&t);
      return false;
    }
    if (no_response) fail(ZARR_ERR_IO, scrub_secrets(transport_error(t, code), options_.secrets));
    return true;
  }

  // A redirect of a GET or HEAD the options let the client follow: the
  // transfer set up again for its target (true). Not followed: false, the
  // 3xx is the answer. A redirect that must not be followed, or one too
  // many, is ZARR_ERR_IO naming where it led.
  bool follow_redirect(Transfer& t) {
    const std::string& method = t.request->method;
    if (options_.redirects == Redirects::kNone || !is_redirect(t.response.status) ||
        (method != "GET" && method != "HEAD")) {
      return false;
    }
    char* location = nullptr;
    if (curl_easy_getinfo(t.easy, CURLINFO_REDIRECT_URL, &location) != CURLE_OK || !location) return false;
    const ParsedUrl target(location);
    const std::string scheme = target.part(CURLUPART_SCHEME);
    const bool same_origin = target.ok() && target.origin() == ParsedUrl(t.request->url).origin();
    auto refuse = [&](const std::string& why) {
      fail(ZARR_ERR_IO, scrub_secrets(t.what() + ": the server redirects to " + location + ", " + why,
                                      options_.secrets));
    };
    if (!target.ok() || (scheme != "http" && scheme != "https")) refuse("which is not an http(s) URL");
    if (++t.redirects > kMaxRedirects) refuse("more than " + std::to_string(kMaxRedirects) + " redirects in a row");
    if (!same_origin && options_.redirects == Redirects::kSameOrigin) {
      refuse("another origin (scheme, host or port), where requests are not followed (store option "
             "\"redirects\": \"any_origin\" follows them, without the request's headers)");
    }
    t.left_origin = t.left_origin || !same_origin;
    t.url = redirect_target(t, location, !t.left_origin);
    if (t.url.empty()) refuse("which is not a usable URL");
    t.response.body.clear();
    t.response.headers.clear();
    t.answer_status = 0;
    t.error[0] = '\0';
    set_option(t, CURLOPT_URL, t.url.c_str());
    set_headers(t);
    t.not_before = Clock::now();
    waiting_.push_back(&t);
    return true;
  }

  CURLM* multi_;
  const HttpClientOptions& options_;
  const int in_flight_;
  std::vector<std::unique_ptr<Transfer>> transfers_;
  std::vector<Transfer*> waiting_;
  int active_ = 0;
};

}  // namespace

int in_flight_limit(const HttpClientOptions& options, const std::vector<HttpRequest>& requests) {
  if (options.max_concurrency > 0) return options.max_concurrency;
  uint64_t largest_body = 1;
  for (const HttpRequest& request : requests) largest_body = std::max(largest_body, request.max_body);
  const uint64_t fitting = kInFlightBudget / largest_body;
  return static_cast<int>(std::clamp<uint64_t>(fitting, kMinAutoInFlight, kMaxAutoInFlight));
}

HttpClient::HttpClient(HttpClientOptions options) : options_(options) {
  init_curl_once();
  options_.max_concurrency = std::max(0, options_.max_concurrency);
  options_.max_retries = std::max(0, options_.max_retries);
  const int most_in_flight = options_.max_concurrency > 0 ? options_.max_concurrency : kMaxAutoInFlight;
  pool_ = std::make_unique<Pool>(static_cast<long>(most_in_flight));
}

HttpClient::~HttpClient() = default;

void HttpClient::perform_each(const std::vector<HttpRequest>& requests, const ResponseDone& done) const {
  if (requests.empty()) return;
  CURLM* multi = pool_->acquire();
  try {
    Batch batch(multi, options_, in_flight_limit(options_, requests));
    batch.run(requests, pool_->share(), done);
  } catch (...) {
    curl_multi_cleanup(multi);  // its state after a failure is not worth keeping
    throw;
  }
  pool_->release(multi);
}

std::vector<HttpResponse> HttpClient::perform(const std::vector<HttpRequest>& requests) const {
  std::vector<HttpResponse> responses(requests.size());
  perform_each(requests, [&](size_t i, HttpResponse response) { responses[i] = std::move(response); });
  return responses;
}

std::string HttpClient::scrub(const std::string& text) const { return scrub_secrets(text, options_.secrets); }

HttpResponse HttpClient::perform(const HttpRequest& request) const {
  return std::move(perform(std::vector<HttpRequest>{request}).front());
}

}  // namespace zarr
