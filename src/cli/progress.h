// A one-line progress display on stderr for long copies: units done of the
// total, throughput and time left, redrawn in place. Silent unless stderr is
// a terminal, so pipes and log files never get carriage returns.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace zarrtool {

class Progress {
 public:
  // label: what is copied ("cp a -> b"); unit: what is counted ("chunks").
  Progress(std::string label, std::string unit, uint64_t total);
  ~Progress();  // ends the line when something was drawn

  // One more unit done, of `bytes` logical bytes; redraws at most every 100 ms
  // (and for the last unit). Safe from several threads.
  void advance(uint64_t bytes);

  // The line as it is drawn now (for tests and the final draw).
  std::string line() const;

  bool enabled() const { return enabled_; }

 private:
  void draw();

  const std::string label_, unit_;
  const uint64_t total_;
  const bool enabled_;
  const std::chrono::steady_clock::time_point start_;
  std::atomic<uint64_t> done_{0}, bytes_{0};
  std::mutex draw_mutex_;
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
};

// "1:05" / "1:02:03" for a number of seconds.
std::string clock_text(double seconds);

}  // namespace zarrtool
