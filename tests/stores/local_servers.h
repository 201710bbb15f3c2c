// Servers the remote store tests start on 127.0.0.1 and stop when done:
// Debian's nginx, s3rver (npm, installed on first use by s3rver_setup.sh),
// and a scripted HTTP server inside the test process for the failures real
// servers do not produce on demand (dropped connections, stalls, counted
// retries, requests held until several are in flight).
//
// No test sends anything anywhere but 127.0.0.1.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/test_support.h"

namespace zarr::test {

// A port on 127.0.0.1 free at the time of asking.
int free_local_port();
// True once something accepts connections on 127.0.0.1:port.
bool wait_for_local_port(int port, int timeout_ms);
// Unsets http_proxy and friends, so that libcurl talks to 127.0.0.1 directly.
void clear_proxy_environment();

// A program started by a test, stopped (SIGTERM, then SIGKILL after 5 s)
// when destroyed. Its stdout and stderr go to log_path.
class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& argv, const std::string& log_path);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  bool running();

 private:
  int pid_ = -1;
};

// nginx serving folders read-only, with locations answering a fixed status.
class Nginx {
 public:
  // "" when nginx can run here, else why not (tests skip with it).
  static std::string unavailable_reason();

  // folders: URL prefix ("/peer-data/") -> folder; statuses: URL prefix -> status.
  Nginx(const std::map<std::string, std::string>& folders, const std::map<std::string, int>& statuses);
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // nginx's error log, for failure messages.
  std::string error_log() const;

 private:
  TempDir dir_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> process_;
};

// s3rver on a fresh data folder, with buckets made at start. It accepts the
// access key S3RVER (secret S3RVER) and refuses unknown access keys; it does
// not check Signature Version 4 signatures (its lib/middleware/
// authentication.js says so), so tests of signing compare with botocore
// instead (test_sigv4.cpp).
class S3rver {
 public:
  static constexpr const char* kAccessKey = "S3RVER";
  static constexpr const char* kSecretKey = "S3RVER";

  // "" when s3rver is installed (scripts/setup.sh puts Node.js and npm in
  // place; s3rver_setup.sh installs s3rver into the build tree on first use),
  // else why not. Runs the setup once per process.
  static std::string unavailable_reason();

  explicit S3rver(const std::vector<std::string>& buckets);
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  // The store options JSON object of an s3:// URL on this server.
  std::string store_options(const std::string& extra_members = "") const;

 private:
  TempDir dir_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> process_;
};

// What the scripted server does with one request. Besides answering, it
// misbehaves as a hostile server would: bodies that never end, a
// Content-Length that lies, redirects to another origin.
struct ScriptedReply {
  enum class Action {
    kRespond,
    kCloseWithoutReply,
    kStall,
    // The status and headers, then body bytes ('z') until the client goes
    // away: with declared_length as Content-Length when set, else with none.
    kEndlessBody,
  };
  Action action = Action::kRespond;
  int status = 200;
  std::string body;
  std::vector<std::string> headers;  // "Name: value"
  bool close_after = false;           // "Connection: close": the client cannot reuse the connection
  // The Content-Length sent instead of the body's size. A lie: with more,
  // the body is sent and the connection closed, short; with less, the whole
  // body is sent all the same, then the connection is closed.
  std::optional<uint64_t> declared_length;

  static ScriptedReply respond(int status, std::string body = "") {
    return {Action::kRespond, status, std::move(body), {}, false, std::nullopt};
  }
  static ScriptedReply close_connection() { return {Action::kCloseWithoutReply, 0, "", {}, false, std::nullopt}; }
  static ScriptedReply stall() { return {Action::kStall, 0, "", {}, false, std::nullopt}; }
  static ScriptedReply endless(int status = 200) { return {Action::kEndlessBody, status, "", {}, true, std::nullopt}; }
  static ScriptedReply lying_length(std::string body, uint64_t declared) {
    return {Action::kRespond, 200, std::move(body), {}, true, declared};
  }
  // A redirect (301, 302, 303, 307, 308) to `location`.
  static ScriptedReply redirect(int status, const std::string& location) {
    return {Action::kRespond, status, "", {"Location: " + location}, false, std::nullopt};
  }
};

struct ScriptedRequest {
  std::string method;
  std::string path;                            // as sent, still percent-encoded
  std::map<std::string, std::string> headers;  // names in lower case
};

// HTTP/1.1 with keep-alive, a thread per connection; the handler runs on
// those threads, so it must be thread-safe.
class ScriptedHttpServer {
 public:
  using Handler = std::function<ScriptedReply(const ScriptedRequest&)>;
  explicit ScriptedHttpServer(Handler handler);
  ~ScriptedHttpServer();
  ScriptedHttpServer(const ScriptedHttpServer&) = delete;
  ScriptedHttpServer& operator=(const ScriptedHttpServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  int requests() const { return requests_; }
  // Body bytes sent so far, in all replies.
  uint64_t body_bytes_sent() const { return body_bytes_sent_; }
  // The requests received so far, in the order they arrived.
  std::vector<ScriptedRequest> received() const;
  int connections() const { return connections_; }
  // The most requests the handler was working on at one time.
  int max_in_flight() const { return max_in_flight_; }
  // For handlers: wait until `count` requests have been in the handler at
  // one time (now or before), or timeout_ms passed. True when they have.
  bool wait_for_in_flight(int count, int timeout_ms);

  // A handler serving the files below `root` (404 for others), with Range
  // support enough for the stores' ranged reads.
  static ScriptedReply serve_file(const std::string& root, const ScriptedRequest& request);

 private:
  void accept_loop();
  void serve_connection(int socket);
  void stall_until_stopped();
  void send_endlessly(int socket, const ScriptedRequest& request, const ScriptedReply& reply);

  Handler handler_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};
  std::atomic<int> connections_{0};
  std::atomic<int> max_in_flight_{0};
  std::atomic<uint64_t> body_bytes_sent_{0};
  mutable std::mutex mutex_;
  std::vector<ScriptedRequest> received_;  // guarded by mutex_
  std::condition_variable changed_;
  int in_flight_ = 0;
  std::vector<int> sockets_;
  std::vector<std::thread> threads_;
  std::thread acceptor_;
};

// Runs `command` with /bin/sh; its stdout (and stderr when merge_stderr) into *out.
int run_shell(const std::string& command, std::string* out);
std::string shell_quote(const std::string& text);

}  // namespace zarr::test
