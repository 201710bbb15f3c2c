// Extensions libzarr reads but writes only when asked to: their
// specifications are proposals that may still change, so data written today
// may not be what the final text describes.
#pragma once

#include <string>

namespace zarr {

// The environment variable that lets libzarr write zarrs' "optional" data
// type and codec (docs/v3.md, "Experimental: optional"): "1" enables it.
inline constexpr const char* kExperimentalOptionalVariable = "ZARR_EXPERIMENTAL_OPTIONAL";

// True when kExperimentalOptionalVariable is "1" (read at each call, so
// tests and long-running programs may change it).
bool optional_writes_enabled();

// ZARR_ERR_UNSUPPORTED naming `what` and the variable, unless
// optional_writes_enabled().
void require_optional_writes(const std::string& what);

}  // namespace zarr
