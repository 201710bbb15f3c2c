// The names of the zarr-extensions registry (the normative list of names a
// Zarr v3 reader meets), so an unknown name can say whether it is a registered
// extension libzarr lacks or a name nobody registered. The table is kept by
// hand; tests/base/test_zarr_extensions.cpp compares it with the registry's
// folders (../shared/specs/zarr-extensions) and docs/v3.md's table with both.
#pragma once

#include <string>
#include <vector>

namespace zarr {

// The registry's extension points, one folder each.
enum class ExtensionPoint { DataType, Codec, ChunkGrid, ChunkKeyEncoding, StorageTransformer };

// The registry folder of a point ("data-types", "codecs", ...).
const char* extension_point_folder(ExtensionPoint point);

// What the point's names are called in messages and in docs/v3.md's table
// ("data type", "codec", "chunk grid", "chunk key encoding", "storage transformer").
const char* extension_point_noun(ExtensionPoint point);

// Every name the registry holds for `point` (the folder names; "r" stands for
// the raw types r8, r16, ...).
const std::vector<std::string>& registered_extension_names(ExtensionPoint point);

// For an unknown name: "; 'zfp' is a codec of the zarr-extensions registry that
// libzarr does not implement yet" when the registry holds the name, "" when it
// does not. Errors append it to their "... is not supported".
std::string registered_but_unimplemented_note(ExtensionPoint point, const std::string& name);

}  // namespace zarr
