// Zarr v2 metadata documents: .zarray, .zgroup, .zattrs.
#pragma once

#include <string>

#include "base/metadata_keys.h"
#include "metadata/array_metadata.h"

namespace zarr {

// Parse a stored .zarray document. Every field is required as the spec says;
// unknown keys are ignored. `where` names the key ("a/b/.zarray") in errors.
ArrayMetadata parse_v2_array_metadata(const std::string& text, const std::string& where);

// Parse a .zarray document given to zarr_create: "shape" and "dtype" are
// required, every other field takes zarr-python's default (docs/c-api.md).
// An "attributes" object (not a .zarray field) is kept in attributes_json:
// Array::create writes it as the new array's .zattrs.
ArrayMetadata parse_v2_array_metadata_for_create(const std::string& text, const std::string& where);

// Serialise as zarr-python 2.13 writes .zarray: sorted keys, 4-space indent.
std::string serialize_v2_array_metadata(const ArrayMetadata& meta);

// The .zgroup document: {"zarr_format": 2}.
std::string v2_group_document();

// Check a stored .zgroup document (JSON object with zarr_format 2).
void validate_v2_group_metadata(const std::string& text, const std::string& where);

}  // namespace zarr
