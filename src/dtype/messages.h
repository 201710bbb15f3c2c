// Error message helpers for the dtype room.
#pragma once

#include <string>

namespace zarr::dtype_detail {

// Values quoted in messages are cut short: metadata may hold megabytes of
// base64 and an error should stay readable.
inline std::string excerpt(const std::string& text) {
  constexpr size_t kMax = 80;
  return text.size() <= kMax ? text : text.substr(0, kMax) + "...";
}

}  // namespace zarr::dtype_detail
