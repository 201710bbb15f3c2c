#include "region.h"

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

int64_t parse_integer(const std::string& text, const std::string& region) {
  size_t used = 0;
  int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) usage_error("--region: '" + text + "' is not an integer in '" + region + "'");
  return value;
}

// Python's rule for a slice bound: negative counts from the end, then clip.
uint64_t slice_bound(const std::string& text, uint64_t extent, uint64_t fallback, const std::string& region) {
  if (text.empty()) return fallback;
  int64_t value = parse_integer(text, region);
  if (value < 0) value += static_cast<int64_t>(extent);
  if (value < 0) return 0;
  return std::min<uint64_t>(static_cast<uint64_t>(value), extent);
}

DimSelection parse_index(const std::string& item, uint64_t extent, const std::string& region) {
  int64_t index = parse_integer(item, region);
  if (index < 0) index += static_cast<int64_t>(extent);
  if (index < 0 || static_cast<uint64_t>(index) >= extent) {
    usage_error("--region: index " + item + " is outside an extent of " + std::to_string(extent));
  }
  DimSelection dim;
  dim.start = static_cast<uint64_t>(index);
  dim.stop = dim.start + 1;
  dim.dropped = true;
  return dim;
}

DimSelection parse_slice(const std::vector<std::string>& parts, uint64_t extent, const std::string& region) {
  if (parts.size() > 3) usage_error("--region: too many ':' in '" + region + "'");
  DimSelection dim;
  dim.start = slice_bound(parts[0], extent, 0, region);
  dim.stop = slice_bound(parts[1], extent, extent, region);
  if (parts.size() == 3 && !parts[2].empty()) {
    int64_t step = parse_integer(parts[2], region);
    if (step <= 0) usage_error("--region: steps must be positive in '" + region + "'");
    dim.step = static_cast<uint64_t>(step);
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
