// The HTTP transport of the remote stores (HTTP, S3), on libcurl: many
// requests in flight at once (curl multi), connections kept open between
// calls, bounded retries with backoff, a time limit on every attempt.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/bytes.h"

namespace zarr {

struct HttpClientOptions {
  long timeout_ms = 60000;          // one attempt of one request, first byte sent to last received
  long connect_timeout_ms = 10000;  // establishing a connection (TCP and TLS)
  int max_concurrency = 16;         // requests in flight at once within one call
  int max_retries = 3;              // further attempts after a transient failure
  long retry_delay_ms = 100;        // first backoff; doubles each retry (jittered), at most 5 s
  bool follow_redirects = false;    // 3xx: follow (at most 5) instead of returning them
};

struct HttpRequest {
  std::string method = "GET";        // GET, HEAD, PUT, POST, DELETE
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  ByteView body;                     // PUT and POST; must stay valid while the request runs
};

struct HttpResponse {
  long status = 0;
  Bytes body;
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case
  int attempts = 0;                                          // 1 + the retries it took

  // The value of a response header (lower-case name), if sent.
  std::optional<std::string> header(const std::string& name) const;
};

// Transient failures, retried: no connection, a timeout, a connection dropped
// before the response was complete, and the statuses 429 (too many requests)
// and 5xx except 501 (not implemented) and 505 (version not supported).
bool is_retryable_status(long status);

class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Performs every request, at most max_concurrency at a time, and returns
  // their responses in the same order. Any status comes back as a response,
  // after retries when it is transient (the caller turns it into an error).
  // A request that gets no response at its last attempt throws
  // ZARR_ERR_IO naming its method, URL, what went wrong and the attempts made;
  // the other requests are abandoned then. Safe to call from many threads.
  std::vector<HttpResponse> perform(const std::vector<HttpRequest>& requests) const;
  HttpResponse perform(const HttpRequest& request) const;

  const HttpClientOptions& options() const { return options_; }

 private:
  class Pool;  // idle curl multi handles, each keeping its open connections

  HttpClientOptions options_;
  std::unique_ptr<Pool> pool_;
};

}  // namespace zarr
