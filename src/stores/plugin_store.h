// Stores a program registered through a zarr_store_vtable (zarr_plugin.h),
// reached by URLs "SCHEME://NAME[/path]".
#pragma once

#include <string>
#include <vector>

#include "stores/store_request.h"
#include "zarr/zarr_plugin.h"

namespace zarr {

// Validate the vtable (ZARR_ERR_INVALID_ARGUMENT naming the field,
// ZARR_ERR_UNSUPPORTED for an unknown abi_version), copy it and register it
// under its scheme, replacing any earlier registration. `reserved` lists the
// schemes the URL resolver keeps for itself; taking one is refused.
void register_plugin_store(const zarr_store_vtable* vtable, const std::vector<std::string>& reserved);

// The registered schemes, sorted, for error messages.
std::vector<std::string> plugin_store_schemes();
bool plugin_store_registered(const std::string& scheme);

// Open the store a request names ("SCHEME://NAME[/path]"; its scheme is
// registered): the store NAME and the node's path inside it.
NodeLocation open_plugin_store(const StoreRequest& request);

}  // namespace zarr
