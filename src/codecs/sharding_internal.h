// What the files of the sharding codec share (sharding_codec.cpp: encode and
// decode; sharding_partial.cpp: partial decoding; sharding_v3.cpp: building
// the codec from its v3 configuration). Not for other files.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "base/text.h"
#include "codecs/sharding_codec.h"

namespace zarr::codecs {

inline constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();  // index entry of an absent inner chunk
inline constexpr const char* kShardingPrefix = "sharding_indexed: ";

// Inner chunks per shard along each dimension (the inner shape divides the
// shard's), and their count. Each shard read holds its whole index (16 bytes
// per inner chunk), and opening the array encodes it twice: a bound keeps
// hostile metadata from costing gigabytes before any data is read.
std::vector<uint64_t> inner_grid(const std::vector<uint64_t>& shard, const std::vector<uint64_t>& inner,
                                 const std::string& where, uint64_t* count = nullptr);

}  // namespace zarr::codecs

namespace zarr {

// An inner chunk's part of a box.
struct ShardingCodec::Overlap {
  size_t index = 0;                    // C-order position of the inner chunk in the shard's inner grid
  std::vector<uint64_t> chunk_offset;  // start of the overlap inside the inner chunk
  std::vector<uint64_t> box_offset;    // start of the overlap inside the box
  std::vector<uint64_t> count;         // extent of the overlap
  bool whole = false;                  // the overlap is the whole inner chunk
};

}  // namespace zarr
