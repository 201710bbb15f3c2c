// The HTTP transport of the remote stores (HTTP, S3), on libcurl: many
// requests in flight at once (curl multi), connections kept open between
// calls, bounded retries with backoff, a time limit on every attempt.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/bytes.h"

namespace zarr {

// Which redirects (301, 302, 303, 307, 308 with a Location) of GET and HEAD
// requests the client follows, at most 5 in a row; the others come back as
// responses. An origin is a URL's scheme, host and port: "localhost" and
// "127.0.0.1" are two origins, as are two ports of one host.
enum class Redirects {
  kNone,
  // Within the origin of the request's URL. A redirect to another origin is
  // ZARR_ERR_IO naming it (scrubbed), and nothing is sent there.
  kSameOrigin,
  // Anywhere over http(s), but a request that leaves its origin goes without
  // its headers (all but Range: custom headers, Authorization, signatures)
  // and without the URL's user:password.
  kAnyOrigin,
};

struct HttpClientOptions {
  long timeout_ms = 60000;          // one attempt of one request, first byte sent to last received
  long connect_timeout_ms = 10000;  // establishing a connection (TCP and TLS)
  // Requests in flight at once within one call; 0 lets each call choose by
  // its bodies' limits (in_flight_limit).
  int max_concurrency = 0;
  int max_retries = 3;              // further attempts after a transient failure
  long retry_delay_ms = 100;        // first backoff; doubles each retry (jittered), at most 5 s
  Redirects redirects = Redirects::kNone;
  // Texts that never appear in a message (header values, keys, tokens):
  // scrub_secrets hides them, and every URL's userinfo and query.
  std::vector<std::string> secrets;
};

// With max_concurrency 0, a call keeps as many requests in flight as their
// bodies' limits fit in kInFlightBudget, within [kMinAutoInFlight,
// kMaxAutoInFlight]: many small chunks behind a long round trip get 64 in
// flight (the W4 array of docs/performance.md reads 3.3 times faster at 50 ms
// than at 16), while large ones keep 16, as before, so that what the
// responses in flight may hold stays bounded (16 x an 8 MiB chunk).
inline constexpr int kMinAutoInFlight = 16;
inline constexpr int kMaxAutoInFlight = 64;
inline constexpr uint64_t kInFlightBudget = uint64_t{64} << 20;

// The body limit of requests that fetch no value (listings, answers to
// writes, error documents).
inline constexpr uint64_t kMaxAnswerBytes = uint64_t{16} << 20;

struct HttpRequest {
  std::string method = "GET";        // GET, HEAD, PUT, POST, DELETE
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  ByteView body;                     // PUT and POST; must stay valid while the request runs
  // The most body bytes taken from a successful (2xx) response, the value;
  // other responses (404 pages, error documents) are held to
  // kMaxAnswerBytes. A Content-Length above the limit (but for HEAD), or
  // more bytes arriving, ends the transfer at once with the response's
  // too_large set (not retried).
  uint64_t max_body = kMaxAnswerBytes;
};

struct HttpResponse {
  long status = 0;
  Bytes body;
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case
  int attempts = 0;                                          // 1 + the retries it took
  // The body went past the request's max_body: cut off, incomplete.
  bool too_large = false;
  std::optional<uint64_t> announced_size;  // the Content-Length that did, if it was that

  // The value of a response header (lower-case name), if sent.
  std::optional<std::string> header(const std::string& name) const;
};

// The Content-Length a response announces, if it gives a number.
std::optional<uint64_t> announced_size(const HttpResponse& response);

// Transient failures, retried: no connection, a timeout, a connection dropped
// before the response was complete, and the statuses 429 (too many requests)
// and 5xx except 501 (not implemented) and 505 (version not supported).
bool is_retryable_status(long status);

// How many of these requests a call keeps in flight at once.
int in_flight_limit(const HttpClientOptions& options, const std::vector<HttpRequest>& requests);

class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Performs every request, at most in_flight_limit at a time, and returns
  // their responses in the same order. Any status comes back as a response,
  // after retries when it is transient (the caller turns it into an error),
  // as does a body over its limit (too_large). A request that gets no
  // response at its last attempt throws ZARR_ERR_IO naming its method, URL,
  // what went wrong and the attempts made, scrubbed of secrets; the other
  // requests are abandoned then. Safe to call from many threads.
  std::vector<HttpResponse> perform(const std::vector<HttpRequest>& requests) const;
  HttpResponse perform(const HttpRequest& request) const;
  // The same, each response handed over as soon as it is final (in any
  // order): done(i, response) for requests[i], on the calling thread, while
  // the other requests stay in flight (a new one starts as one finishes).
  // What done throws ends the call, the other requests abandoned.
  using ResponseDone = std::function<void(size_t index, HttpResponse response)>;
  void perform_each(const std::vector<HttpRequest>& requests, const ResponseDone& done) const;

  const HttpClientOptions& options() const { return options_; }
  // scrub_secrets with this client's secrets.
  std::string scrub(const std::string& text) const;

 private:
  class Pool;  // idle curl multi handles, each keeping its open connections

  HttpClientOptions options_;
  std::unique_ptr<Pool> pool_;
};

}  // namespace zarr
