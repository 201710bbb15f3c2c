// A read-only view of a store whose metadata documents come from consolidated
// metadata (v2 .zmetadata, v3 "consolidated_metadata"): opening nodes and
// listing groups (list_dir) then never list or read the underlying store's
// metadata keys; chunk keys, and listings of what is stored (list_prefix),
// go to the underlying store.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "stores/store.h"

namespace zarr {

// `documents`: full store key -> document text, e.g. "a/b/.zarray" or
// "a/b/zarr.json". `root` is the hierarchy root's path in the store ("" for
// the store root): metadata keys of the root itself are read from the store.
std::shared_ptr<Store> make_consolidated_store(std::shared_ptr<Store> inner, std::string root,
                                               std::map<std::string, std::string> documents);

// True for the names of metadata documents (.zarray, .zgroup, .zattrs, zarr.json, .zmetadata).
bool is_metadata_key_name(const std::string& name);

}  // namespace zarr
