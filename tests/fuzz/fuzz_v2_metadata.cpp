// libFuzzer target: a .zarray document (and the legacy v1 "meta" form) as
// any writer or attacker may leave it. Errors are fine; crashes, leaks,
// hangs and sanitizer reports are not.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.h"
#include "metadata/v1_metadata.h"
#include "metadata/v2_metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    zarr::parse_v2_array_metadata(text, ".zarray");
  } catch (const zarr::Error&) {
  }
  try {
    zarr::parse_v1_array_metadata(text, "meta");
  } catch (const zarr::Error&) {
  }
  return 0;
}
