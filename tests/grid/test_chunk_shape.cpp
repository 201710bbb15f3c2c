// Chunk shape selection (TensorStore's chunk_layout rules): the examples of
// TensorStore's zarr driver page, explicit and partial shapes, clamping, and
// every rejected input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "base/error.h"
#include "grid/chunk_shape.h"

using namespace zarr;

namespace {

using Shape = std::vector<uint64_t>;

constexpr uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();

ChunkShapeConstraints aspect(std::vector<double> ratio, std::optional<int64_t> elements = std::nullopt) {
  ChunkShapeConstraints c;
  c.aspect_ratio = std::move(ratio);
  c.elements = elements;
  return c;
}

ChunkShapeConstraints given(std::vector<int64_t> shape) {
  ChunkShapeConstraints c;
  c.shape = std::move(shape);
  return c;
}

uint64_t product(const Shape& s) {
  uint64_t p = 1;
  for (uint64_t v : s) p *= v;
  return p;
}

// The message of the ZARR_ERR_INVALID_ARGUMENT the call throws ("" if none).
template <typename F>
std::string invalid_argument_message(F&& call) {
  try {
    call();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_INVALID_ARGUMENT) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

// --- The examples of the TensorStore zarr driver page (uint16 items). ---

TEST(ChunkShape, SpecExampleUnconstrained) {
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, {}), (Shape{101, 101, 101}));
}

TEST(ChunkShape, SpecExampleExplicitShape) {
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, given({100, 200, 300})), (Shape{100, 200, 300}));
}

TEST(ChunkShape, SpecExampleAspectRatio) {
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, aspect({1, 2, 2})), (Shape{64, 128, 128}));
}

TEST(ChunkShape, SpecExampleAspectRatioAndElements) {
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, aspect({1, 2, 2}, 2000000)), (Shape{79, 159, 159}));
}

// --- The selection rule. ---

TEST(ChunkShape, ItemSizeDoesNotChangeTheChoice) {
  // The target counts elements, not bytes (TensorStore gives float32 the same).
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 4, {}), (Shape{101, 101, 101}));
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 1, {}), (Shape{101, 101, 101}));
}

TEST(ChunkShape, ExactTargetIsReached) {
  EXPECT_EQ(choose_chunk_shape({2000, 2000, 2000}, 1, aspect({}, 1000)), (Shape{10, 10, 10}));
  EXPECT_EQ(choose_chunk_shape({5000}, 1, aspect({}, 1000)), (Shape{1000}));
}

TEST(ChunkShape, LargestChunkNotAboveTheTarget) {
  // With ratios 1:2:3 every size changes at a multiple of 1/6 of the factor,
  // so stepping through those finds the largest chunk within the target.
  for (int64_t elements : {1, 2, 7, 999, 1000, 4097, 123456, 1000000, 2000000}) {
    Shape best;
    for (uint64_t sixths = 0;; ++sixths) {
      const Shape sizes{std::max<uint64_t>(1, sixths / 6), std::max<uint64_t>(1, sixths * 2 / 6),
                        std::max<uint64_t>(1, sixths * 3 / 6)};
      if (product(sizes) > static_cast<uint64_t>(elements)) break;
      best = sizes;
    }
    EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, aspect({1, 2, 3}, elements)), best) << elements;
  }
}

TEST(ChunkShape, ZeroAspectRatioMeansOne) {
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, aspect({0, 0, 0})), (Shape{101, 101, 101}));
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, aspect({0, 2, 2})),
            choose_chunk_shape({1000, 2000, 3000}, 2, aspect({1, 2, 2})));
}

TEST(ChunkShape, AspectRatioScaleDoesNotMatter) {
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, aspect({0.5, 1, 1})), (Shape{64, 128, 128}));
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, aspect({100, 200, 200})), (Shape{64, 128, 128}));
}

TEST(ChunkShape, SmallDimensionsAreClampedToTheirExtent) {
  // The clamped dimension leaves its share of the target to the others.
  EXPECT_EQ(choose_chunk_shape({2000, 2000, 1}, 1, aspect({}, 1000)), (Shape{31, 31, 1}));
  EXPECT_EQ(choose_chunk_shape({10, 20, 30}, 2, {}), (Shape{10, 20, 30}));
  EXPECT_EQ(choose_chunk_shape({5, 100000000}, 2, {}), (Shape{5, 209715}));
}

TEST(ChunkShape, ZeroSizeDimensionsGetChunkSizeOne) {
  EXPECT_EQ(choose_chunk_shape({0, 0}, 2, {}), (Shape{1, 1}));
  EXPECT_EQ(choose_chunk_shape({0, 1000000}, 2, {}), (Shape{1, 1000000}));
  EXPECT_EQ(choose_chunk_shape({0, 5}, 2, given({-1, -1})), (Shape{1, 5}));
}

TEST(ChunkShape, RankZero) {
  EXPECT_EQ(choose_chunk_shape({}, 8, {}), Shape{});
}

TEST(ChunkShape, HugeShapesDoNotOverflow) {
  EXPECT_EQ(choose_chunk_shape({kMaxU64, kMaxU64}, 8, {}), (Shape{1024, 1024}));
  EXPECT_EQ(choose_chunk_shape({kMaxU64}, 1, aspect({}, std::numeric_limits<int64_t>::max())),
            (Shape{static_cast<uint64_t>(std::numeric_limits<int64_t>::max())}));
  const Shape chunk = choose_chunk_shape({kMaxU64, kMaxU64, kMaxU64}, 1, aspect({1, 1e-300, 1e300}, 1 << 30));
  EXPECT_LE(product(chunk), uint64_t{1} << 30);
  EXPECT_EQ(chunk[1], 1u);
}

