// libFuzzer target: index arithmetic near 2^64 (docs/reliability.md, "Index
// arithmetic"). The input picks an array (v2 or v3, sharded or not, fixed or
// variable-length elements) whose shape lies near 2^64, 2^63, 2^62 or 2^32,
// a region near the end of every axis, a resize and an append; the shared
// property (tests/support/index_arithmetic.h) creates it in memory, writes and
// reads that region through buffers with guard bytes on both sides, and
// aborts on anything but exact results or a refusal of exactly the shapes
// that cannot be represented.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/index_arithmetic.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const index_arithmetic::Case c = index_arithmetic::case_from_bytes(data, size);
  const std::string broken = index_arithmetic::check(c, "memory://fuzz-index-arithmetic/a").broken;
  if (!broken.empty()) {
    std::fprintf(stderr, "fuzz_index_arithmetic: %s\n  case: %s\n", broken.c_str(), index_arithmetic::describe(c).c_str());
    std::abort();
  }
  return 0;
}
