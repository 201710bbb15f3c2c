// NumPy-style region selections for the command line: "0:10,5,::2".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "array_walk.h"
#include "base/checked_math.h"

namespace zarrtool {

// The indices one dimension selects: first, first +- step, ... (count of
// them), descending for a negative step.
struct DimSelection {
  uint64_t first = 0;
  uint64_t count = 0;
  uint64_t step = 1;        // the step's magnitude
  bool descending = false;  // a negative step
  bool dropped = false;     // an integer index: the dimension leaves the output

  // The k-th selected index, k < count.
  uint64_t index(uint64_t k) const { return descending ? first - k * step : first + k * step; }
  uint64_t lowest() const { return count == 0 ? first : index(descending ? count - 1 : 0); }
  uint64_t highest() const { return count == 0 ? first : index(descending ? 0 : count - 1); }
};

// Parses one comma-separated item per dimension (fewer items leave the rest
// whole): "i", "a:b", "a:b:s", ":" with Python's rules: negative indices
// count from the end, negative steps walk backwards ("::-1"), slices are
// clipped. Out-of-range integers and a zero step are usage errors.
std::vector<DimSelection> parse_region(const std::string& text, const std::vector<uint64_t>& shape);

// The box to read: from each dimension's lowest selected index to its highest.
Box bounding_box(const std::vector<DimSelection>& region);

}  // namespace zarrtool
