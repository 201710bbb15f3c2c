// The two halves of the zip store (docs/store-zip.md): a reader of existing
// archives and a writer of new ones. open_zip_store (zip_store.cpp) picks one.
#pragma once

#include <memory>
#include <string>

#include "stores/zip_store.h"

namespace zarr::zip {

// Read-only store over an existing archive, read in place.
std::shared_ptr<Store> make_reader(const std::string& archive);

// Writable store collecting a new archive, written by flush().
std::shared_ptr<Store> make_writer(const std::string& archive, const ZipStoreOptions& options);

// How stores describe themselves and how URLs name them: "ARCHIVE|zip:".
std::string describe_archive(const std::string& archive);

// libzip's text for one of its ZIP_ER_* codes.
std::string error_text(int zip_error_code);

}  // namespace zarr::zip
