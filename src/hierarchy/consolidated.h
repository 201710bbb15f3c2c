// Consolidated metadata: every metadata document of a hierarchy kept in one
// place (v2: the root's .zmetadata key; v3: the root zarr.json's
// "consolidated_metadata" member), as zarr-python writes and reads it.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "base/metadata_keys.h"
#include "stores/store.h"

namespace zarr {

// The consolidated documents of the hierarchy rooted at `root` (a normalised
// node path): full store key -> document text. nullopt when the root has
// none. Malformed consolidated metadata is ZARR_ERR_INVALID_METADATA naming
// the key.
std::optional<std::map<std::string, std::string>> read_consolidated(const Store& store, const std::string& root);

// Walk the hierarchy below `root` (a group) and store its consolidated
// metadata in the root's format. Returns the number of nodes recorded.
size_t write_consolidated(Store& store, const std::string& root);

// After a change at `node` (created, erased, resized, attributes set,
// migrated: `node` and everything below it), brings every consolidated
// metadata document the store holds at `node` or above it in step: the
// node's entries are replaced by what the store now holds (none for a node
// erased). Nothing happens where there is none, or on a store that cannot be
// written (a hierarchy opened through consolidated metadata).
void update_consolidated(Store& store, const std::string& node);

}  // namespace zarr
