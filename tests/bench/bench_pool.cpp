// What would stop scaling on many cores (issue 25, docs/scaling.md): the cost
// per task of parallel_for (one queue, one mutex, shared by every worker), per
// lock of the chunk lock table (key_mutex: 1024 striped mutexes), and per
// chunk buffer allocated, written and freed (malloc's arenas, the kernel's
// mmap and page faults) against one kept per thread (ScratchBuffer), at 1 to
// 64 threads. On a machine with fewer cores the threads are oversubscribed:
// the figures then include the kernel's switching between them, an upper
// bound of what the same threads cost on as many cores. A benchmark: it
// prints figures, never fails on speed.
//
//   bench_pool [ROUNDS] [THREADS,...]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/bytes.h"
#include "concurrency/key_lock.h"
#include "concurrency/thread_pool.h"

using namespace zarr;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// About `ns` nanoseconds of work that stays in registers (no memory traffic).
uint64_t spin(uint64_t ns, uint64_t seed) {
  uint64_t x = seed | 1;
  for (uint64_t i = 0; i < ns / 2; ++i) x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

std::atomic<uint64_t> g_sink{0};

// Seconds per task of parallel_for over `tasks` tasks of `work_ns` each, best of rounds.
double pool_cost(size_t tasks, uint64_t work_ns, int rounds) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const double t0 = now();
    parallel_for(tasks, [&](size_t i) { g_sink.fetch_add(spin(work_ns, i), std::memory_order_relaxed); });
    best = std::min(best, now() - t0);
  }
  return best / static_cast<double>(tasks);
}

// Seconds per lock + unlock of the chunk lock table by `threads` threads at
// once, each `per_thread` times: on keys of their own (distinct chunks, as
// chunk-aligned writers take them) or all on one key (writers of one chunk).
double lock_cost(size_t threads, size_t per_thread, bool one_key, int rounds) {
  std::vector<std::vector<std::string>> keys(threads);
  for (size_t t = 0; t < threads; ++t) {
    for (size_t i = 0; i < 64; ++i) keys[t].push_back(one_key ? "c/0/0" : "c/" + std::to_string(t) + "/" + std::to_string(i));
  }
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    std::atomic<bool> go{false};
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
        for (size_t i = 0; i < per_thread; ++i) {
          const KeyLock held("/bench/store", keys[t][i % 64], "");
        }
      });
    }
    const double t0 = now();
    go.store(true, std::memory_order_release);
    for (std::thread& th : pool) th.join();
    best = std::min(best, now() - t0);
  }
  return best / static_cast<double>(threads * per_thread);
}

// Seconds per task of parallel_for where each task fills a chunk buffer of
// `bytes` (one write per 4 KiB page, as a decoder's output touches every
// page): a new buffer per task, freed at its end (fresh = true), or one kept
// per thread and reused, as the engine's ScratchBuffer is.
double alloc_cost(size_t tasks, size_t bytes, bool fresh, int rounds) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const double t0 = now();
    parallel_for(tasks, [&](size_t i) {
      thread_local ScratchBuffer kept;
      std::unique_ptr<uint8_t[]> own;
      uint8_t* data = fresh ? (own.reset(new uint8_t[bytes]), own.get()) : kept.reserve(bytes);
      for (size_t at = 0; at < bytes; at += 4096) data[at] = static_cast<uint8_t>(i);
      g_sink.fetch_add(data[bytes / 2], std::memory_order_relaxed);
    });
    best = std::min(best, now() - t0);
  }
  return best / static_cast<double>(tasks);
}

std::vector<size_t> parse_list(const char* text) {
  std::vector<size_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::strtoull(item.c_str(), nullptr, 10));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const std::vector<size_t> thread_counts = parse_list(argc > 2 ? argv[2] : "1,2,8,16,64");
  std::printf("%u hardware threads; times per task or per lock, best of %d rounds\n",
              std::thread::hardware_concurrency(), rounds);
  std::printf("%8s %14s %14s %14s %16s %16s\n", "threads", "task 0 us", "task 1 us", "task 10 us", "lock own key", "lock one key");
  for (size_t threads : thread_counts) {
    set_thread_count(threads);
    const double empty = pool_cost(200000, 0, rounds);
    const double small = pool_cost(20000, 1000, rounds);
    const double large = pool_cost(4000, 10000, rounds);
    const double own = lock_cost(threads, 200000, false, rounds);
    const double one = lock_cost(threads, 200000, true, rounds);
    std::printf("%8zu %11.0f ns %11.0f ns %11.0f ns %13.0f ns %13.0f ns\n", threads, empty * 1e9, small * 1e9,
                large * 1e9, own * 1e9, one * 1e9);
    std::fflush(stdout);
  }
  std::printf("\nper chunk buffer of a task (written once per 4 KiB page): new + free each task / kept per thread\n");
  std::printf("%8s %22s %22s %22s\n", "threads", "64 KiB", "1 MiB", "8 MiB");
  for (size_t threads : thread_counts) {
    set_thread_count(threads);
    std::printf("%8zu", threads);
    for (size_t bytes : {size_t{64} << 10, size_t{1} << 20, size_t{8} << 20}) {
      const size_t tasks = std::max<size_t>(64, (size_t{2} << 30) / bytes / 4);
      const double fresh = alloc_cost(tasks, bytes, true, rounds);
      const double kept = alloc_cost(tasks, bytes, false, rounds);
      std::printf(" %9.1f / %7.1f us", fresh * 1e6, kept * 1e6);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  set_thread_count(0);
  return 0;
}
