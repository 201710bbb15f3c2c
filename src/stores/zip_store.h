// The zip store (docs/store-zip.md): a zip archive on the local filesystem,
// reached by the URL pipeline "PATH_OR_FILE_URL|zip:[node/path]".
#pragma once

#include <memory>
#include <string>

#include "stores/store.h"
#include "stores/store_request.h"

namespace zarr {

struct ZipStoreOptions {
  // Entries are stored uncompressed by default: chunks are compressed already.
  bool deflate = false;
  int deflate_level = 0;  // 1 (fastest) .. 9 (smallest); 0: zlib's default (6)
};

// Zip archive at `archive` (docs/store-zip.md). Keys are entry names.
//  - read-only (writable false): the existing archive, read in place; a
//    missing archive is ZARR_ERR_NOT_FOUND, an unreadable one ZARR_ERR_IO.
//  - writable: a new archive, written by flush() (or, failing that, by the
//    destructor) to a temporary file renamed over `archive`. Values wait in an
//    unlinked spool file beside the archive until then. An archive that
//    already exists is ZARR_ERR_READ_ONLY: zip entries cannot be updated in place.
// While a writable store on an archive is alive, every open of that archive
// (either way) gets that same store, so handles see each other's writes and
// one archive is written.
// Builds without libzip throw ZARR_ERR_UNSUPPORTED.
std::shared_ptr<Store> open_zip_store(const std::string& archive, bool writable, const ZipStoreOptions& options);

// The URL factory (zip_url.cpp): the archive `archive` names (a file path or
// file:// URL) and the node at path_in_zip inside it. Store options:
// "compression" ("stored" or "deflate") and "deflate_level" (1 to 9).
NodeLocation open_zip_url(const StoreRequest& archive, const std::string& path_in_zip);

}  // namespace zarr
