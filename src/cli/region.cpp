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

// Python's rule for a slice bound walking forwards: negative counts from the
// end, then clip to 0..extent.
uint64_t forward_bound(const std::string& text, uint64_t extent, uint64_t fallback, const std::string& region) {
  if (text.empty()) return fallback;
  const Integer value = parse_integer(text, region);
  if (value.negative) return extent - std::min(value.magnitude, extent);
  return std::min(value.magnitude, extent);
}

// A slice bound walking backwards clips to -1..extent - 1 instead, where -1
// (before_first) is "past the first element".
struct BackwardBound {
  bool before_first = false;
  uint64_t at = 0;
};

BackwardBound backward_bound(const std::string& text, uint64_t extent, BackwardBound fallback,
                             const std::string& region) {
  if (text.empty()) return fallback;
  const Integer value = parse_integer(text, region);
  if (value.negative) {
    if (value.magnitude > extent) return {true, 0};
    return {false, extent - value.magnitude};
  }
  if (extent == 0) return {true, 0};
  return {false, std::min(value.magnitude, extent - 1)};
}

DimSelection parse_index(const std::string& item, uint64_t extent, const std::string& region) {
  const Integer value = parse_integer(item, region);
  const bool inside = value.negative ? value.magnitude <= extent : value.magnitude < extent;
  if (!inside) usage_error("--region: index " + item + " is outside an extent of " + std::to_string(extent));
  DimSelection dim;
  dim.first = value.negative ? extent - value.magnitude : value.magnitude;
  dim.count = 1;
  dim.dropped = true;
  return dim;
}

DimSelection backward_slice(const std::vector<std::string>& parts, uint64_t extent, const std::string& region,
                            DimSelection dim) {
  const BackwardBound last = extent == 0 ? BackwardBound{true, 0} : BackwardBound{false, extent - 1};
  const BackwardBound start = backward_bound(parts[0], extent, last, region);
  const BackwardBound stop = backward_bound(parts[1], extent, BackwardBound{true, 0}, region);
  dim.first = start.at;
  if (start.before_first) {
    dim.count = 0;
  } else if (stop.before_first) {
    dim.count = start.at / dim.step + 1;
  } else {
    dim.count = start.at > stop.at ? zarr::ceil_div(start.at - stop.at, dim.step) : 0;
  }
  return dim;
}

DimSelection parse_slice(const std::vector<std::string>& parts, uint64_t extent, const std::string& region) {
  if (parts.size() > 3) usage_error("--region: too many ':' in '" + region + "'");
  DimSelection dim;
  if (parts.size() == 3 && !parts[2].empty()) {
    const Integer step = parse_integer(parts[2], region);
    if (step.magnitude == 0) usage_error("--region: a step cannot be zero in '" + region + "'");
    dim.step = step.magnitude;
    dim.descending = step.negative;
  }
  if (dim.descending) return backward_slice(parts, extent, region, dim);
  const uint64_t start = forward_bound(parts[0], extent, 0, region);
  const uint64_t stop = forward_bound(parts[1], extent, extent, region);
  dim.first = start;
  dim.count = stop > start ? zarr::ceil_div(stop - start, dim.step) : 0;
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
    box.start.push_back(dim.lowest());
    box.count.push_back(dim.count == 0 ? 0 : dim.highest() - dim.lowest() + 1);
  }
  return box;
}

}  // namespace zarrtool
