#include "concurrency/thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <string>
#include <system_error>

#include "base/error.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace zarr {

namespace {

// A thread about to sleep (a worker with no job, a caller waiting for the
// tasks others run) first polls for this long: waking a sleeping thread takes
// tens of microseconds (more in a virtual machine, whose idle CPUs halt), as
// long as decoding a small chunk, so region reads of a few small chunks
// (W5 of docs/performance.md: 2000 windows, 2.8 chunks each) would spend
// their time handing work over.
constexpr auto kPollBeforeSleep = std::chrono::microseconds(50);

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}

// True as soon as ready() is, false once kPollBeforeSleep has passed.
template <typename Ready>
bool poll_until(Ready ready) {
  const auto deadline = std::chrono::steady_clock::now() + kPollBeforeSleep;
  for (unsigned i = 1;; ++i) {
    if (ready()) return true;
    cpu_relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline) return false;
  }
}

}  // namespace

// ---- ThreadPool ----------------------------------------------------------------

ThreadPool::ThreadPool(size_t workers) : queue_(std::make_shared<Queue>()) {
  threads_.reserve(workers);
  for (size_t i = 0; i < workers; ++i) {
    try {
      threads_.emplace_back(work, queue_);
    } catch (const std::system_error&) {
      break;  // the system refuses more threads: fewer workers still do the work (callers run tasks too)
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(queue_->mutex);
    queue_->stopping = true;
  }
  queue_->wake.notify_all();
  for (std::thread& t : threads_) {
    // A worker cannot join itself: it finishes its job, sees `stopping` in
    // the queue it shares, and ends on its own.
    if (t.get_id() == std::this_thread::get_id()) {
      t.detach();
    } else {
      t.join();
    }
  }
}

void ThreadPool::submit(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(queue_->mutex);
    queue_->jobs.push_back(std::move(job));
    queue_->queued.store(queue_->jobs.size(), std::memory_order_relaxed);
  }
  queue_->wake.notify_one();
}

void ThreadPool::work(const std::shared_ptr<Queue>& queue) {
  std::shared_ptr<Queue> keep = queue;  // outlives the pool if need be (see Queue)
  for (;;) {
    std::function<void()> job;
    poll_until([&] { return keep->queued.load(std::memory_order_relaxed) > 0; });
    {
      std::unique_lock<std::mutex> lock(keep->mutex);
      keep->wake.wait(lock, [&] { return keep->stopping || !keep->jobs.empty(); });
      if (keep->jobs.empty()) return;  // stopping, and nothing left to run
      job = std::move(keep->jobs.front());
      keep->jobs.pop_front();
      keep->queued.store(keep->jobs.size(), std::memory_order_relaxed);
    }
    job();  // jobs catch their own exceptions (parallel_for's do)
  }
}

// ---- the library's pool --------------------------------------------------------

namespace {

// The processors this process may run on (its affinity mask, which
// containers and taskset narrow), else what the hardware reports.
size_t available_processors() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return std::max<size_t>(1, std::thread::hardware_concurrency());
}

// ZARR_NUM_THREADS chooses the default without code (as OMP_NUM_THREADS and
// BLOSC_NTHREADS do); a value that is not a count is an error, not ignored.
size_t default_thread_count() {
  const char* text = std::getenv("ZARR_NUM_THREADS");
  if (text == nullptr || *text == '\0') return available_processors();
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0' || n < 1 || n > kMaxThreadCount || *text == '-') {
    fail(ZARR_ERR_INVALID_ARGUMENT, std::string("environment variable ZARR_NUM_THREADS='") + text +
                                        "' is not a thread count from 1 to " + std::to_string(kMaxThreadCount));
  }
  return static_cast<size_t>(n);
}

struct SharedPool {
  std::mutex mutex;
  size_t threads = 0;  // 0: not chosen yet (the default on first use)
  std::shared_ptr<ThreadPool> pool;
};

SharedPool& shared_pool() {
  static SharedPool shared;
  return shared;
}

