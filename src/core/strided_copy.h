// Moving n-dimensional boxes of fixed-size elements between buffers laid out
// by arbitrary byte strides (C order, F order, caller sub-views).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zarr {

// Byte strides of a contiguous buffer of `shape` in C order (last dimension
// fastest) or Fortran order (first dimension fastest).
std::vector<int64_t> c_order_strides(const std::vector<uint64_t>& shape, size_t item_size);
std::vector<int64_t> f_order_strides(const std::vector<uint64_t>& shape, size_t item_size);

// Byte offset of element `index` for the given strides.
int64_t byte_offset(const std::vector<uint64_t>& index, const std::vector<int64_t>& strides);

// How a copy writes its destination. Streaming stores (x86 non-temporal
// stores) go to memory without first reading each destination cache line
// and without evicting what the cache holds: a third less memory traffic
// when the destination is far larger than the cache and will not be read
// back soon (a large region read), slower when it is read right after.
enum class Stores { Cached, Streaming };

// Copy the box of extents `count` from src to dst, element (i...) going from
// src + sum(i*src_strides) to dst + sum(i*dst_strides). Dimensions that are
// contiguous in both buffers are merged so the inner loop is one memcpy.
void strided_copy(const std::vector<uint64_t>& count, size_t item_size, const uint8_t* src,
                  const std::vector<int64_t>& src_strides, uint8_t* dst,
                  const std::vector<int64_t>& dst_strides, Stores stores = Stores::Cached);

// Write `item` (item.size() bytes) into every element of the box.
void strided_fill(const std::vector<uint64_t>& count, const std::vector<uint8_t>& item, uint8_t* dst,
                  const std::vector<int64_t>& dst_strides);

// Lowest and one-past-highest byte touched by a box of extents `count` with
// these strides, relative to its origin (an empty box touches nothing: 0, 0).
// False when the extent does not fit in 64 bits.
bool strided_extent(const std::vector<uint64_t>& count, size_t item_size,
                    const std::vector<int64_t>& strides, int64_t& lowest, int64_t& end);

}  // namespace zarr
