// The thread pool and parallel_for: every task runs once, work spreads over
// threads, failures stop the batch and reach the caller, nested calls and
// thread-count changes never deadlock.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "base/error.h"
#include "concurrency/thread_pool.h"

using namespace zarr;

namespace {

// Restores the default thread count after each test.
class ParallelFor : public testing::Test {
 protected:
  void TearDown() override { set_thread_count(0); }
};

}  // namespace

TEST(ThreadPool, RunsEverySubmittedJobBeforeItIsDestroyed) {
  std::atomic<int> ran{0};
  {
    ThreadPool pool(3);
    EXPECT_EQ(pool.workers(), 3u);
    for (int i = 0; i < 100; ++i) pool.submit([&] { ran.fetch_add(1); });
  }
  EXPECT_EQ(ran.load(), 100);
}

TEST(ThreadPool, ZeroWorkersIsAValidPool) {
  ThreadPool pool(0);
  EXPECT_EQ(pool.workers(), 0u);
}

TEST_F(ParallelFor, RunsEachTaskExactlyOnce) {
  for (size_t threads : {1, 2, 4, 8}) {
    set_thread_count(threads);
    EXPECT_EQ(thread_count(), threads);
    std::vector<std::atomic<int>> runs(1000);
    parallel_for(runs.size(), [&](size_t i) { runs[i].fetch_add(1); });
    for (size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(runs[i].load(), 1) << "task " << i << ", " << threads << " threads";
  }
}

// Idle threads poll for new work a few microseconds before they sleep: once
// that is over, an idle pool must use no processor time.
TEST_F(ParallelFor, AnIdlePoolSleeps) {
  set_thread_count(4);
  std::atomic<int> ran{0};
  parallel_for(100, [&](size_t) { ran.fetch_add(1); });
  ASSERT_EQ(ran.load(), 100);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past every thread's polling
  timespec before{}, after{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &before);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &after);
  const double cpu_ms = (after.tv_sec - before.tv_sec) * 1e3 + (after.tv_nsec - before.tv_nsec) / 1e6;
  EXPECT_LT(cpu_ms, 20.0) << "3 idle workers used " << cpu_ms << " ms of processor time in 200 ms";
}

TEST_F(ParallelFor, ZeroTasksRunNothing) {
  bool ran = false;
  parallel_for(0, [&](size_t) { ran = true; });
  EXPECT_FALSE(ran);
}

TEST_F(ParallelFor, UsesSeveralThreadsButNoMoreThanTheCount) {
  set_thread_count(3);
  std::mutex mutex;
  std::set<std::thread::id> seen;
  std::atomic<int> running{0}, most{0};
  parallel_for(60, [&](size_t) {
    int now = running.fetch_add(1) + 1;
    int prev = most.load();
    while (now > prev && !most.compare_exchange_weak(prev, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    running.fetch_sub(1);
    std::lock_guard<std::mutex> lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_GE(seen.size(), 2u);
  EXPECT_LE(seen.size(), 3u);
  EXPECT_LE(most.load(), 3);
}

TEST_F(ParallelFor, OneThreadRunsEverythingOnTheCaller) {
  set_thread_count(1);
  std::vector<std::thread::id> ids(20);
  parallel_for(ids.size(), [&](size_t i) { ids[i] = std::this_thread::get_id(); });
  for (const auto& id : ids) EXPECT_EQ(id, std::this_thread::get_id());
}

TEST_F(ParallelFor, FirstFailureIsRethrownAfterRunningTasksFinish) {
  set_thread_count(4);
  std::atomic<int> running{0}, started{0};
  try {
    parallel_for(10000, [&](size_t i) {
      started.fetch_add(1);
      running.fetch_add(1);
      if (i == 5) {
        running.fetch_sub(1);
        fail(ZARR_ERR_CODEC, "chunk '5' is broken");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      running.fetch_sub(1);
    });
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_CODEC);
    EXPECT_STREQ(e.what(), "chunk '5' is broken");
  }
  EXPECT_EQ(running.load(), 0);        // nothing still running when the caller sees the error
  EXPECT_LT(started.load(), 10000);    // and the rest never started
}

TEST_F(ParallelFor, NestedCallsFromTasksDoNotDeadlock) {
  set_thread_count(2);
  std::atomic<int> inner{0};
  parallel_for(8, [&](size_t) { parallel_for(50, [&](size_t) { inner.fetch_add(1); }); });
  EXPECT_EQ(inner.load(), 8 * 50);
}

TEST_F(ParallelFor, ManyCallersShareThePool) {
  set_thread_count(3);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 6; ++c) {
    callers.emplace_back([&] {
      for (int round = 0; round < 20; ++round) parallel_for(30, [&](size_t) { total.fetch_add(1); });
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), 6 * 20 * 30);
}

TEST_F(ParallelFor, ChangingTheCountWhileCallsRunIsSafe) {
  std::atomic<bool> stop{false};
  std::atomic<int> total{0};
  std::thread caller([&] {
    while (!stop) parallel_for(16, [&](size_t) { total.fetch_add(1); });
  });
  for (size_t n : {1, 4, 2, 0, 3, 1}) {
    set_thread_count(n);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stop = true;
  caller.join();
  EXPECT_GT(total.load(), 0);
}

TEST_F(ParallelFor, ChangingTheCountFromInsideATaskIsSafe) {
  set_thread_count(4);
  parallel_for(4, [&](size_t i) { set_thread_count(i + 1); });
  std::atomic<int> runs{0};
  parallel_for(10, [&](size_t) { runs.fetch_add(1); });
  EXPECT_EQ(runs.load(), 10);
}

TEST_F(ParallelFor, CountAboveTheLimitIsRejected) {
  set_thread_count(2);
  try {
    set_thread_count(kMaxThreadCount + 1);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(e.what()).find("1025"), std::string::npos) << e.what();
  }
  EXPECT_EQ(thread_count(), 2u);  // unchanged
  set_thread_count(0);
  EXPECT_EQ(thread_count(), std::max<size_t>(1, std::thread::hardware_concurrency()));
}