// --- Explicit and partial chunk shapes. ---

TEST(ChunkShape, MinusOneMeansFullExtent) {
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, given({-1, 200, -1})), (Shape{1000, 200, 3000}));
}

TEST(ChunkShape, GivenSizeMayExceedTheExtent) {
  // As in TensorStore and zarr-python: a given chunk is kept as it is.
  EXPECT_EQ(choose_chunk_shape({10, 10}, 2, given({100, 3})), (Shape{100, 3}));
}

TEST(ChunkShape, ZeroEntriesAreChosen) {
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, given({0, 0, 0})), (Shape{101, 101, 101}));
}

TEST(ChunkShape, PartialShapeWithAspectRatio) {
  // 64 rows given: the other two share 2^20 / 64 = 16384 elements at 1:4.
  ChunkShapeConstraints c = given({64, 0, 0});
  c.aspect_ratio = {0, 1, 4};
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, c), (Shape{64, 64, 256}));
  // The aspect ratio of a given dimension is ignored.
  c.aspect_ratio = {1000, 1, 4};
  EXPECT_EQ(choose_chunk_shape({1000, 2000, 3000}, 2, c), (Shape{64, 64, 256}));
}

TEST(ChunkShape, PartialShapeWithFullExtent) {
  EXPECT_EQ(choose_chunk_shape({4, 1000, 1000}, 2, given({-1, 0, 0})), (Shape{4, 512, 512}));
}

TEST(ChunkShape, GivenSizesAboveTheTargetLeaveOnesElsewhere) {
  ChunkShapeConstraints c = given({5000, 0});
  c.elements = 1000;
  EXPECT_EQ(choose_chunk_shape({10000, 10000}, 1, c), (Shape{5000, 1}));
}

// --- Rejected inputs. ---

TEST(ChunkShapeErrors, ShapeRankMismatch) {
  const std::string msg = invalid_argument_message([] { choose_chunk_shape({10, 10, 10}, 2, given({5, 5})); });
  EXPECT_NE(msg.find("chunk_layout.chunk.shape"), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 entries"), std::string::npos) << msg;
  EXPECT_NE(msg.find("3 dimensions"), std::string::npos) << msg;
}

TEST(ChunkShapeErrors, AspectRatioRankMismatch) {
  const std::string msg = invalid_argument_message([] { choose_chunk_shape({10, 10}, 2, aspect({1, 2, 3})); });
  EXPECT_NE(msg.find("chunk_layout.chunk.aspect_ratio"), std::string::npos) << msg;
}

TEST(ChunkShapeErrors, ShapeEntryBelowMinusOne) {
  const std::string msg = invalid_argument_message([] { choose_chunk_shape({10, 10}, 2, given({5, -2})); });
  EXPECT_NE(msg.find("chunk_layout.chunk.shape[1]"), std::string::npos) << msg;
}

TEST(ChunkShapeErrors, NegativeAspectRatio) {
  const std::string msg = invalid_argument_message([] { choose_chunk_shape({10, 10}, 2, aspect({1, -2})); });
  EXPECT_NE(msg.find("chunk_layout.chunk.aspect_ratio[1]"), std::string::npos) << msg;
}

TEST(ChunkShapeErrors, NonFiniteAspectRatio) {
  for (double bad : {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    const std::string msg = invalid_argument_message([&] { choose_chunk_shape({10, 10}, 2, aspect({bad, 1})); });
    EXPECT_NE(msg.find("chunk_layout.chunk.aspect_ratio[0]"), std::string::npos) << msg;
  }
}

TEST(ChunkShapeErrors, ElementsNotPositive) {
  for (int64_t bad : {int64_t{0}, int64_t{-5}}) {
    const std::string msg = invalid_argument_message([&] { choose_chunk_shape({10, 10}, 2, aspect({}, bad)); });
    EXPECT_NE(msg.find("chunk_layout.chunk.elements"), std::string::npos) << msg;
  }
}

TEST(ChunkShapeErrors, ElementsCheckedEvenWhenEveryDimensionIsGiven) {
  ChunkShapeConstraints c = given({5, 5});
  c.elements = 0;
  EXPECT_NE(invalid_argument_message([&] { choose_chunk_shape({10, 10}, 2, c); }).find("chunk_layout.chunk.elements"),
            std::string::npos);
}

TEST(ChunkShapeErrors, ChunkBytesOverflow) {
  const int64_t big = int64_t{1} << 40;
  const std::string msg = invalid_argument_message([&] { choose_chunk_shape({10, 10}, 8, given({big, big})); });
  EXPECT_NE(msg.find("chunk_layout.chunk.shape"), std::string::npos) << msg;
  // The elements fit, the bytes do not.
  const int64_t half = int64_t{1} << 31;
  EXPECT_NO_THROW(choose_chunk_shape({10, 10}, 1, given({half, half})));
  EXPECT_NE(invalid_argument_message([&] { choose_chunk_shape({10, 10}, 8, given({half, half})); })
                .find("chunk_layout.chunk.shape"),
            std::string::npos);
}

}  // namespace
