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

// How a copy writes its destination (CPU memory writes, nothing to do with
// key-value stores). Streaming writes (x86 non-temporal stores) go to memory without first reading each destination cache line
// and without evicting what the cache holds: a third less memory traffic
// when the destination is far larger than the cache and will not be read
// back soon (a large region read), slower when it is read right after.
enum class MemoryWrites { Cached, Streaming };

// How a streaming copy splits a run of n bytes to address dst: `head` bytes
// copied through the cache up to the first 64-byte cache line boundary,
// `lines` whole cache lines streamed, the last `tail` bytes through the cache.
// Streaming stores pay off only for whole lines: lines written in part by
// them cost more than through the cache (twice the time of W4 on the Intel
// Xeon of issue 25; 64- and 128-byte rows at 0.63-0.88 of memcpy's speed on
// the AMD EPYC of docs/performance.md). A run starting inside a line and
// shorter than a few lines is not streamed at all (lines == 0, head == n):
// its partial lines would be most of it.
struct RunSplit {
  size_t head;
  size_t lines;
  size_t tail;
};
RunSplit split_for_streaming(uintptr_t dst, size_t n);

// Copy the box of extents `count` from src to dst, element (i...) going from
// src + sum(i*src_strides) to dst + sum(i*dst_strides). Dimensions that are
// contiguous in both buffers are merged so the inner loop is one memcpy.
void strided_copy(const std::vector<uint64_t>& count, size_t item_size, const uint8_t* src,
                  const std::vector<int64_t>& src_strides, uint8_t* dst,
                  const std::vector<int64_t>& dst_strides, MemoryWrites writes = MemoryWrites::Cached);

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

// A box of extents `count` seen as rows to copy between two layouts: its
// dimensions merged where both layouts allow, the last merged dimension a
// row. Every copy of a box by rows (strided_copy, PieceScatter, an
// uncompressed chunk's rows read by the store) walks it the same way.
class BoxRows {
 public:
  BoxRows(const std::vector<uint64_t>& count, size_t item_size, const std::vector<int64_t>& src_strides,
          const std::vector<int64_t>& dst_strides);
  // Some extent is 0: there is nothing to copy.
  bool empty() const { return empty_; }
  // Each row is contiguous in both layouts (one run of row_bytes() bytes);
  // false when the rows are single elements in one of them.
  bool contiguous() const { return contiguous_; }
  size_t row_bytes() const { return row_bytes_; }
  // The merged dimensions, innermost last (none for a single element).
  const std::vector<Dim>& dims() const { return dims_; }
  // Calls row(src_offset, dst_offset) for the start of each row, in C order
  // (increasing source offsets when the source strides are positive).
  template <typename Row>
  void for_each(Row row) const {
    if (empty_) return;
    OuterOdometer at(dims_);
    do {
      row(at.src, at.dst);
    } while (at.next());
  }

 private:
  std::vector<Dim> dims_;
  size_t row_bytes_ = 0;
  bool empty_ = false;
  bool contiguous_ = false;
};

// A C-order chunk (byte strides `chunk_strides`, from c_order_strides) that
// arrives in pieces, in order, with the box of it at `box_offset` (extents
// `count`) copied into `dst` as each piece comes: a large chunk read through
// a cache-sized buffer is copied out while its bytes are still in the cache.
class PieceScatter {
 public:
  PieceScatter(const std::vector<int64_t>& chunk_strides, const std::vector<uint64_t>& box_offset,
               const std::vector<uint64_t>& count, size_t item_size, uint8_t* dst,
               const std::vector<int64_t>& dst_strides, MemoryWrites writes);
  PieceScatter(const PieceScatter&) = delete;
  PieceScatter& operator=(const PieceScatter&) = delete;
  // False when the box's rows are single elements in dst (its last
  // dimension is not contiguous there): copying piece by piece would not pay.
  bool usable() const { return rows_.contiguous(); }
  // The chunk's bytes [offset, offset + n): every piece, in order.
  void put(const uint8_t* data, uint64_t offset, size_t n);
  // Once after the last piece: makes streaming stores visible.
  void finish() const;

 private:
  uint8_t* dst_;
  MemoryWrites writes_;
  BoxRows rows_;
  OuterOdometer at_;  // the row being copied (walks rows_'s dimensions: declared after it)
  uint64_t box_begin_ = 0;  // byte offset of the box's first element in the chunk
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
