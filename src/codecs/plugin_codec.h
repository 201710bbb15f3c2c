// Codecs a plugin registered through a zarr_codec_vtable (zarr_plugin.h):
// bytes->bytes codecs under one name, both a v2 id and a v3 name.
#pragma once

#include <string>

#include "zarr/zarr_plugin.h"

namespace zarr {

// Validate the vtable (ZARR_ERR_INVALID_ARGUMENT naming the field,
// ZARR_ERR_UNSUPPORTED for an unknown abi_version), copy it and register its
// codec. On failure the message is also kept for plugin_registration_error().
void register_plugin_codec(const zarr_codec_vtable* vtable);

// The last registration failure on this thread since the last clear: the
// plugin loader adds it to the report of a plugin whose init failed.
void clear_plugin_registration_error();
std::string plugin_registration_error();

}  // namespace zarr
