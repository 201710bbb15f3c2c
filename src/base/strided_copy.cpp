#include "base/strided_copy.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "base/checked_math.h"
#include "base/error.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace zarr {

namespace {

// Drop extent-1 dimensions and merge neighbours that are contiguous in both
// buffers (outer stride == inner stride * inner count), innermost last. An
// empty box has no dimensions to walk (its strides may be saturated).
std::vector<Dim> simplify(const std::vector<uint64_t>& count, const std::vector<int64_t>& src,
                          const std::vector<int64_t>& dst) {
  std::vector<Dim> dims;
  if (std::find(count.begin(), count.end(), 0) != count.end()) return dims;
  for (size_t d = 0; d < count.size(); ++d) {
    if (count[d] == 1) continue;
    Dim next{count[d], src[d], dst[d]};
    if (!dims.empty()) {
      Dim& outer = dims.back();
      if (outer.src_stride == checked_mul(next.src_stride, next.count) &&
          outer.dst_stride == checked_mul(next.dst_stride, next.count)) {
        // The merged count is at most the box's element count.
        outer = Dim{outer.count * next.count, next.src_stride, next.dst_stride};
        continue;
      }
    }
    dims.push_back(next);
  }
  return dims;
}

constexpr size_t kCacheLine = 64;

// A run whose destination starts inside a cache line is streamed only from
// this length on. Shorter, streaming the one or two whole lines inside it
// measured no faster than one memcpy of it (128-192 bytes at offset 16:
// 0.83-1.10 of memcpy's speed), from 256 bytes 1.16-1.39 times faster
// (docs/performance.md, "The alignment of the caller's buffer"). So the
// 64-byte rows of a 32^3 uint16 chunk landing 16 bytes past a line (malloc,
// NumPy) are copied through the cache.
constexpr size_t kMinUnalignedStreamingRun = 256;

#if defined(__SSE2__)
// `lines` whole cache lines to a line-aligned dst, with non-temporal stores.
void stream_lines(uint8_t* dst, const uint8_t* src, size_t lines) {
  for (size_t i = 0; i < lines * kCacheLine; i += kCacheLine) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
}

// A run split by split_for_streaming: its whole destination lines streamed,
// the partial lines at either end copied normally. Out of line, so that
// copy_run's path to memcpy needs no registers saved (see there).
__attribute__((noinline)) void stream_run(uint8_t* dst, const uint8_t* src, size_t n, const RunSplit& split) {
  std::memcpy(dst, src, split.head);
  stream_lines(dst + split.head, src + split.head, split.lines);
  std::memcpy(dst + n - split.tail, src + n - split.tail, split.tail);
}
#endif

// memcpy, or with writes == Streaming a run worth streaming streamed (SSE2,
// every x86-64); the caller fences once after its last run. The path to
// memcpy stays free of stack stores: with three registers saved per row, the
// unstreamed 64-byte rows at offset 16 copied a third slower than by memcpy
// alone (bench_copy_run; likely the stack stores queueing behind the rows'
// cache misses in the store buffer).
void copy_run(uint8_t* dst, const uint8_t* src, size_t n, MemoryWrites writes) {
#if defined(__SSE2__)
  if (writes == MemoryWrites::Streaming) {
    const RunSplit split = split_for_streaming(reinterpret_cast<uintptr_t>(dst), n);
    if (split.lines > 0) return stream_run(dst, src, n, split);
  }
#endif
  (void)writes;
  std::memcpy(dst, src, n);
}

// Non-temporal stores are weakly ordered: this makes them visible before
// anything the thread stores next (such as marking its task done).
void finish_writes(MemoryWrites writes) {
#if defined(__SSE2__)
  if (writes == MemoryWrites::Streaming) _mm_sfence();
#endif
  (void)writes;
}

}  // namespace

