// What zarrtool reads from an array's stored metadata document
// (zarr_get_metadata): the storage grid, the codecs and the chunk keys. The
// C API gives shape and data type directly but not these, so they come from
// the document, for Zarr v2 and v3 alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "array_walk.h"
#include "zarr/zarr.h"

namespace zarrtool {

struct ArrayLayout {
  int zarr_format = 0;
  // The grid of stored objects: chunks, or shards when sharded.
  std::vector<uint64_t> storage_shape;
  // Inner chunks of a sharded array; empty otherwise.
  std::vector<uint64_t> inner_chunk_shape;
  std::string codecs_json = "[]";      // v3 codecs, or v2 filters then compressor
  std::string fill_value_json = "null";
  // Chunk key pieces: key = prefix + join(indices, separator), or
  // scalar_key for 0-d arrays.
  std::string key_prefix;
  std::string key_separator = ".";
  std::string scalar_key = "0";
  // A v3 rectilinear chunk grid: its chunk_grid member as stored; "" for a
  // regular grid (storage_shape is then the largest edge of each axis).
  std::string rectilinear_grid_json;

  bool sharded() const { return !inner_chunk_shape.empty(); }
  std::string chunk_key(const std::vector<uint64_t>& index) const;
};

ArrayLayout read_layout(const zarr_array* array);

// A rectilinear chunk_grid member (ArrayLayout::rectilinear_grid_json, or
// zarr_info's "chunk_grid") as zarrtool shows a grid's shape: a Python tuple
// of one entry per axis, an integer for a regular step, else the axis' edge
// lengths as a list with repeated lengths as NxC (C edges of N, as
// --chunk-edges takes them): chunk_shapes [[[2, 2], 1, 5], 3] gives
// "([2x2, 1, 5], 3)". Read from the metadata only: no axis is expanded.
std::string rectilinear_shape_text(const std::string& chunk_grid_json);

// The chunk and shard shapes info and dump print, as Python tuples: a
// sharded array's chunks are its inner chunks and its shards the stored
// grid, else the chunks are the stored grid; a rectilinear stored grid
// (chunk_grid_json not empty) is shown per axis by rectilinear_shape_text.
struct GridShapes {
  bool rectilinear = false;
  std::string chunk_shape;
  std::string shard_shape;  // "" unless sharded
};
GridShapes grid_shapes(const std::string& chunk_grid_json, const std::vector<uint64_t>& storage_shape,
                       const std::vector<uint64_t>& inner_chunk_shape, bool sharded);

// The array's grid of stored objects: layout.storage_shape for a regular
// grid, each axis's chunk boundaries (zarr_chunk_boundaries) for a
// rectilinear one. An axis of more than kMaxWalkedChunks chunks is a
// CliError naming it.
constexpr uint64_t kMaxWalkedChunks = uint64_t{1} << 26;
StorageGrid storage_grid(zarr_array* array, const ArrayLayout& layout);

// One axis' chunk boundaries (zarr_chunk_boundaries: n + 1 entries), or
// nullopt when its n chunks are more than kMaxWalkedChunks; *chunks is set
// to n either way (SIZE_MAX - 1 when n does not fit in a size_t).
std::optional<std::vector<uint64_t>> axis_boundaries(zarr_array* array, size_t axis, size_t* chunks);

}  // namespace zarrtool
