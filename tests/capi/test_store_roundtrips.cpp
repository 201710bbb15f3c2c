// The array round-trip suite (array_roundtrip_suite.h) over the stores every
// build has; tests/plugins runs it over a store written in C.
#include "array_roundtrip_suite.h"

namespace zarr::test {

INSTANTIATE_TEST_SUITE_P(Builtin, ArrayRoundTrip,
                         testing::Values(filesystem_roundtrip_store(), memory_roundtrip_store()),
                         roundtrip_store_name);

}  // namespace zarr::test
