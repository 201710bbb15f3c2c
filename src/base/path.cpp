#include "base/path.h"

#include "base/error.h"

namespace zarr::path {

std::string dot_segment(const std::string& path) {
  size_t begin = 0;
  while (begin <= path.size()) {
    size_t end = path.find_first_of("/\\", begin);
    if (end == std::string::npos) end = path.size();
    const std::string segment = path.substr(begin, end - begin);
    if (segment == "." || segment == "..") return segment;
    begin = end + 1;
  }
  return "";
}

std::string normalize(const std::string& path) {
  const std::string dot = dot_segment(path);
  if (!dot.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "path '" + path + "': segment '" + dot + "' is not allowed");
  std::string out;
  std::string segment;
  auto flush = [&]() {
    if (segment.empty()) return;
    if (!out.empty()) out += '/';
    out += segment;
    segment.clear();
  };
  for (char c : path) {
    if (c == '/' || c == '\\') {
      flush();
    } else {
      segment += c;
    }
  }
  flush();
  return out;
}

std::string join(const std::string& base, const std::string& name) {
  if (base.empty()) return name;
  if (name.empty()) return base;
  return base + "/" + name;
}

std::string parent(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (begin < path.size()) {
    size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    if (end > begin) out.push_back(path.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

}  // namespace zarr::path
