// libFuzzer target: a zarr.json document, read as array and as group
// metadata (with inline consolidated metadata).
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.h"
#include "metadata/v3_metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    zarr::parse_v3_array_metadata(text, "zarr.json");
  } catch (const zarr::Error&) {
  }
  try {
    zarr::parse_v3_group_metadata(text, "zarr.json");
  } catch (const zarr::Error&) {
  }
  return 0;
}
