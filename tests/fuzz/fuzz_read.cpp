#include "fuzz_read.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace fuzz {

void read_corner(zarr_array* array) {
  const size_t ndim = zarr_ndim(array);
  const size_t item = zarr_item_size(array);
  if (ndim > 32 || item == 0 || item > (1u << 16)) return;
  std::vector<uint64_t> shape(ndim), start(ndim, 0), count(ndim);
  if (zarr_shape(array, shape.data()) != ZARR_OK) return;
  size_t elements = 1;
  for (size_t d = 0; d < ndim; ++d) {
    count[d] = std::min<uint64_t>(shape[d], 4);
    elements *= count[d];
  }
  if (elements > 4096) return;
  std::vector<unsigned char> out(elements * item);
  zarr_read_region(array, ndim, start.data(), count.data(), out.data(), out.size());
}

namespace {
std::vector<std::string>& scratch_paths() {
  static std::vector<std::string> paths;
  return paths;
}
void remove_scratch() {
  std::error_code ignored;
  for (const std::string& p : scratch_paths()) std::filesystem::remove_all(p, ignored);
}
}  // namespace

std::string scratch_path(const std::string& name) {
  if (scratch_paths().empty()) std::atexit(remove_scratch);
  scratch_paths().push_back("/dev/shm/libzarr-fuzz-" + std::to_string(getpid()) + "-" + name);
  return scratch_paths().back();
}

void write_file(const std::string& path, const uint8_t* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return;
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
}

}  // namespace fuzz
