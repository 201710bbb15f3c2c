// Checked arithmetic over shapes, chunk counts, region ends and byte sizes.
// Every product, sum and ceiling division of such numbers in libzarr goes
// through these functions, so that none wraps near 2^64 (a wrapped count
// once let a 4-byte read write a chunk's worth of elements past its buffer:
// docs/reliability.md, "Index arithmetic"). Ground floor: includes nothing
// of libzarr but base/error.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zarr {

// a + b and a * b computed exactly, or nullopt when the result does
// not fit in R: a's type unless given, b may be of another integer type
// (checked_mul<int64_t>(stride, uint64_count)). The compiler's overflow
// builtins check the exact result, signs included.
template <typename A, typename B, typename R = A>
std::optional<R> checked_add(A a, B b) {
  R sum;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}
template <typename A, typename B, typename R = A>
std::optional<R> checked_mul(A a, B b) {
  R product;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

// The product of extents (1 for none), or nullopt when it passes 2^64 - 1.
std::optional<uint64_t> product_of(const std::vector<uint64_t>& extents);

// product_of, or error `code` naming `what` when it overflows 64 bits:
// ZARR_ERR_INVALID_METADATA for a document's shapes, ZARR_ERR_INVALID_ARGUMENT
// for a caller's region.
uint64_t checked_product(const std::vector<uint64_t>& extents, const std::string& what, int code);

// ceil(n / d) for d > 0, without the n + d - 1 that wraps near 2^64.
constexpr uint64_t ceil_div(uint64_t n, uint64_t d) { return n / d + (n % d != 0 ? 1 : 0); }
// ceil_div per dimension: how many chunks of `chunks` cover `shape`.
std::vector<uint64_t> ceil_div(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks);

// How many of the `length` positions from `begin` lie below `end`:
// min(length, end - begin), 0 when begin >= end. The run [begin, begin +
// length) may end past 2^64 (the last chunk of an axis of 2^64 - 1).
constexpr uint64_t extent_below(uint64_t begin, uint64_t length, uint64_t end) {
  return begin >= end ? 0 : (length < end - begin ? length : end - begin);
}

// True when [start, start + count) lies inside [0, extent), the sum
// computed without wrapping.
constexpr bool run_inside(uint64_t start, uint64_t count, uint64_t extent) {
  return count <= extent && start <= extent - count;
}

// No buffer holds more bytes than this: buffers are addressed with signed
// 64-bit byte offsets and strides (ptrdiff_t), and no allocator hands out
// more than PTRDIFF_MAX bytes.
inline constexpr uint64_t kMaxBufferBytes = static_cast<uint64_t>(PTRDIFF_MAX);

// The bytes of `elements` items of `item_size` bytes, or nullopt when no
// buffer can hold them (more than kMaxBufferBytes).
std::optional<size_t> byte_count(uint64_t elements, size_t item_size);
// A byte_count for messages: the number, or "more than <kMaxBufferBytes>".
std::string byte_count_text(std::optional<size_t> bytes);

}  // namespace zarr
