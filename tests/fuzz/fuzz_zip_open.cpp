// libFuzzer target: a zip archive opened as a Zarr hierarchy (the
// `PATH|zip:` store): the archive's directory, every child node's
// metadata and a small read of each array, as far as the bytes get.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_read.h"

namespace {

void walk(zarr_group* group, int depth) {
  size_t n = 0;
  if (depth > 4 || zarr_group_child_count(group, &n) != ZARR_OK) return;
  for (size_t i = 0; i < n && i < 16; ++i) {
    const char* name = nullptr;
    int kind = 0;
    if (zarr_group_child(group, i, &name, &kind) != ZARR_OK) continue;
    const std::string child = name;
    if (kind == ZARR_NODE_ARRAY) {
      zarr_array* a = nullptr;
      if (zarr_group_open_array(&a, group, child.c_str(), "r") == ZARR_OK) fuzz::read_corner(a);
      zarr_close(a);
    } else {
      zarr_group* g = nullptr;
      if (zarr_group_open_group(&g, group, child.c_str()) == ZARR_OK) walk(g, depth + 1);
      zarr_group_close(g);
    }
    zarr_group_list(group, nullptr);  // the JSON listing's error path (NULL output)
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = fuzz::scratch_path("archive.zip");
  fuzz::write_file(path, data, size);
  const std::string url = path + "|zip:";
  zarr_group* g = nullptr;
  if (zarr_group_open(&g, url.c_str(), "r") == ZARR_OK) walk(g, 0);
  zarr_group_close(g);
  zarr_array* a = nullptr;
  if (zarr_open(&a, url.c_str(), "r") == ZARR_OK) fuzz::read_corner(a);
  zarr_close(a);
  return 0;
}