RunSplit split_for_streaming(uintptr_t dst, size_t n) {
  const size_t head = (kCacheLine - dst % kCacheLine) % kCacheLine;
  const size_t min_run = head == 0 ? kCacheLine : kMinUnalignedStreamingRun;
  if (n < min_run) return RunSplit{n, 0, 0};
  const size_t lines = (n - head) / kCacheLine;  // n > head: min_run > any head
  return RunSplit{head, lines, n - head - lines * kCacheLine};
}

OuterOdometer::OuterOdometer(const std::vector<Dim>& dims)
    : dims_(dims), index_(dims.empty() ? 0 : dims.size() - 1, 0) {}

bool OuterOdometer::next() {
  for (size_t d = index_.size(); d-- > 0;) {
    if (++index_[d] < dims_[d].count) {
      src += dims_[d].src_stride;
      dst += dims_[d].dst_stride;
      return true;
    }
    src -= dims_[d].src_stride * static_cast<int64_t>(dims_[d].count - 1);
    dst -= dims_[d].dst_stride * static_cast<int64_t>(dims_[d].count - 1);
    index_[d] = 0;
  }
  return false;
}

BoxRows::BoxRows(const std::vector<uint64_t>& count, size_t item_size, const std::vector<int64_t>& src_strides,
                 const std::vector<int64_t>& dst_strides)
    : dims_(simplify(count, src_strides, dst_strides)),
      empty_(std::any_of(count.begin(), count.end(), [](uint64_t c) { return c == 0; })) {
  const int64_t item = static_cast<int64_t>(item_size);
  contiguous_ = dims_.empty() || (dims_.back().src_stride == item && dims_.back().dst_stride == item);
  row_bytes_ = contiguous_ && !dims_.empty() ? dims_.back().count * item_size : item_size;
}

PieceScatter::PieceScatter(const std::vector<int64_t>& chunk_strides, const std::vector<uint64_t>& box_offset,
                           const std::vector<uint64_t>& count, size_t item_size, uint8_t* dst,
                           const std::vector<int64_t>& dst_strides, MemoryWrites writes)
    : dst_(dst),
      writes_(writes),
      rows_(count, item_size, chunk_strides, dst_strides),
      at_(rows_.dims()),
      box_begin_(static_cast<uint64_t>(byte_offset(box_offset, chunk_strides))),
      done_(rows_.empty()) {}

void PieceScatter::put(const uint8_t* data, uint64_t offset, size_t n) {
  const uint64_t end = offset + n;
  while (!done_) {
    const uint64_t run_begin = box_begin_ + static_cast<uint64_t>(at_.src);
    const uint64_t run_end = run_begin + rows_.row_bytes();
    if (run_begin >= end) return;  // the run starts in a later piece
    const uint64_t from = std::max(run_begin, offset), to = std::min(run_end, end);
    if (from < to) copy_run(dst_ + at_.dst + static_cast<int64_t>(from - run_begin), data + (from - offset), to - from,
                            writes_);
    if (run_end > end) return;  // the rest of the run is in the next piece
    done_ = !at_.next();
  }
}

void PieceScatter::finish() const { finish_writes(writes_); }

namespace {

// Byte strides of a contiguous box whose dimensions are taken innermost
// first in `order`. Strides are signed 64-bit byte offsets: every box a
// caller addresses has been checked to fit in a buffer (kMaxBufferBytes), so
// a stride that does not fit is a bug, except in a box with a zero extent,
// through whose strides nothing is ever addressed (a region [0, 2^62, 4]):
// those saturate.
std::vector<int64_t> contiguous_strides(const std::vector<uint64_t>& shape, size_t item_size,
                                        const std::vector<size_t>& order) {
  const bool empty = std::find(shape.begin(), shape.end(), 0) != shape.end();
  std::vector<int64_t> strides(shape.size());
  int64_t s = static_cast<int64_t>(item_size);
  for (size_t k = 0; k < order.size(); ++k) {
    strides[order[k]] = s;
    if (k + 1 == order.size()) break;  // the whole box's size is no stride
    const std::optional<int64_t> next = checked_mul(s, shape[order[k]]);
    if (!next && !empty) {
      fail(ZARR_ERR_INTERNAL, "the byte strides of a box of " + std::to_string(shape.size()) + " dimensions of " +
                                  std::to_string(item_size) + "-byte items do not fit in 64 bits");
    }
    s = next.value_or(INT64_MAX);
  }
  return strides;
}

}  // namespace

