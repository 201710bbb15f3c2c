// Chunk shape selection for new arrays, as TensorStore's chunk_layout does it
// (ChunkLayout/Grid.shape, .aspect_ratio and .elements; docs/spec.md,
// "Chunk shape selection").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace zarr {

// TensorStore's default target number of elements per chunk. Its zarr driver
// page calls this "1 million"; the value its own examples come out of
// ([101, 101, 101] for a 1000 x 2000 x 3000 array) is 2^20.
inline constexpr int64_t kDefaultChunkElements = int64_t{1} << 20;

// Special entries of ChunkShapeConstraints::shape.
inline constexpr int64_t kChooseChunkSize = 0;  // JSON null or 0: chosen from aspect ratio and elements
inline constexpr int64_t kFullExtent = -1;      // the whole extent of the dimension (at least 1)

// TensorStore's chunk grid constraints ("chunk_layout": {"chunk": {...}}).
struct ChunkShapeConstraints {
  // Per dimension: a size > 0 used as given, kFullExtent, or kChooseChunkSize.
  // Empty: every dimension is chosen.
  std::vector<int64_t> shape;
  // Per dimension: relative chunk extents of the chosen dimensions; 0 means 1.
  // Empty: 1 for every dimension.
  std::vector<double> aspect_ratio;
  // Target number of elements per chunk; kDefaultChunkElements when absent.
  std::optional<int64_t> elements;
};

// The chunk shape of a new array of `array_shape` whose items are `item_size`
// bytes (0 for variable-length items).
//
// Dimensions with a given size keep it (kFullExtent takes the extent, at least
// 1). The other dimensions get max(1, min(floor(factor * aspect_ratio[i]),
// extent)), for the largest factor that keeps the whole chunk at or below the
// target number of elements; when the given sizes alone exceed the target, the
// chosen dimensions are 1. A zero-size dimension gets chunk size 1.
//
// Throws ZARR_ERR_INVALID_ARGUMENT naming the field at fault:
// "chunk_layout.chunk.shape" / ".aspect_ratio" with a length other than the
// array's rank, "chunk_layout.chunk.shape[i]" below -1,
// "chunk_layout.chunk.aspect_ratio[i]" negative or not finite,
// "chunk_layout.chunk.elements" <= 0, and "chunk_layout.chunk.shape" when the
// byte size of one chunk is more than a buffer holds (kMaxBufferBytes).
std::vector<uint64_t> choose_chunk_shape(const std::vector<uint64_t>& array_shape, size_t item_size,
                                         const ChunkShapeConstraints& constraints);

}  // namespace zarr
