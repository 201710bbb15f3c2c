// NumPy-style region selections for the command line: "0:10,5,::2".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "array_walk.h"
#include "base/checked_math.h"

namespace zarrtool {

struct DimSelection {
  uint64_t start = 0;
  uint64_t stop = 0;  // exclusive
  uint64_t step = 1;
  bool dropped = false;  // an integer index: the dimension leaves the output

  uint64_t selected_count() const { return stop > start ? zarr::ceil_div(stop - start, step) : 0; }
};

// Parses one comma-separated item per dimension (fewer items leave the rest
// whole): "i", "a:b", "a:b:s", ":" with Python's negative indices. Steps must
// be positive. Out-of-range integers are a usage error; slices are clipped.
std::vector<DimSelection> parse_region(const std::string& text, const std::vector<uint64_t>& shape);

// The box to read: from each start to the last selected index.
Box bounding_box(const std::vector<DimSelection>& region);

}  // namespace zarrtool
