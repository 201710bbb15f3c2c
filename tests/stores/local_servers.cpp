#include "stores/local_servers.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace zarr::test {

namespace {

namespace fs = std::filesystem;

constexpr const char* kS3rverSetup = ZARR_SOURCE_ROOT "/tests/stores/s3rver_setup.sh";
constexpr const char* kS3rverPeerDir = ZARR_BUILD_ROOT "/tests/stores/s3rver-peer";
// Starts s3rver with its PUT answered only once the object is on disk.
constexpr const char* kS3rverLaunch = ZARR_SOURCE_ROOT "/tests/stores/s3rver_launch.js";

sockaddr_in local_address(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

bool can_connect(int port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return false;
  sockaddr_in address = local_address(port);
  bool ok = connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  close(s);
  return ok;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string percent_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool send_all(int socket, const std::string& data) {
  size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = send(socket, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 206: return "Partial Content";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 416: return "Range Not Satisfiable";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

}  // namespace

int free_local_port() {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) throw std::runtime_error("socket() failed");
  sockaddr_in address = local_address(0);
  socklen_t length = sizeof address;
  if (bind(s, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(s, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    close(s);
    throw std::runtime_error("cannot bind a port on 127.0.0.1");
  }
  close(s);
  return ntohs(address.sin_port);
}

bool wait_for_local_port(int port, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    if (can_connect(port)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

void clear_proxy_environment() {
  for (const char* name : {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}) {
    unsetenv(name);
  }
}

int run_shell(const std::string& command, std::string* out) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return -1;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    if (out) out->append(buffer, n);
  }
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// ---- child processes ----------------------------------------------------------------

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& log_path) {
  int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) throw std::runtime_error("cannot create " + log_path);
  pid_ = fork();
  if (pid_ == 0) {
    // Stopped with the test process even when it dies without cleaning up
    // (a crash, a timeout's SIGKILL), so no server outlives its test.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(log);
  if (pid_ < 0) throw std::runtime_error("fork failed for " + argv[0]);
}

bool ChildProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    return false;
  }
  return true;
}

ChildProcess::~ChildProcess() {
  if (!running()) return;
  kill(pid_, SIGTERM);
  for (int i = 0; i < 250; ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

// ---- nginx ----------------------------------------------------------------------------

std::string Nginx::unavailable_reason() {
  if (access("/usr/sbin/nginx", X_OK) != 0) return "nginx is not installed (scripts/setup.sh installs Debian's nginx)";
  return "";
}

Nginx::Nginx(const std::map<std::string, std::string>& folders, const std::map<std::string, int>& statuses) {
  port_ = free_local_port();
  const std::string d = dir_.path();
  fs::create_directories(d + "/tmp");
  // Every path nginx writes is in the test's folder: no root-owned defaults
  // are touched, and no worker processes switch users (master_process off).
  std::string conf = "daemon off;\nmaster_process off;\nworker_processes 1;\npid \"" + d + "/nginx.pid\";\n" +
                     "error_log \"" + d + "/error.log\" warn;\nevents { worker_connections 256; }\nhttp {\n" +
                     "  access_log off;\n  default_type application/octet-stream;\n  keepalive_requests 100000;\n";
  for (const char* temp : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"}) {
    conf += std::string("  ") + temp + "_temp_path \"" + d + "/tmp/" + temp + "\";\n";
  }
  conf += "  server {\n    listen 127.0.0.1:" + std::to_string(port_) + ";\n";
  for (const auto& [prefix, folder] : folders) conf += "    location " + prefix + " { alias \"" + folder + "/\"; }\n";
  for (const auto& [prefix, status] : statuses) {
    conf += "    location " + prefix + " { return " + std::to_string(status) + "; }\n";
  }
  conf += "  }\n}\n";
  std::ofstream(d + "/nginx.conf") << conf;
  process_ = std::make_unique<ChildProcess>(
      std::vector<std::string>{"/usr/sbin/nginx", "-p", d, "-c", d + "/nginx.conf", "-e", d + "/error.log"},
      d + "/stdout.log");
  if (!wait_for_local_port(port_, 10000)) {
    throw std::runtime_error("nginx did not start on port " + std::to_string(port_) + ": " + error_log() +
                             read_whole_file(d + "/stdout.log"));
  }
}

std::string Nginx::error_log() const { return read_whole_file(dir_.path() + "/error.log"); }

// ---- s3rver ---------------------------------------------------------------------------

std::string S3rver::unavailable_reason() {
  static const std::string reason = [] {
    std::string out;
    int status = run_shell("bash " + shell_quote(kS3rverSetup) + " " + shell_quote(kS3rverPeerDir) + " 2>&1", &out);
    if (status == 0) return std::string();
    while (!out.empty() && out.back() == '\n') out.pop_back();
    size_t last_line = out.rfind('\n');
    return out.substr(last_line == std::string::npos ? 0 : last_line + 1);
  }();
  return reason;
}

S3rver::S3rver(const std::vector<std::string>& buckets) {
  port_ = free_local_port();
  const std::string d = dir_.path();
  // --service-endpoint localhost: "BUCKET.s3.localhost" is a virtual host
  // (libcurl resolves *.localhost to 127.0.0.1 itself).
  // s3rver's continuation tokens are DES-encrypted, which OpenSSL 3 keeps
  // in its legacy provider.
  std::vector<std::string> argv = {"node", "--openssl-legacy-provider", kS3rverLaunch, kS3rverPeerDir,
                                   "--directory", d + "/data", "--address", "127.0.0.1", "--port",
                                   std::to_string(port_), "--silent", "--service-endpoint", "localhost"};
  for (const std::string& bucket : buckets) {
    argv.push_back("--configure-bucket");
    argv.push_back(bucket);
  }
  fs::create_directories(d + "/data");
  process_ = std::make_unique<ChildProcess>(argv, d + "/s3rver.log");
  if (!wait_for_local_port(port_, 20000)) {
    throw std::runtime_error("s3rver did not start on port " + std::to_string(port_) + ": " +
                             read_whole_file(d + "/s3rver.log"));
  }
}

std::string S3rver::store_options(const std::string& extra_members) const {
  return std::string("{\"endpoint\": \"") + endpoint() + "\", \"access_key_id\": \"" + kAccessKey +
         "\", \"secret_access_key\": \"" + kSecretKey + "\", \"timeout_ms\": 10000, \"max_retries\": 1" +
         (extra_members.empty() ? "" : ", " + extra_members) + "}";
}

// ---- the scripted server -------------------------------------------------------------------

ScriptedHttpServer::ScriptedHttpServer(Handler handler) : handler_(std::move(handler)) {
  listener_ = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address = local_address(0);
  socklen_t length = sizeof address;
  if (listener_ < 0 || bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      listen(listener_, 64) != 0 || getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("the scripted server cannot listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
  acceptor_ = std::thread([this] { accept_loop(); });
}

ScriptedHttpServer::~ScriptedHttpServer() {
  stopping_ = true;
  changed_.notify_all();
  acceptor_.join();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int s : sockets_) shutdown(s, SHUT_RDWR);
  }
  for (std::thread& t : threads_) t.join();
  for (int s : sockets_) close(s);
  close(listener_);
}

void ScriptedHttpServer::accept_loop() {
  while (!stopping_) {
    pollfd waiting{listener_, POLLIN, 0};
    if (poll(&waiting, 1, 50) <= 0) continue;
    int s = accept(listener_, nullptr, nullptr);
    if (s < 0) continue;
    ++connections_;
    std::lock_guard<std::mutex> lock(mutex_);
    sockets_.push_back(s);
    threads_.emplace_back([this, s] { serve_connection(s); });
  }
}

bool ScriptedHttpServer::wait_for_in_flight(int count, int timeout_ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [&] { return max_in_flight_ >= count || stopping_; }) &&
         max_in_flight_ >= count;
}

void ScriptedHttpServer::stall_until_stopped() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return stopping_.load(); });
}

void ScriptedHttpServer::serve_connection(int socket) {
  std::string buffer;
  while (!stopping_) {
    size_t header_end;
    while ((header_end = buffer.find("\r\n\r\n")) == std::string::npos) {
      pollfd waiting{socket, POLLIN, 0};
      if (poll(&waiting, 1, 50) == 0) {
        if (stopping_) return;
        continue;
      }
      char chunk[4096];
      ssize_t n = recv(socket, chunk, sizeof chunk, 0);
      if (n <= 0) return;
      buffer.append(chunk, static_cast<size_t>(n));
    }
    ScriptedRequest request;
    std::string head = buffer.substr(0, header_end);
    size_t line_end = head.find("\r\n");
    std::string request_line = head.substr(0, line_end);
    size_t space1 = request_line.find(' '), space2 = request_line.rfind(' ');
    request.method = request_line.substr(0, space1);
    request.path = request_line.substr(space1 + 1, space2 - space1 - 1);
    for (size_t pos = line_end; pos != std::string::npos && pos < head.size();) {
      size_t next = head.find("\r\n", pos + 2);
      std::string line = head.substr(pos + 2, next == std::string::npos ? std::string::npos : next - pos - 2);
      size_t colon = line.find(':');
      if (colon != std::string::npos) {
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(' '));
        request.headers[lower(line.substr(0, colon))] = value;
      }
      pos = next;
    }
    size_t body_length = request.headers.count("content-length") ? std::stoul(request.headers["content-length"]) : 0;
    while (buffer.size() < header_end + 4 + body_length) {
      char chunk[4096];
      ssize_t n = recv(socket, chunk, sizeof chunk, 0);
      if (n <= 0) return;
      buffer.append(chunk, static_cast<size_t>(n));
    }
    buffer.erase(0, header_end + 4 + body_length);
    ++requests_;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      received_.push_back(request);
      ++in_flight_;
      if (in_flight_ > max_in_flight_) max_in_flight_ = in_flight_;
    }
    changed_.notify_all();
    ScriptedReply reply = handler_(request);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --in_flight_;
    }
    changed_.notify_all();
    if (reply.action == ScriptedReply::Action::kCloseWithoutReply) {
      shutdown(socket, SHUT_RDWR);
      return;
    }
    if (reply.action == ScriptedReply::Action::kStall) {
      stall_until_stopped();
      return;
    }
    if (reply.action == ScriptedReply::Action::kEndlessBody) {
      send_endlessly(socket, request, reply);
      return;
    }
    const uint64_t length = reply.declared_length.value_or(reply.body.size());
    std::string response = "HTTP/1.1 " + std::to_string(reply.status) + " " + reason_phrase(reply.status) +
                           "\r\nContent-Length: " + std::to_string(length) + "\r\n";
    for (const std::string& header : reply.headers) response += header + "\r\n";
    if (reply.close_after) response += "Connection: close\r\n";
    response += "\r\n";
    if (request.method != "HEAD") {
      response += reply.body;
      body_bytes_sent_ += reply.body.size();
    }
    if (!send_all(socket, response) || reply.close_after) {
      shutdown(socket, SHUT_RDWR);
      return;
    }
  }
}

