// The library's worker threads, shared by every handle, and parallel_for,
// the one way the array engine uses them.
//
// parallel_for is "caller runs": the calling thread takes tasks like any
// worker and never waits for a job queued behind others, so a task that
// itself calls parallel_for (a shard's inner chunks inside a region read)
// cannot deadlock, and a pool of 0 workers still makes progress.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace zarr {

// A fixed set of worker threads taking jobs from one queue in order.
class ThreadPool {
 public:
  explicit ThreadPool(size_t workers);
  // Runs every job already queued, then joins the workers.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  size_t workers() const { return threads_.size(); }
  void submit(std::function<void()> job);

 private:
  // Shared with the workers, so that a pool destroyed on one of its own
  // threads (the last user was a job) leaves that thread a live queue.
  struct Queue {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> jobs;
    std::atomic<size_t> queued{0};  // jobs.size(), for workers polling without the lock
    bool stopping = false;
  };
  static void work(const std::shared_ptr<Queue>& queue);

  std::shared_ptr<Queue> queue_;
  std::vector<std::thread> threads_;
};

// Threads that work on one region read or write: the caller's own plus
// thread_count() - 1 pool workers. Default std::thread::hardware_concurrency().
size_t thread_count();
// 0 restores the default; above kMaxThreadCount is ZARR_ERR_INVALID_ARGUMENT.
// Calls already running finish with the threads they started with.
void set_thread_count(size_t n);
constexpr size_t kMaxThreadCount = 1024;

// While one lives, parallel_for calls made on this thread use at most
// `limit` threads (0: no limit below thread_count()); their tasks run with
// the same limit, so nested calls (a shard's inner chunks) keep it. Each
// parallel step is bounded; steps nested inside tasks are bounded each.
class ThreadLimit {
 public:
  explicit ThreadLimit(size_t limit);
  ~ThreadLimit();
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

 private:
  size_t saved_;
};

// Runs task(i) for every i in [0, n) on up to thread_count() threads (the
// caller's and the pool's) and returns when all have run. Once a task
// throws, no further task starts; the first exception is rethrown after the
// running ones finish. Each task must touch only its own data.
void parallel_for(size_t n, const std::function<void(size_t)>& task);

}  // namespace zarr
