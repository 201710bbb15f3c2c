// Small text helpers that every floor needs: a list of numbers as "[1, 2, 3]"
// (messages) or "[1,2,3]" (compact JSON), and prefix and suffix tests.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace zarr {

// "[" values "]" with `separator` between them: ", " in messages, "," in the
// compact JSON the library writes (shapes, chunk shapes, byte lists).
template <typename Number>
std::string list_text(const Number* values, size_t count, const char* separator = ", ") {
  std::string out = "[";
  for (size_t i = 0; i < count; ++i) {
    if (i) out += separator;
    out += std::to_string(values[i]);
  }
  return out + "]";
}

template <typename Number>
std::string list_text(const std::vector<Number>& values, const char* separator = ", ") {
  return list_text(values.data(), values.size(), separator);
}

inline bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

inline bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace zarr
