// Creating an array by URL, shared by zarr_create_ex and zarr_create_from_desc:
// the metadata document may depend on where the array goes (a description's
// zarr_format 0 takes the enclosing group's format), so it is made once the
// URL is resolved.
#pragma once

#include <functional>
#include <string>

#include "stores/store.h"

struct zarr_array;

namespace zarr::capi {

using MetadataFor = std::function<std::string(const Store& store, const std::string& path)>;

// zarr_create_ex's work (inside guarded()): *out receives the new handle.
void create_array(zarr_array** out, const char* url, const MetadataFor& metadata_for, const char* options_json);

}  // namespace zarr::capi
