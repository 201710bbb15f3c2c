// One handle used from many threads at once.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <numeric>
#include <thread>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

TEST(Threads, ConcurrentWritesToDisjointChunksThenConcurrentReads) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[64, 64]", "[8, 8]", "<i4", {{"compressor", "{\"id\": \"zlib\"}"}}));
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Thread t owns chunk rows t: rows 8t..8t+7.
      std::vector<int32_t> rows(8 * 64);
      std::iota(rows.begin(), rows.end(), t * 1000);
      if (write_region(a, {uint64_t(8 * t), 0}, {8, 64}, rows) != ZARR_OK) ++failures;
    });
  }
  for (auto& th : threads) th.join();
  threads.clear();
  ASSERT_EQ(failures.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<int32_t> expect(8 * 64);
      std::iota(expect.begin(), expect.end(), t * 1000);
      for (int rep = 0; rep < 5; ++rep) {
        if (read_region<int32_t>(a, {uint64_t(8 * t), 0}, {8, 64}) != expect) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(Threads, OverlappingWritesSharingChunksLoseNothing) {
  TempDir dir;
  // One chunk holds all 64 elements; each thread writes its own elements of it.
  ArrayPtr a = create_array(dir / "a", array_meta("[64]", "[64]", "<i4", {{"fill_value", "-1"}}));
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 8; ++i) {
        uint64_t index = uint64_t(i * 8 + t);
        write_region<int32_t>(a, {index}, {1}, {int32_t(index)});
      }
    });
  }
  for (auto& th : threads) th.join();
  std::vector<int32_t> expect(64);
  std::iota(expect.begin(), expect.end(), 0);
  EXPECT_EQ(read_all<int32_t>(a), expect);
}

// Two handles on one array, opened separately (one through a relative path),
// written from two threads in regions that share every chunk: the per-chunk
// locks are the process's, so no write is lost.
TEST(Threads, SeparateHandlesOnOneArrayLoseNoWrite) {
  TempDir dir;
  const std::string url = dir / "a";
  constexpr uint64_t kSize = 8000, kRun = 7;
  create_array(url, array_meta("[8000]", "[2000]", "<i4", {{"compressor", R"({"id": "zlib", "level": 1})"}}));
  const std::string relative = std::filesystem::relative(url).string();
  ArrayPtr first = open_array(url, "r+"), second = open_array(relative, "r+");
  ASSERT_TRUE(first.get() && second.get()) << zarr_last_error();
  // Thread t writes the runs of 7 elements whose index (i / 7) % 2 == t, in
  // each round with new values; both start together.
  std::atomic<int> ready{0};
  auto writer = [&](zarr_array* a, int t) {
    ++ready;
    while (ready < 2) std::this_thread::yield();
    for (int round = 0; round < 4; ++round) {
      for (uint64_t start = uint64_t(t) * kRun; start < kSize; start += 2 * kRun) {
        const uint64_t count = std::min<uint64_t>(kRun, kSize - start);
        EXPECT_EQ(write_region(a, {start}, {count}, std::vector<int32_t>(count, t * 100000 + round)), ZARR_OK);
      }
    }
  };
  std::thread a(writer, first.get(), 0), b(writer, second.get(), 1);
  a.join();
  b.join();
  const std::vector<int32_t> got = read_all<int32_t>(first);
  size_t lost = 0;
  for (size_t i = 0; i < got.size(); ++i) lost += got[i] != int32_t(((i / kRun) % 2) * 100000 + 3);
  EXPECT_EQ(lost, 0u) << "elements whose last write was lost";
}
