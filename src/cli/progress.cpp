#include "progress.h"

#include <unistd.h>

#include <cstdio>

#include "cli_common.h"

namespace zarrtool {

Progress::Progress(std::string label, std::string unit, uint64_t total)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (drawn_) std::fputc('\n', stderr);
}

void Progress::advance(uint64_t bytes) {
  bytes_ += bytes;
  const uint64_t done = ++done_;
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(draw_mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (done < total_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw();
}

std::string clock_text(double seconds) {
  const uint64_t s = seconds < 0 ? 0 : static_cast<uint64_t>(seconds + 0.5);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%llu:%02llu:%02llu", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60), static_cast<unsigned long long>(s % 60));
  } else {
    std::snprintf(text, sizeof text, "%llu:%02llu", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  }
  return text;
}

std::string Progress::line() const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const uint64_t done = done_, bytes = bytes_;
  const double rate = elapsed > 0 ? bytes / elapsed / 1e6 : 0;  // MB/s
  const double left = done ? elapsed * (total_ - done) / done : 0;
  char text[256];
  std::snprintf(text, sizeof text, "%s: %llu/%llu %s  %.1f MB/s  %s left", shown(label_).c_str(),
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), unit_.c_str(), rate,
                clock_text(left).c_str());
  return text;
}

void Progress::draw() {
  // "\r" back to the line's start, "\033[K" clears what a longer line left.
  std::fprintf(stderr, "\r%s\033[K", line().c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace zarrtool
