// One handle used from many threads at once.
#include <atomic>
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