// The pool of the current thread count, made on first use.
std::shared_ptr<ThreadPool> current_pool(size_t& threads) {
  SharedPool& shared = shared_pool();
  std::lock_guard<std::mutex> lock(shared.mutex);
  if (shared.threads == 0) shared.threads = default_thread_count();
  if (!shared.pool) shared.pool = std::make_shared<ThreadPool>(shared.threads - 1);
  threads = shared.threads;
  return shared.pool;
}

thread_local size_t current_thread_limit = 0;  // ThreadLimit's, on this thread

// One parallel_for call: the next task to hand out, how many are running,
// and the first failure. Claims are made under the lock so that once the
// caller has seen the last task finish no late worker can start another.
// The first failure passes from the failing thread to the caller under the
// lock, so the caller alone holds it when it rethrows: a worker letting go
// of the batch later never destroys the exception the caller is reading.
class TaskBatch {
 public:
  TaskBatch(size_t n, const std::function<void(size_t)>& task, size_t limit)
      : n_(n), task_(&task), limit_(limit) {}

  // Take tasks until none are left (or one failed), under the limit of the
  // call that made the batch.
  void run() {
    const ThreadLimit limit(limit_);
    size_t i;
    while (claim(i)) {
      std::exception_ptr error;
      try {
        (*task_)(i);
      } catch (...) {
        error = std::current_exception();
      }
      finish(std::move(error));
    }
  }

  // After the caller's own run(): wait for tasks running elsewhere, then
  // rethrow the first failure.
  void wait_and_rethrow() {
    poll_until([&] { return running_.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> lock(mutex_);
    all_done_.wait(lock, [&] { return running_ == 0; });
    std::exception_ptr error = std::move(error_);
    lock.unlock();
    if (error) std::rethrow_exception(error);
  }

 private:
  bool claim(size_t& i) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failed_ || next_ == n_) return false;
    ++running_;
    i = next_++;
    return true;
  }

  void finish(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error && !failed_) {
      failed_ = true;
      error_ = std::move(error);
    }
    if (--running_ == 0) all_done_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable all_done_;
  const size_t n_;
  const std::function<void(size_t)>* task_;  // valid while the caller waits
  const size_t limit_;
  size_t next_ = 0;
  std::atomic<size_t> running_{0};  // changed under mutex_, polled without it
  bool failed_ = false;
  std::exception_ptr error_;  // the first failure, until the caller takes it
};

}  // namespace

size_t thread_count() {
  size_t threads = 0;
  current_pool(threads);
  return threads;
}

void set_thread_count(size_t n) {
  if (n > kMaxThreadCount) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "thread count " + std::to_string(n) + " is above the limit of " +
                                        std::to_string(kMaxThreadCount));
  }
  const size_t threads = n == 0 ? default_thread_count() : n;
  std::shared_ptr<ThreadPool> replaced;  // joined outside the lock, once its last user lets go
  SharedPool& shared = shared_pool();
  std::lock_guard<std::mutex> lock(shared.mutex);
  if (threads == shared.threads && shared.pool) return;
  replaced = std::move(shared.pool);
  shared.threads = threads;
  shared.pool.reset();  // made on next use
}

ThreadLimit::ThreadLimit(size_t limit) : saved_(current_thread_limit) { current_thread_limit = limit; }

ThreadLimit::~ThreadLimit() { current_thread_limit = saved_; }

void parallel_for(size_t n, const std::function<void(size_t)>& task) {
  if (n == 0) return;
  size_t threads = 0;
  std::shared_ptr<ThreadPool> pool = current_pool(threads);
  if (current_thread_limit > 0) threads = std::min(threads, current_thread_limit);
  if (n == 1 || threads == 1) {
    for (size_t i = 0; i < n; ++i) task(i);
    return;
  }
  auto batch = std::make_shared<TaskBatch>(n, task, current_thread_limit);
  const size_t helpers = std::min({n - 1, pool->workers(), threads - 1});
  for (size_t h = 0; h < helpers; ++h) pool->submit([batch] { batch->run(); });
  batch->run();
  batch->wait_and_rethrow();
}

}  // namespace zarr
