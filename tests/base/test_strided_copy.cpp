#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "base/error.h"
#include "base/strided_copy.h"

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
      strided_copy({rows, row}, 1, src.data(), src_strides, cached.data() + misalign, dst_strides, MemoryWrites::Cached);
      strided_copy({rows, row}, 1, src.data(), src_strides, streamed.data() + misalign, dst_strides,
                   MemoryWrites::Streaming);
      EXPECT_EQ(streamed, cached);
      EXPECT_EQ(cached[misalign + row], 0xEE);  // the gap after a row is untouched
    }
  }
}

// The run lengths around the thresholds of split_for_streaming: a cache line,
// the shortest run streamed when it starts inside a line (256), a few lines.
const size_t kRunLengths[] = {0,   1,   15,  16,  17,  48,  63,  64,  65,  79,  80,  127, 128,
                              129, 191, 192, 193, 255, 256, 257, 271, 319, 320, 321, 383, 384,
                              385, 511, 512, 513, 575, 1000, 1024, 4099};

// A streamed run is copied byte for byte as memcpy copies it, at every
// destination and source offset within two cache lines, and the guard bytes
// on either side of it stay as they were.
TEST(StridedCopy, StreamingRunsCopyAsMemcpyAtEveryAlignment) {
  constexpr size_t kGuard = 128, kMaxRun = 4099;
  // 64-byte aligned bases, so offset k puts the run k bytes past a line.
  std::vector<uint8_t> src_block(kMaxRun + 2 * kGuard + 64), dst_block(src_block.size() + kGuard);
  const auto aligned = [](uint8_t* p) { return p + (64 - reinterpret_cast<uintptr_t>(p) % 64) % 64; };
  uint8_t* const src_base = aligned(src_block.data());
  uint8_t* const dst_base = aligned(dst_block.data());
  const size_t span = kMaxRun + 2 * kGuard;
  for (size_t i = 0; i < span; ++i) src_base[i] = static_cast<uint8_t>(i * 7 + i / 251 + 1);
  std::vector<uint8_t> expected(span);
  for (size_t n : kRunLengths) {
    for (size_t dst_off = 0; dst_off < 128; ++dst_off) {
      for (size_t src_off = 0; src_off < 128; ++src_off) {
        const size_t watched = 128 + n + kGuard;  // every offset's run and the guard after it
        std::fill(dst_base, dst_base + watched, uint8_t{0xEE});
        std::fill(expected.begin(), expected.begin() + watched, uint8_t{0xEE});
        std::memcpy(expected.data() + dst_off, src_base + src_off, n);
        strided_copy({n}, 1, src_base + src_off, {1}, dst_base + dst_off, {1}, MemoryWrites::Streaming);
        if (!std::equal(expected.begin(), expected.begin() + watched, dst_base)) {
          ADD_FAILURE() << n << " bytes from offset " << src_off << " to offset " << dst_off
                        << " differ from memcpy's copy (or touch the guard bytes)";
          return;
        }
      }
    }
  }
}

// Streaming stores write only whole, aligned cache lines of the destination:
// the partial lines at either end of a run go through the cache, and a run
// that starts inside a line and spans less than a few lines is not streamed
// at all (issue 25: 64-byte rows 16 bytes past a line took twice as long
// streamed on an Intel Xeon).
TEST(StridedCopy, StreamingSplitsRunsAtCacheLines) {
  for (size_t n : kRunLengths) {
    for (uintptr_t dst = 4096; dst < 4096 + 128; ++dst) {
      SCOPED_TRACE(std::to_string(n) + " bytes to offset " + std::to_string(dst % 128));
      const RunSplit split = split_for_streaming(dst, n);
      EXPECT_EQ(split.head + split.lines * 64 + split.tail, n);
      if (split.lines == 0) {
        EXPECT_EQ(split.head, n);
        continue;
      }
      EXPECT_EQ((dst + split.head) % 64, 0u) << "the streamed lines start on a line";
      EXPECT_LT(split.head, 64u);
      EXPECT_LT(split.tail, 64u);
    }
    // Where it streams: a line-aligned run of a line or more, an unaligned one
    // from 256 bytes on.
    EXPECT_EQ(split_for_streaming(4096, n).lines, n / 64);
    EXPECT_EQ(split_for_streaming(4096 + 16, n).lines, n < 256 ? 0 : (n - 48) / 64);
  }
}

