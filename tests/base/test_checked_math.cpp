#include <gtest/gtest.h>

#include <limits>

#include "base/checked_math.h"
#include "base/error.h"

using namespace zarr;

namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

TEST(CheckedMath, SumsAndProductsAreExactOrNothing) {
  EXPECT_EQ(checked_add<uint64_t>(kMax - 1, 1), kMax);
  EXPECT_EQ(checked_add<uint64_t>(kMax, 1), std::nullopt);
  EXPECT_EQ(checked_mul<uint64_t>(uint64_t{1} << 32, (uint64_t{1} << 32) - 1), kMax - (uint64_t{1} << 32) + 1);
  EXPECT_EQ(checked_mul<uint64_t>(uint64_t{1} << 32, uint64_t{1} << 32), std::nullopt);
  // Mixed types: a signed stride times an unsigned count, checked exactly.
  EXPECT_EQ(checked_mul(int64_t{-4}, uint64_t{3}), -12);
  EXPECT_EQ(checked_mul(int64_t{1}, kMax), std::nullopt);
  EXPECT_EQ(checked_mul(int64_t{0}, kMax), 0);
  EXPECT_EQ(checked_add(INT64_MAX, size_t{1}), std::nullopt);
}

TEST(CheckedMath, ProductsOfExtents) {
  EXPECT_EQ(product_of({}), 1u);
  EXPECT_EQ(product_of({kMax}), kMax);
  EXPECT_EQ(product_of({3, 5, 7}), 105u);
  EXPECT_EQ(product_of({kMax, 2}), std::nullopt);
  // An empty box has no elements, however large its other extents.
  EXPECT_EQ(product_of({kMax, kMax, 0}), 0u);
  EXPECT_EQ(checked_product({uint64_t{1} << 32, (uint64_t{1} << 32) - 1}, "shape", ZARR_ERR_INVALID_METADATA),
            kMax - (uint64_t{1} << 32) + 1);
}

// The chunk count along an axis of 2^64 - 1 was (shape + chunk - 1) / chunk,
// which wraps to 0 for chunks of 10.
TEST(CheckedMath, CeilingDivisionNearTheTop) {
  EXPECT_EQ(ceil_div(kMax, 10), 1844674407370955162u);
  EXPECT_EQ(ceil_div(kMax, 1), kMax);
  EXPECT_EQ(ceil_div(kMax, kMax), 1u);
  EXPECT_EQ(ceil_div(0, 7), 0u);
  EXPECT_EQ(ceil_div(kMax - 4, 5), kMax / 5);  // whole chunks
  EXPECT_EQ(ceil_div(std::vector<uint64_t>{kMax, 10, 9}, {10, 5, 10}), (std::vector<uint64_t>{1844674407370955162u, 2, 1}));
}

// The last chunk of an axis of 2^64 - 1 nominally ends at 2^64 + 5.
TEST(CheckedMath, ExtentsBelowAnEndNeverWrap) {
  EXPECT_EQ(extent_below(kMax - 5, 10, kMax), 5u);
  EXPECT_EQ(extent_below(kMax - 1, kMax, kMax), 1u);
  EXPECT_EQ(extent_below(kMax, 10, kMax), 0u);
  EXPECT_EQ(extent_below(20, 10, 5), 0u);
  EXPECT_EQ(extent_below(0, 10, 25), 10u);
  EXPECT_TRUE(run_inside(kMax - 1, 1, kMax));
  EXPECT_TRUE(run_inside(0, kMax, kMax));
  EXPECT_FALSE(run_inside(kMax, 1, kMax));
  EXPECT_FALSE(run_inside(1, kMax, kMax));
  EXPECT_FALSE(run_inside(kMax - 1, 2, kMax));
  EXPECT_TRUE(run_inside(kMax, 0, kMax));
}

// No buffer holds more than PTRDIFF_MAX bytes: byte counts past it are
// "more than" that, never a wrapped number a small buffer could match.
TEST(CheckedMath, ByteCountsStopAtTheLargestBuffer) {
  EXPECT_EQ(byte_count(10, 4), 40u);
  EXPECT_EQ(byte_count(uint64_t{1} << 62, 1), size_t{1} << 62);
  EXPECT_EQ(byte_count(static_cast<uint64_t>(INT64_MAX), 1), static_cast<size_t>(INT64_MAX));
  EXPECT_EQ(byte_count(uint64_t{1} << 63, 1), std::nullopt);
  EXPECT_EQ(byte_count(uint64_t{1} << 62, 4), std::nullopt);  // 2^64: wrapped to 0 before
  EXPECT_EQ(byte_count(kMax, 0), 0u);
  EXPECT_EQ(byte_count_text(40), "40");
  EXPECT_EQ(byte_count_text(std::nullopt), "more than 9223372036854775807");
}

}  // namespace
