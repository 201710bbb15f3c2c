#include "grid/chunk_shape.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "base/checked_math.h"
#include "base/error.h"

namespace zarr {
namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

const std::string kShapeField = "chunk_layout.chunk.shape";
const std::string kAspectRatioField = "chunk_layout.chunk.aspect_ratio";
const std::string kElementsField = "chunk_layout.chunk.elements";

[[noreturn]] void invalid(const std::string& field, const std::string& why) {
  fail(ZARR_ERR_INVALID_ARGUMENT, field + ": " + why);
}

std::string indexed(const std::string& field, size_t i) { return field + "[" + std::to_string(i) + "]"; }

// Saturates instead of wrapping: a product that does not fit is "too many"
// for every comparison made with it.
uint64_t saturating_multiply(uint64_t a, uint64_t b) { return checked_mul(a, b).value_or(kSaturated); }

uint64_t saturating_product(const std::vector<uint64_t>& values) {
  uint64_t product = 1;
  for (uint64_t v : values) product = saturating_multiply(product, v);
  return product;
}

void check_rank(const std::string& field, size_t length, size_t rank) {
  if (length != 0 && length != rank) {
    invalid(field, "has " + std::to_string(length) + " entries, the array has " + std::to_string(rank) +
                       " dimensions");
  }
}

void validate(const ChunkShapeConstraints& c, size_t rank) {
  check_rank(kShapeField, c.shape.size(), rank);
  check_rank(kAspectRatioField, c.aspect_ratio.size(), rank);
  for (size_t i = 0; i < c.shape.size(); ++i) {
    if (c.shape[i] < kFullExtent) {
      invalid(indexed(kShapeField, i), "must be a positive size, -1 (full extent) or 0/null (chosen), got " +
                                           std::to_string(c.shape[i]));
    }
  }
  for (size_t i = 0; i < c.aspect_ratio.size(); ++i) {
    const double ratio = c.aspect_ratio[i];
    if (!std::isfinite(ratio) || ratio < 0) {
      invalid(indexed(kAspectRatioField, i), "must be a finite number >= 0 (0 means unconstrained), got " +
                                                 std::to_string(ratio));
    }
  }
  if (c.elements && *c.elements <= 0) {
    invalid(kElementsField, "must be > 0, got " + std::to_string(*c.elements));
  }
}

// The sizes given explicitly; 0 marks a dimension still to be chosen.
std::vector<uint64_t> given_sizes(const std::vector<uint64_t>& array_shape, const std::vector<int64_t>& shape) {
  std::vector<uint64_t> sizes(array_shape.size(), 0);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == kFullExtent) {
      sizes[i] = std::max<uint64_t>(1, array_shape[i]);  // a chunk is never empty
    } else {
      sizes[i] = static_cast<uint64_t>(shape[i]);
    }
  }
  return sizes;
}

// The dimensions whose size is chosen, and how each grows with the factor.
struct ChosenDimensions {
  std::vector<size_t> dims;
  std::vector<double> ratio;   // scaled so the largest is 1: factors stay finite
  std::vector<uint64_t> cap;   // the extent (at least 1), and never above the target

  std::vector<uint64_t> sizes_at(double factor) const {
    std::vector<uint64_t> sizes(dims.size());
    for (size_t k = 0; k < dims.size(); ++k) {
      const double scaled = ratio[k] * factor;
      // Compared in double before converting: cap <= 2^63, so the conversion
      // of anything below it cannot overflow.
      sizes[k] = scaled >= static_cast<double>(cap[k]) ? cap[k] : std::max<uint64_t>(1, static_cast<uint64_t>(scaled));
    }
    return sizes;
  }
};

ChosenDimensions chosen_dimensions(const std::vector<uint64_t>& array_shape, const std::vector<uint64_t>& sizes,
                                   const std::vector<double>& aspect_ratio, uint64_t target) {
  ChosenDimensions chosen;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] != 0) continue;
    const double ratio = aspect_ratio.empty() || aspect_ratio[i] == 0 ? 1.0 : aspect_ratio[i];
    chosen.dims.push_back(i);
    chosen.ratio.push_back(ratio);
    chosen.cap.push_back(std::max<uint64_t>(1, std::min(array_shape[i], target)));
  }
  const double largest = *std::max_element(chosen.ratio.begin(), chosen.ratio.end());
  for (double& r : chosen.ratio) r /= largest;
  return chosen;
}

// The largest factor whose chosen sizes multiply to at most `budget` (>= 1).
// The product only grows with the factor, so bisection finds where it first
// exceeds the budget; the sizes just below that point are the answer.
double largest_factor_within(const ChosenDimensions& chosen, uint64_t budget) {
  const auto fits = [&](double factor) { return saturating_product(chosen.sizes_at(factor)) <= budget; };
  double low = 0;  // every size is 1 here, and 1 <= budget
  double high = 1;
  while (fits(high)) {
    if (high >= DBL_MAX / 2) return DBL_MAX;  // only for absurdly skewed aspect ratios
    low = high;
    high *= 2;
  }
  for (;;) {
    const double mid = low + (high - low) / 2;
    if (mid <= low || mid >= high) return low;  // the interval is down to adjacent doubles
    (fits(mid) ? low : high) = mid;
  }
}

void check_chunk_bytes(const std::vector<uint64_t>& chunk, size_t item_size) {
  // The limit the array's metadata is held to (validate_layout).
  const std::optional<uint64_t> elements = product_of(chunk);
  if (!elements || !byte_count(*elements, item_size)) {
    invalid(kShapeField, "a chunk of these dimensions with " + std::to_string(item_size) +
                             "-byte items has more bytes than a buffer can hold (" + std::to_string(kMaxBufferBytes) +
                             ")");
  }
}

}  // namespace

std::vector<uint64_t> choose_chunk_shape(const std::vector<uint64_t>& array_shape, size_t item_size,
                                         const ChunkShapeConstraints& constraints) {
  validate(constraints, array_shape.size());
  std::vector<uint64_t> chunk = given_sizes(array_shape, constraints.shape);
  const bool all_given = std::find(chunk.begin(), chunk.end(), 0) == chunk.end();
  if (!all_given) {
    const uint64_t target = static_cast<uint64_t>(constraints.elements.value_or(kDefaultChunkElements));
    const ChosenDimensions chosen = chosen_dimensions(array_shape, chunk, constraints.aspect_ratio, target);
    // The given sizes take their share of the target first (a zero marks a
    // chosen dimension, which counts as 1 here).
    uint64_t given_product = 1;
    for (uint64_t size : chunk) given_product = saturating_multiply(given_product, std::max<uint64_t>(size, 1));
    const uint64_t budget = std::max<uint64_t>(1, target / given_product);
    const std::vector<uint64_t> sizes = chosen.sizes_at(largest_factor_within(chosen, budget));
    for (size_t k = 0; k < chosen.dims.size(); ++k) chunk[chosen.dims[k]] = sizes[k];
  }
  check_chunk_bytes(chunk, item_size);
  return chunk;
}

}  // namespace zarr
