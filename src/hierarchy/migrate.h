// Moving stored data between Zarr formats in place, as zarr-python's
// migrate_1to2 and `zarr migrate v3` do: metadata is rewritten, chunks stay.
#pragma once

#include <string>

#include "stores/store.h"

namespace zarr {

// A legacy v1 array ("meta", "attrs") becomes a v2 array (.zarray, .zattrs).
// The v2 documents are written before the v1 keys are erased, so an
// interrupted migration leaves an array that still opens.
void migrate_v1_to_v2(Store& store, const std::string& path);

// A v2 array, or a v2 group with everything below it, becomes v3: zarr.json
// with the "v2" chunk key encoding (so every chunk keeps its key and bytes),
// the byte order as the bytes codec, "order" F as a transpose, filters and
// compressor as v3 codecs (gzip/zstd/blosc by their core names, others as
// numcodecs.*), attributes inside zarr.json. Every node is checked before
// anything is written; a node that v3 cannot express (structured data types,
// json2 object arrays, a bytes->bytes filter ahead of an array filter) is
// ZARR_ERR_UNSUPPORTED naming it and nothing changes. A group that had v2
// consolidated metadata (.zmetadata) carries it in the v3 form afterwards
// (its zarr.json's consolidated_metadata, of the migrated members), and its
// .zmetadata is gone. Returns the number of nodes converted.
size_t migrate_v2_to_v3(Store& store, const std::string& path);

}  // namespace zarr
