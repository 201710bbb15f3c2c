#include "array/engine/fetch_pipeline.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <utility>

#include "concurrency/thread_pool.h"

namespace zarr::engine {

namespace {

// Thrown at the producer when a process call failed: it stops fetching.
struct Stopped {};

class Pipeline {
 public:
  Pipeline(const std::function<void(size_t, std::optional<Bytes>&)>& process, uint64_t max_pending_bytes)
      : process_(process), max_pending_bytes_(max_pending_bytes) {}

  // The producer's side: queue the value; when too much waits, process
  // waiting values here first.
  void hand_over(size_t index, std::optional<Bytes> value) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!failed_ && !queue_.empty() && pending_bytes_ >= max_pending_bytes_) process_one(lock);
    if (failed_) throw Stopped{};
    pending_bytes_ += value ? value->size() : 0;
    queue_.emplace_back(index, std::move(value));
    ready_.notify_one();
  }

  // The producer is done (or failed): the others take what is left and stop.
  void finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    produced_ = true;
    ready_.notify_all();
  }

  // A processing thread's loop: until everything produced is processed.
  void drain() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ready_.wait(lock, [&] { return failed_ || produced_ || !queue_.empty(); });
      if (failed_ || queue_.empty()) return;
      process_one(lock);
    }
  }

  void fail(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::move(error);
    failed_ = true;
    queue_.clear();
    ready_.notify_all();
  }

  std::exception_ptr error() const { return error_; }

 private:
  // Under the lock, which it lets go of while processing.
  void process_one(std::unique_lock<std::mutex>& lock) {
    std::pair<size_t, std::optional<Bytes>> item = std::move(queue_.front());
    queue_.pop_front();
    pending_bytes_ -= item.second ? item.second->size() : 0;
    lock.unlock();
    try {
      process_(item.first, item.second);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      failed_ = true;
      queue_.clear();
      ready_.notify_all();
      return;
    }
    lock.lock();
  }

  const std::function<void(size_t, std::optional<Bytes>&)>& process_;
  const uint64_t max_pending_bytes_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::pair<size_t, std::optional<Bytes>>> queue_;
  uint64_t pending_bytes_ = 0;
  bool produced_ = false;
  bool failed_ = false;
  std::exception_ptr error_;
};

}  // namespace

void fetch_and_process(const std::function<void(const ValueArrived&)>& produce,
                       const std::function<void(size_t, std::optional<Bytes>&)>& process,
                       uint64_t max_pending_bytes) {
  Pipeline pipeline(process, max_pending_bytes);
  // Task 0 produces (then helps with what is left); the others process.
  parallel_for(std::max<size_t>(2, thread_count()), [&](size_t task) {
    if (task == 0) {
      try {
        produce([&](size_t index, std::optional<Bytes> value) { pipeline.hand_over(index, std::move(value)); });
      } catch (const Stopped&) {
      } catch (...) {
        pipeline.fail(std::current_exception());
      }
      pipeline.finish();
    }
    pipeline.drain();
  });
  if (pipeline.error()) std::rethrow_exception(pipeline.error());
}

}  // namespace zarr::engine
