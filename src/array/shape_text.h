// Shapes, regions and chunk coordinates as the array's messages write them:
// "[a, b, c]".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zarr {

inline std::string shape_text(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace zarr
