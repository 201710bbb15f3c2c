// Many threads reading and writing one array for a bounded time, through one
// shared handle and through a handle each (docs/reliability.md#threads).
// Every write fills a whole row with one value of its own; readers check
// that each chunk's part of a row is one write's value, never a mix, and at
// the end every row holds the last value its owner wrote.
#include <atomic>
#include <algorithm>
#include <chrono>
#include <functional>
#include <random>
#include <thread>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

constexpr uint64_t kRows = 128, kCols = 256, kChunk = 32;
constexpr int kWriters = 4, kReaders = 2;
constexpr auto kRunTime = std::chrono::milliseconds(600);

struct Tally {
  std::atomic<long> writes{0}, reads{0}, torn{0}, failures{0};
};

using RowPicker = std::function<uint64_t(std::mt19937&, int writer)>;

// Writes whole rows, each with a value of its own, until `stop`.
void writer(zarr_array* a, int id, const RowPicker& pick_row, std::vector<int32_t>& last, Tally& tally,
            std::chrono::steady_clock::time_point stop) {
  std::mt19937 rng(static_cast<uint32_t>(id));
  std::vector<int32_t> row(kCols);
  for (int32_t n = 1; std::chrono::steady_clock::now() < stop; ++n) {
    const uint64_t r = pick_row(rng, id);
    const int32_t value = (id + 1) * 10000000 + n;
    std::fill(row.begin(), row.end(), value);
    if (write_region(a, {r, 0}, {1, kCols}, row) != ZARR_OK) {
      ++tally.failures;
      return;
    }
    last[r] = value;
    ++tally.writes;
  }
}

// Random blocks; within each row, each chunk's span must hold one value.
void reader(zarr_array* a, int id, Tally& tally, std::chrono::steady_clock::time_point stop) {
  std::mt19937 rng(static_cast<uint32_t>(100 + id));
  while (std::chrono::steady_clock::now() < stop) {
    const uint64_t r0 = rng() % kRows, nr = 1 + rng() % (kRows - r0);
    std::vector<int32_t> block(nr * kCols);
    const uint64_t start[2] = {r0, 0}, count[2] = {nr, kCols};
    if (zarr_read_region(a, 2, start, count, block.data(), block.size() * sizeof(int32_t)) != ZARR_OK) {
      ++tally.failures;
      return;
    }
    for (uint64_t r = 0; r < nr; ++r) {
      for (uint64_t c = 0; c < kCols; c += kChunk) {
        const int32_t* span = &block[r * kCols + c];
        if (!std::all_of(span, span + kChunk, [&](int32_t v) { return v == span[0]; })) ++tally.torn;
      }
    }
    ++tally.reads;
  }
}

// Runs the writers and readers; thread i uses handle_for(i).
void run(const std::function<zarr_array*(int)>& handle_for, const RowPicker& pick_row, std::vector<int32_t>& last,
         Tally& tally) {
  const auto stop = std::chrono::steady_clock::now() + kRunTime;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back(writer, handle_for(w), w, std::cref(pick_row), std::ref(last), std::ref(tally), stop);
  }
  for (int r = 0; r < kReaders; ++r) threads.emplace_back(reader, handle_for(kWriters + r), r, std::ref(tally), stop);
  for (auto& t : threads) t.join();
}

void expect_clean_run(const Tally& tally) {
  EXPECT_EQ(tally.failures.load(), 0) << zarr_last_error();
  EXPECT_EQ(tally.torn.load(), 0);
  EXPECT_GT(tally.writes.load(), 0);
  EXPECT_GT(tally.reads.load(), 0);
}

void expect_rows_hold_their_last_writes(zarr_array* a, const std::vector<int32_t>& last) {
  const std::vector<int32_t> all = read_all<int32_t>(a);
  size_t wrong = 0;
  for (uint64_t r = 0; r < kRows; ++r) {
    for (uint64_t c = 0; c < kCols; ++c) wrong += all[r * kCols + c] != last[r];
  }
  EXPECT_EQ(wrong, 0u) << "elements lost or overwritten";
}

std::string metadata() {
  return array_meta("[" + std::to_string(kRows) + ", " + std::to_string(kCols) + "]",
                    "[" + std::to_string(kChunk) + ", " + std::to_string(kChunk) + "]", "<i4");
}

// Rows are dealt to writers round robin (row % kWriters), so every chunk
// holds rows of every writer: their writes share chunks.
TEST(Stress, ThreadsSharingOneHandleLoseNothingAndNeverTear) {
  ArrayPtr a = create_array("memory://stress-one-handle/a", metadata());
  std::vector<int32_t> last(kRows, 0);
  Tally tally;
  run([&](int) { return a.get(); },
      [](std::mt19937& rng, int w) { return (rng() % (kRows / kWriters)) * kWriters + static_cast<uint64_t>(w); },
      last, tally);
  expect_clean_run(tally);
  expect_rows_hold_their_last_writes(a, last);
  RecordProperty("writes", static_cast<int>(tally.writes.load()));
  RecordProperty("reads", static_cast<int>(tally.reads.load()));
}

// Separate handles on one array share the process's chunk locks
// (Threads.SeparateHandlesOnOneArrayLoseNoWrite shows that no write is lost);
// this test is about tearing, so writers own whole chunk rows here (writer w
// the rows of chunk row w) and readers race them through handles of their own.
TEST(Stress, ThreadsWithAHandleEachNeverTear) {
  TempDir dir;
  create_array(dir / "a", metadata());
  std::vector<ArrayPtr> handles;
  for (int i = 0; i < kWriters + kReaders; ++i) handles.push_back(open_array(dir / "a", "r+"));
  std::vector<int32_t> last(kRows, 0);
  Tally tally;
  static_assert(kRows == kChunk * kWriters, "one chunk row per writer");
  run([&](int i) { return handles[i].get(); },
      [](std::mt19937& rng, int w) { return static_cast<uint64_t>(w) * kChunk + rng() % kChunk; }, last, tally);
  expect_clean_run(tally);
  expect_rows_hold_their_last_writes(open_array(dir / "a", "r"), last);
}

}  // namespace