// A chunk handed over in pieces of any size puts the same bytes where
// strided_copy puts them: whole chunks and boxes of edge chunks, rows split
// across pieces, cached and streaming stores.
TEST(PieceScatter, PiecesOfAnySizeCopyTheBoxAsAWholeCopyDoes) {
  const std::vector<uint64_t> chunk{3, 5, 70};  // rows of 140 bytes (uint16)
  std::vector<uint8_t> stored(3 * 5 * 70 * 2);
  std::iota(stored.begin(), stored.end(), uint8_t{3});
  const std::vector<int64_t> chunk_strides = c_order_strides(chunk, 2);
  struct Box {
    std::vector<uint64_t> offset, count;
  };
  for (const Box& box : {Box{{0, 0, 0}, {3, 5, 70}}, Box{{0, 0, 0}, {2, 4, 66}}, Box{{1, 2, 3}, {1, 1, 1}},
                         Box{{0, 1, 0}, {3, 3, 70}}}) {
    // The box lands in a destination with room around each row.
    const std::vector<uint64_t> dst_shape{box.count[0], box.count[1], box.count[2] + 9};
    const std::vector<int64_t> dst_strides = c_order_strides(dst_shape, 2);
    const size_t dst_size = dst_shape[0] * dst_shape[1] * dst_shape[2] * 2 + 8;
    std::vector<uint8_t> expected(dst_size, 0xEE);
    strided_copy(box.count, 2, stored.data() + byte_offset(box.offset, chunk_strides), chunk_strides,
                 expected.data() + 6, dst_strides);
    for (size_t piece : {1, 13, 140, 512, 4096, 5000}) {
      for (MemoryWrites writes : {MemoryWrites::Cached, MemoryWrites::Streaming}) {
        SCOPED_TRACE("box at " + std::to_string(box.offset[1]) + ", pieces of " + std::to_string(piece) + " bytes");
        std::vector<uint8_t> got(dst_size, 0xEE);
        PieceScatter scatter(c_order_strides(chunk, 2), box.offset, box.count, 2, got.data() + 6, dst_strides, writes);
        ASSERT_TRUE(scatter.usable());
        for (size_t at = 0; at < stored.size(); at += piece) {
          scatter.put(stored.data() + at, at, std::min(piece, stored.size() - at));
        }
        scatter.finish();
        EXPECT_EQ(got, expected);
      }
    }
  }
}

TEST(PieceScatter, SingleElementRowsAreNotWorthIt) {
  const std::vector<uint64_t> chunk{4, 6};
  std::vector<uint8_t> dst(4 * 6 * 4);
  PieceScatter fortran(c_order_strides(chunk, 4), {0, 0}, chunk, 4, dst.data(), f_order_strides(chunk, 4), MemoryWrites::Streaming);
  EXPECT_FALSE(fortran.usable());
  PieceScatter c_order(c_order_strides(chunk, 4), {0, 0}, chunk, 4, dst.data(), c_order_strides(chunk, 4), MemoryWrites::Streaming);
  EXPECT_TRUE(c_order.usable());
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

// Strides are signed 64-bit byte offsets. An empty box may have extents whose
// strides do not fit (a region [0, 2^62, 4]: its outer stride would be 2^64,
// which overflowed): nothing is addressed through them, and copying or
// filling such a box touches nothing. Any other box that large is a bug.
TEST(Strides, EmptyBoxesOfHugeExtentsDoNotOverflow) {
  const std::vector<uint64_t> empty = {0, uint64_t{1} << 62, 4};
  const std::vector<int64_t> strides = c_order_strides(empty, 1);
  EXPECT_EQ(strides[1], 4);
  EXPECT_EQ(strides[2], 1);
  uint8_t dst[4] = {1, 2, 3, 4};
  strided_fill(empty, {9}, dst, strides);
  strided_copy(empty, 1, dst, strides, dst, strides);
  EXPECT_EQ(dst[0], 1);
  EXPECT_EQ(f_order_strides({4, uint64_t{1} << 62, 0}, 1)[1], 4);
  try {
    c_order_strides({2, uint64_t{1} << 62, 4}, 1);
    FAIL() << "a non-empty box whose outer stride is 2^64 bytes has no strides";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_INTERNAL);
  }
  EXPECT_EQ(c_order_strides({uint64_t{1} << 61, 2, 2}, 1), (std::vector<int64_t>{4, 2, 1}));  // 2^63 bytes
}

TEST(StridedExtent, SpansOfTheLargestCountsAreCheckedExactly) {
  int64_t lo = 0, end = 0;
  EXPECT_TRUE(strided_extent({UINT64_MAX}, 1, {0}, lo, end)) << "zero strides repeat one element";
  EXPECT_EQ(end, 1);
  ASSERT_TRUE(strided_extent({uint64_t{1} << 62, 2}, 1, {-2, 1}, lo, end));
  EXPECT_EQ(lo, INT64_MIN + 2);
  EXPECT_EQ(end, 2);
  EXPECT_FALSE(strided_extent({uint64_t{1} << 62, 2}, 1, {2, 1}, lo, end)) << "the end is 2^63";
  EXPECT_FALSE(strided_extent({2}, 8, {INT64_MAX - 7}, lo, end));
}
