// The in-process memory store (docs/stores.md): memory://NAME[/node/path].
#pragma once

#include <memory>
#include <string>

#include "stores/store.h"
#include "stores/store_request.h"

namespace zarr {

// In-process store, shared by name while any handle holds it (memory://NAME).
// A leading "memory://" in name is ignored, so "memory://a" and "a" are the
// same store. Once every handle on a name is gone its data is freed. The
// empty name gives a fresh, unshared store each time. A read-only handle sees
// the same data as writable handles on that name but cannot change it
// (ZARR_ERR_READ_ONLY naming the store).
std::shared_ptr<Store> make_memory_store(const std::string& name);
std::shared_ptr<Store> make_memory_store(const std::string& name, bool read_only);

// The URL factory: "memory://NAME[/node/path]" (no store options).
NodeLocation open_memory_url(const StoreRequest& request);

}  // namespace zarr
