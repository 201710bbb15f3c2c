// Legacy Zarr v1 arrays: "meta" (with "compression" + "compression_opts")
// and "attrs" keys. Read-only; migration rewrites them as v2.
#pragma once

#include <string>

#include "base/metadata_keys.h"
#include "metadata/array_metadata.h"

namespace zarr {

// Parse a v1 "meta" document into the internal form (chunk keys are the same
// "i.j" keys as v2 with the "." separator).
ArrayMetadata parse_v1_array_metadata(const std::string& text, const std::string& where);

// The v2 compressor configuration equivalent to v1's compression and
// compression_opts ("null" for none), as zarr-python's migrate_1to2 builds it.
std::string v1_compressor_as_v2_json(const std::string& meta_text, const std::string& where);

}  // namespace zarr
