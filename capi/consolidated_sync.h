// Keeping consolidated metadata in step with the changes the C API makes
// (docs/c-api.md#consolidated-metadata): every function that creates, erases
// or changes a node's metadata calls this as the last step of its work.
#pragma once

#include <string>

#include "stores/store.h"

namespace zarr::capi {

// After a change at `path` in `store`: the consolidated metadata at or above
// it is brought in step (hierarchy/consolidated.h). `url` is the URL the
// caller named the node by, or "" when it was reached through a group: a
// local path is resolved again as creating there would (the store rooted at
// the topmost group above it), so that a node opened by its own path still
// reaches the hierarchy's consolidated metadata. Other URLs name their node
// as the store's root: where the store can see one folder up
// (Store::store_above: S3), the change climbs while the folder above is a
// group, up to 32 levels, to the hierarchy's root; elsewhere (memory, zip
// inside one archive, read-only HTTP) only what that store holds is seen.
void keep_consolidated_in_step(const std::string& url, Store& store, const std::string& path);

}  // namespace zarr::capi
