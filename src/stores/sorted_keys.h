// Listing keys held in a std::map (the memory and zip stores). The map keeps
// keys in byte order, so every prefix's keys are one contiguous run and
// listings come out sorted.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "base/text.h"
#include "stores/store.h"

namespace zarr::sorted_keys {

// Every key starting with prefix.
template <typename Map>
std::vector<std::string> list_prefix(const Map& map, const std::string& prefix) {
  std::vector<std::string> out;
  for (auto it = map.lower_bound(prefix); it != map.end() && starts_with(it->first, prefix); ++it) {
    out.push_back(it->first);
  }
  return out;
}

// Direct children of `dir` ("" or a checked prefix ending in '/').
template <typename Map>
DirListing list_dir(const Map& map, const std::string& dir) {
  DirListing out;
  auto it = map.lower_bound(dir);
  while (it != map.end() && starts_with(it->first, dir)) {
    size_t slash = it->first.find('/', dir.size());
    if (slash == std::string::npos) {
      out.keys.push_back(it->first.substr(dir.size()));
      ++it;
      continue;
    }
    out.prefixes.push_back(it->first.substr(dir.size(), slash - dir.size()));
    // Skip the child's whole subtree: '0' is the byte after '/', so
    // "child0" is the first key that cannot start with "child/".
    it = map.lower_bound(it->first.substr(0, slash) + '0');
  }
  // Keys are already in order; child names are not ("b-c/x" < "b/x" but "b" < "b-c").
  std::sort(out.prefixes.begin(), out.prefixes.end());
  return out;
}

// Erase every key starting with prefix.
template <typename Map>
void erase_prefix(Map& map, const std::string& prefix) {
  auto first = map.lower_bound(prefix);
  auto last = first;
  while (last != map.end() && starts_with(last->first, prefix)) ++last;
  map.erase(first, last);
}

}  // namespace zarr::sorted_keys
