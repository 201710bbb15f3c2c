#include "region.h"

#include <algorithm>
#include <charconv>

#include "cli_common.h"

namespace zarrtool {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t at = 0;
  while (true) {
    size_t next = text.find(separator, at);
    parts.push_back(text.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) return parts;
    at = next + 1;
  }
}

// An integer of a selection: -k counts k back from the extent. Parsed as
// its sign and an unsigned 64-bit magnitude, so every index of an axis of
// up to 2^64 - 1 elements can be written, either way.
struct Integer {
  bool negative = false;
  uint64_t magnitude = 0;
};

Integer parse_integer(const std::string& text, const std::string& region) {
  Integer value;
  const bool signed_text = !text.empty() && (text[0] == '-' || text[0] == '+');
  value.negative = signed_text && text[0] == '-';
  const char* begin = text.data() + (signed_text ? 1 : 0);
  const char* end = text.data() + text.size();
  const auto [next, error] = std::from_chars(begin, end, value.magnitude);
  if (error == std::errc::result_out_of_range) {
    usage_error("--region: '" + text + "' in '" + region + "' is out of range (at most " +
                std::to_string(UINT64_MAX) + " either way)");
  }
  if (error != std::errc() || next != end) usage_error("--region: '" + text + "' is not an integer in '" + region + "'");
  value.negative = value.negative && value.magnitude != 0;  // -0 is 0, as in Python
  return value;
}

// Python's rule for a slice bound: negative counts from the end, then clip.
uint64_t slice_bound(const std::string& text, uint64_t extent, uint64_t fallback, const std::string& region) {
  if (text.empty()) return fallback;
  const Integer value = parse_integer(text, region);
  if (value.negative) return extent - std::min(value.magnitude, extent);
  return std::min(value.magnitude, extent);
}

DimSelection parse_index(const std::string& item, uint64_t extent, const std::string& region) {
  const Integer value = parse_integer(item, region);
  const bool inside = value.negative ? value.magnitude <= extent : value.magnitude < extent;
  if (!inside) usage_error("--region: index " + item + " is outside an extent of " + std::to_string(extent));
  DimSelection dim;
  dim.start = value.negative ? extent - value.magnitude : value.magnitude;
  dim.stop = dim.start + 1;  // start < extent <= 2^64 - 1
  dim.dropped = true;
  return dim;
}

DimSelection parse_slice(const std::vector<std::string>& parts, uint64_t extent, const std::string& region) {
  if (parts.size() > 3) usage_error("--region: too many ':' in '" + region + "'");
  DimSelection dim;
  dim.start = slice_bound(parts[0], extent, 0, region);
  dim.stop = slice_bound(parts[1], extent, extent, region);
  if (parts.size() == 3 && !parts[2].empty()) {
    const Integer step = parse_integer(parts[2], region);
    if (step.negative || step.magnitude == 0) usage_error("--region: steps must be positive in '" + region + "'");
    dim.step = step.magnitude;
  }
  if (dim.stop < dim.start) dim.stop = dim.start;
  return dim;
}

}  // namespace

std::vector<DimSelection> parse_region(const std::string& text, const std::vector<uint64_t>& shape) {
  std::vector<std::string> items = text.empty() ? std::vector<std::string>{} : split(text, ',');
  if (items.size() > shape.size()) {
    usage_error("--region names " + std::to_string(items.size()) + " dimensions; the array has " +
                std::to_string(shape.size()));
  }
  std::vector<DimSelection> region;
  for (size_t d = 0; d < shape.size(); ++d) {
    std::string item = d < items.size() ? items[d] : ":";
    std::vector<std::string> parts = split(item, ':');
    region.push_back(parts.size() == 1 ? parse_index(item, shape[d], text) : parse_slice(parts, shape[d], text));
  }
  return region;
}

Box bounding_box(const std::vector<DimSelection>& region) {
  Box box;
  for (const DimSelection& dim : region) {
    uint64_t n = dim.selected_count();
    box.start.push_back(dim.start);
    box.count.push_back(n == 0 ? 0 : (n - 1) * dim.step + 1);
  }
  return box;
}

}  // namespace zarrtool
