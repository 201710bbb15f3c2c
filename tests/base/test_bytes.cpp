// ScratchBuffer: the per-thread buffer the engine reuses from chunk to chunk.
#include <gtest/gtest.h>

#include <cstring>
#include <new>

#include "base/bytes.h"
#include "support/test_support.h"

using namespace zarr;

TEST(ScratchBuffer, GrowsOnDemandAndKeepsItsRoom) {
  ScratchBuffer b;
  EXPECT_EQ(b.capacity(), 0u);
  uint8_t* first = b.reserve(100);
  ASSERT_NE(first, nullptr);
  std::memset(first, 1, 100);
  EXPECT_EQ(b.reserve(50), first) << "a smaller request reuses the buffer";
  EXPECT_GE(b.reserve(1000), b.data());
  EXPECT_EQ(b.capacity(), 1000u);
  b.release_above(2000);
  EXPECT_EQ(b.capacity(), 1000u);
  b.release_above(500);
  EXPECT_EQ(b.capacity(), 0u);
  EXPECT_EQ(b.data(), nullptr);
}

// A request no machine can meet fails, and leaves the buffer empty rather
// than claiming its old room with no memory behind it (an engine thread
// that hit such a chunk crashed on its next, small, chunk).
TEST(ScratchBuffer, AFailedReservationLeavesItEmptyAndUsable) {
#ifdef ZARR_TEST_HUGE_ALLOCATIONS_ABORT
  GTEST_SKIP() << "a sanitizer's allocator aborts on a 1 PiB allocation instead of failing it";
#else
  ScratchBuffer b;
  b.reserve(4096);
  EXPECT_THROW(b.reserve(size_t{1} << 50), std::bad_alloc);
  EXPECT_EQ(b.capacity(), 0u);
  uint8_t* again = b.reserve(4096);
  ASSERT_NE(again, nullptr);
  std::memset(again, 2, 4096);
  EXPECT_EQ(again[4095], 2);
#endif
}
