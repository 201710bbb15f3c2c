// Moving n-dimensional boxes of fixed-size elements between buffers laid out
// by arbitrary byte strides (C order, F order, caller sub-views).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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

// One dimension of a copy after merging neighbours contiguous in both
// buffers: extent and the two byte strides.
struct Dim {
  uint64_t count;
  int64_t src_stride;
  int64_t dst_stride;
};

// The positions of all but the last of `dims`, in C order: src and dst are
// the byte offsets of the current one.
class OuterOdometer {
 public:
  explicit OuterOdometer(const std::vector<Dim>& dims);
  // To the next position; false (back at the first) after the last.
  bool next();
  int64_t src = 0;
  int64_t dst = 0;

 private:
  const std::vector<Dim>& dims_;
  std::vector<uint64_t> index_;
};

// A C-order chunk that arrives in pieces, in order, with the box of it at
// `box_offset` (extents `count`) copied into `dst` as each piece comes: a
// large chunk read through a cache-sized buffer is copied out while its
// bytes are still in the cache.
class PieceScatter {
 public:
  PieceScatter(const std::vector<uint64_t>& chunk_shape, const std::vector<uint64_t>& box_offset,
               const std::vector<uint64_t>& count, size_t item_size, uint8_t* dst,
               const std::vector<int64_t>& dst_strides, Stores stores);
  PieceScatter(const PieceScatter&) = delete;
  PieceScatter& operator=(const PieceScatter&) = delete;
  // False when the box's rows are single elements in dst (its last
  // dimension is not contiguous there): copying piece by piece would not pay.
  bool usable() const { return usable_; }
  // The chunk's bytes [offset, offset + n): every piece, in order.
  void put(const uint8_t* data, uint64_t offset, size_t n);
  // Once after the last piece: makes streaming stores visible.
  void finish() const;

 private:
  uint8_t* dst_;
  Stores stores_;
  std::vector<Dim> dims_;
  std::optional<OuterOdometer> at_;  // the row being copied
  uint64_t box_begin_ = 0;  // byte offset of the box's first element in the chunk
  size_t run_bytes_ = 0;    // bytes of one row of the box
  bool usable_ = false;
  bool done_ = false;
};

// Write `item` (item.size() bytes) into every element of the box.
void strided_fill(const std::vector<uint64_t>& count, const std::vector<uint8_t>& item, uint8_t* dst,
                  const std::vector<int64_t>& dst_strides);

// Lowest and one-past-highest byte touched by a box of extents `count` with
// these strides, relative to its origin (an empty box touches nothing: 0, 0).
// False when the extent does not fit in 64 bits.
bool strided_extent(const std::vector<uint64_t>& count, size_t item_size,
                    const std::vector<int64_t>& strides, int64_t& lowest, int64_t& end);

}  // namespace zarr
