// The names of the metadata documents of each Zarr format, under a node's
// path. Format facts that several floors need (the metadata room parses the
// documents, the stores room finds a filesystem hierarchy's root, the
// consolidated store serves them), so they live on the ground floor.
#pragma once

namespace zarr {

inline constexpr const char* kV1MetaKey = "meta";
inline constexpr const char* kV1AttrsKey = "attrs";

inline constexpr const char* kV2ArrayKey = ".zarray";
inline constexpr const char* kV2GroupKey = ".zgroup";
inline constexpr const char* kV2AttrsKey = ".zattrs";
inline constexpr const char* kV2ConsolidatedKey = ".zmetadata";

inline constexpr const char* kV3MetadataKey = "zarr.json";

}  // namespace zarr
