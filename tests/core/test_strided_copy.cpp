#include <gtest/gtest.h>

#include <numeric>

#include "core/strided_copy.h"

using namespace zarr;

TEST(Strides, COrderAndFOrder) {
  EXPECT_EQ(c_order_strides({2, 3, 4}, 2), (std::vector<int64_t>{24, 8, 2}));
  EXPECT_EQ(f_order_strides({2, 3, 4}, 2), (std::vector<int64_t>{2, 4, 12}));
}

TEST(StridedCopy, SubBoxOfCOrderBuffer) {
  std::vector<uint16_t> src(4 * 5);
  std::iota(src.begin(), src.end(), 0);
  std::vector<uint16_t> dst(2 * 3, 0);
  auto ss = c_order_strides({4, 5}, 2);
  const uint8_t* origin = reinterpret_cast<const uint8_t*>(src.data()) + byte_offset({1, 2}, ss);
  strided_copy({2, 3}, 2, origin, ss, reinterpret_cast<uint8_t*>(dst.data()), c_order_strides({2, 3}, 2));
  EXPECT_EQ(dst, (std::vector<uint16_t>{7, 8, 9, 12, 13, 14}));
}

TEST(StridedCopy, COrderToFOrderTransposesLayout) {
  std::vector<int32_t> src = {0, 1, 2, 3, 4, 5};  // 2x3 C order
  std::vector<int32_t> dst(6, -1);
  strided_copy({2, 3}, 4, reinterpret_cast<uint8_t*>(src.data()), c_order_strides({2, 3}, 4),
               reinterpret_cast<uint8_t*>(dst.data()), f_order_strides({2, 3}, 4));
  EXPECT_EQ(dst, (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
}

TEST(StridedCopy, NegativeStridesReverse) {
  std::vector<uint8_t> src = {1, 2, 3, 4};
  std::vector<uint8_t> dst(4, 0);
  strided_copy({4}, 1, src.data(), {1}, dst.data() + 3, {-1});
  EXPECT_EQ(dst, (std::vector<uint8_t>{4, 3, 2, 1}));
}

// Streaming stores split each run into an unaligned head, 16-byte stores and a
// tail: every split must copy exactly the box, touching nothing around it.
TEST(StridedCopy, StreamingStoresCopyExactlyTheBox) {
  for (size_t row : {1, 15, 16, 17, 63, 64, 65, 127, 1000, 1024, 4099}) {
    for (size_t misalign = 0; misalign < 18; ++misalign) {
      SCOPED_TRACE("row " + std::to_string(row) + " bytes, destination at +" + std::to_string(misalign));
      const size_t rows = 3, dst_pitch = row + 37;
      std::vector<uint8_t> src(rows * row);
      std::iota(src.begin(), src.end(), uint8_t{1});
      std::vector<uint8_t> cached(misalign + rows * dst_pitch + 64, 0xEE), streamed = cached;
      const std::vector<int64_t> src_strides{static_cast<int64_t>(row), 1}, dst_strides{
                                                                              static_cast<int64_t>(dst_pitch), 1};
      strided_copy({rows, row}, 1, src.data(), src_strides, cached.data() + misalign, dst_strides, Stores::Cached);
      strided_copy({rows, row}, 1, src.data(), src_strides, streamed.data() + misalign, dst_strides,
                   Stores::Streaming);
      EXPECT_EQ(streamed, cached);
      EXPECT_EQ(cached[misalign + row], 0xEE);  // the gap after a row is untouched
    }
  }
}

TEST(StridedCopy, ZeroDimensionalCopiesOneItem) {
  uint64_t a = 42, b = 0;
  strided_copy({}, 8, reinterpret_cast<uint8_t*>(&a), {}, reinterpret_cast<uint8_t*>(&b), {});
  EXPECT_EQ(b, 42u);
}

TEST(StridedCopy, EmptyBoxTouchesNothing) {
  std::vector<uint8_t> dst(4, 7);
  strided_copy({0, 3}, 1, nullptr, {3, 1}, dst.data(), {3, 1});
  EXPECT_EQ(dst, (std::vector<uint8_t>(4, 7)));
}

TEST(StridedFill, FillsOnlyTheBox) {
  std::vector<uint16_t> dst(3 * 4, 0);
  auto ds = c_order_strides({3, 4}, 2);
  strided_fill({2, 2}, {0x34, 0x12}, reinterpret_cast<uint8_t*>(dst.data()) + byte_offset({1, 1}, ds), ds);
  EXPECT_EQ(dst, (std::vector<uint16_t>{0, 0, 0, 0, 0, 0x1234, 0x1234, 0, 0, 0x1234, 0x1234, 0}));
}

TEST(StridedFill, ZeroItemUsesFastPath) {
  std::vector<uint32_t> dst(6, 9);
  strided_fill({2, 3}, {0, 0, 0, 0}, reinterpret_cast<uint8_t*>(dst.data()), c_order_strides({2, 3}, 4));
  EXPECT_EQ(dst, (std::vector<uint32_t>(6, 0)));
}

TEST(StridedExtent, PositiveNegativeAndOverflow) {
  int64_t lo, end;
  ASSERT_TRUE(strided_extent({2, 3}, 4, {12, 4}, lo, end));
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(end, 24);
  ASSERT_TRUE(strided_extent({4}, 1, {-1}, lo, end));
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(end, 1);
  EXPECT_FALSE(strided_extent({UINT64_MAX}, 1, {INT64_MAX}, lo, end));
  ASSERT_TRUE(strided_extent({0, 5}, 8, {40, 8}, lo, end));
  EXPECT_EQ(end, 0);
}