void ScriptedHttpServer::send_endlessly(int socket, const ScriptedRequest& request, const ScriptedReply& reply) {
  std::string head = "HTTP/1.1 " + std::to_string(reply.status) + " " + reason_phrase(reply.status) + "\r\n";
  if (reply.declared_length) head += "Content-Length: " + std::to_string(*reply.declared_length) + "\r\n";
  for (const std::string& header : reply.headers) head += header + "\r\n";
  head += "Connection: close\r\n\r\n";
  if (send_all(socket, head) && request.method != "HEAD") {
    const std::string piece(64 * 1024, 'z');
    while (!stopping_ && send_all(socket, piece)) body_bytes_sent_ += piece.size();
  }
  shutdown(socket, SHUT_RDWR);
}

std::vector<ScriptedRequest> ScriptedHttpServer::received() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return received_;
}

ScriptedReply ScriptedHttpServer::serve_file(const std::string& root, const ScriptedRequest& request) {
  std::string path = percent_decode(request.path.substr(0, request.path.find('?')));
  struct stat info {};
  std::string file = root + path;
  if (path.find("..") != std::string::npos || stat(file.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return ScriptedReply::respond(404, "not found");
  }
  std::string content = read_whole_file(file);
  auto range = request.headers.find("range");
  if (range == request.headers.end()) return ScriptedReply::respond(200, content);
  // "bytes=FIRST-[LAST]" or "bytes=-SUFFIX"
  std::string spec = range->second.substr(range->second.find('=') + 1);
  size_t dash = spec.find('-');
  uint64_t size = content.size(), first, last;
  if (dash == 0) {
    uint64_t suffix = std::stoull(spec.substr(1));
    first = size - std::min(suffix, size);
    last = size ? size - 1 : 0;
  } else {
    first = std::stoull(spec.substr(0, dash));
    last = dash + 1 < spec.size() ? std::min<uint64_t>(std::stoull(spec.substr(dash + 1)), size - 1) : size - 1;
  }
  if (size == 0 || first >= size) return ScriptedReply::respond(416);
  ScriptedReply reply = ScriptedReply::respond(206, content.substr(first, last - first + 1));
  reply.headers.push_back("Content-Range: bytes " + std::to_string(first) + "-" + std::to_string(last) + "/" +
                          std::to_string(size));
  return reply;
}

}  // namespace zarr::test
