#include "support/zarr_extensions_registry.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace zarr::test {

std::string zarr_extensions_registry_dir() {
  return (fs::path(ZARR_SOURCE_ROOT) / ".." / "shared" / "specs" / "zarr-extensions").lexically_normal().string();
}

bool zarr_extensions_registry_present() { return fs::is_directory(zarr_extensions_registry_dir()); }

std::string registry_extension_dir(ExtensionPoint point, const std::string& name) {
  return zarr_extensions_registry_dir() + "/" + extension_point_folder(point) + "/" + name;
}

const std::vector<ExtensionPoint>& registry_extension_points() {
  static const std::vector<ExtensionPoint> points = {ExtensionPoint::DataType, ExtensionPoint::Codec,
                                                     ExtensionPoint::ChunkGrid, ExtensionPoint::ChunkKeyEncoding,
                                                     ExtensionPoint::StorageTransformer};
  return points;
}

std::set<std::string> registry_extension_folders(ExtensionPoint point) {
  std::set<std::string> names;
  const fs::path dir = fs::path(zarr_extensions_registry_dir()) / extension_point_folder(point);
  if (!fs::is_directory(dir)) return names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory()) names.insert(entry.path().filename().string());
  }
  return names;
}

std::vector<std::string> registry_readme_json_blocks(ExtensionPoint point, const std::string& name) {
  std::ifstream in(registry_extension_dir(point, name) + "/README.md");
  std::vector<std::string> blocks;
  std::string line, block;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside && (line == "```json" || line == "```jsonc" || line == "```javascript")) {
      inside = true;
      block.clear();
    } else if (inside && line.rfind("```", 0) == 0) {
      inside = false;
      blocks.push_back(block);
    } else if (inside) {
      block += line + "\n";
    }
  }
  return blocks;
}

namespace {

// The end of the string literal that opens at text[at] (one past its quote).
size_t end_of_string(const std::string& text, size_t at) {
  for (size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == '\\') ++i;
    else if (text[i] == '"') return i + 1;
  }
  return text.size();
}

// Whether a line holds nothing but "..." (and a comma).
bool is_ellipsis_line(const std::string& line) {
  const size_t begin = line.find_first_not_of(" \t");
  const size_t end = line.find_last_not_of(" \t,");
  return begin != std::string::npos && line.substr(begin, end - begin + 1) == "...";
}

std::string without_comments_and_ellipses(const std::string& block) {
  std::string out;
  std::istringstream lines(block);
  for (std::string line; std::getline(lines, line);) {
    if (is_ellipsis_line(line)) continue;
    for (size_t i = 0; i < line.size();) {
      if (line[i] == '"') {
        const size_t end = end_of_string(line, i);
        out += line.substr(i, end - i);
        i = end;
      } else if (line.compare(i, 2, "//") == 0) {
        break;
      } else {
        out += line[i++];
      }
    }
    out += "\n";
  }
  return out;
}

// Whether the text is `"key": value` rather than a JSON value.
bool is_one_member(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos || text[begin] != '"') return false;
  const size_t after = text.find_first_not_of(" \t\r\n", end_of_string(text, begin));
  return after != std::string::npos && text[after] == ':';
}

}  // namespace

std::string strict_json_of_readme_block(const std::string& block) {
  const std::string text = without_comments_and_ellipses(block);
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '"') {
      const size_t end = end_of_string(text, i);
      out += text.substr(i, end - i);
      i = end;
      continue;
    }
    if (text[i] == ',') {
      const size_t next = text.find_first_not_of(" \t\r\n", i + 1);
      if (next != std::string::npos && (text[next] == '}' || text[next] == ']')) {
        ++i;  // a trailing comma
        continue;
      }
    }
    out += text[i++];
  }
  return is_one_member(out) ? "{" + out + "}" : out;
}

}  // namespace zarr::test