std::vector<int64_t> c_order_strides(const std::vector<uint64_t>& shape, size_t item_size) {
  std::vector<size_t> order(shape.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = order.size() - 1 - k;  // last dimension fastest
  return contiguous_strides(shape, item_size, order);
}

std::vector<int64_t> f_order_strides(const std::vector<uint64_t>& shape, size_t item_size) {
  std::vector<size_t> order(shape.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;  // first dimension fastest
  return contiguous_strides(shape, item_size, order);
}

int64_t byte_offset(const std::vector<uint64_t>& index, const std::vector<int64_t>& strides) {
  int64_t off = 0;
  for (size_t d = 0; d < index.size(); ++d) off += static_cast<int64_t>(index[d]) * strides[d];
  return off;
}

void strided_copy(const std::vector<uint64_t>& count, size_t item_size, const uint8_t* src,
                  const std::vector<int64_t>& src_strides, uint8_t* dst,
                  const std::vector<int64_t>& dst_strides, MemoryWrites writes) {
  const BoxRows rows(count, item_size, src_strides, dst_strides);
  if (rows.contiguous()) {
    rows.for_each([&](int64_t s, int64_t d) { copy_run(dst + d, src + s, rows.row_bytes(), writes); });
    finish_writes(writes);
    return;
  }
  const Dim inner = rows.dims().back();
  rows.for_each([&](int64_t s, int64_t d) {
    for (uint64_t i = 0; i < inner.count; ++i) {
      std::memcpy(dst + d + static_cast<int64_t>(i) * inner.dst_stride,
                  src + s + static_cast<int64_t>(i) * inner.src_stride, item_size);
    }
  });
}

void strided_fill(const std::vector<uint64_t>& count, const std::vector<uint8_t>& item, uint8_t* dst,
                  const std::vector<int64_t>& dst_strides) {
  // A zero source stride repeats the one item across every element: the
  // rows are never contiguous in the source, so each row is filled here.
  const size_t item_size = item.size();
  const BoxRows rows(count, item_size, std::vector<int64_t>(count.size(), 0), dst_strides);
  if (rows.dims().empty()) {
    if (!rows.empty()) std::memcpy(dst, item.data(), item_size);
    return;
  }
  const Dim inner = rows.dims().back();
  const bool zero_row = inner.dst_stride == static_cast<int64_t>(item_size) &&
                        std::all_of(item.begin(), item.end(), [](uint8_t b) { return b == 0; });
  rows.for_each([&](int64_t, int64_t d) {
    if (zero_row) {
      std::memset(dst + d, 0, inner.count * item_size);
      return;
    }
    for (uint64_t i = 0; i < inner.count; ++i) {
      std::memcpy(dst + d + static_cast<int64_t>(i) * inner.dst_stride, item.data(), item_size);
    }
  });
}

bool strided_extent(const std::vector<uint64_t>& count, size_t item_size,
                    const std::vector<int64_t>& strides, int64_t& lowest, int64_t& end) {
  lowest = 0;
  end = 0;
  for (uint64_t c : count) {
    if (c == 0) return true;
  }
  // Exact checked sums, so hostile strides or counts cannot wrap around.
  int64_t low = 0, high = 0;
  for (size_t d = 0; d < count.size(); ++d) {
    const std::optional<int64_t> span = checked_mul(strides[d], count[d] - 1);
    if (!span) return false;
    const std::optional<int64_t> side = *span < 0 ? checked_add(low, *span) : checked_add(high, *span);
    if (!side) return false;
    (*span < 0 ? low : high) = *side;
  }
  const std::optional<int64_t> past_last = checked_add(high, item_size);
  if (!past_last) return false;
  lowest = low;
  end = *past_last;
  return true;
}

}  // namespace zarr
