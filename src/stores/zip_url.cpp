// The zip store's URLs ("ARCHIVE|zip:node/path") and store options. Built
// with or without libzip: without it, open_zip_store refuses the archive
// once the URL and its options are checked.
#include "base/error.h"
#include "base/path.h"
#include "stores/zip_store.h"

namespace zarr {

namespace {

ZipStoreOptions zip_options(const StoreRequest& request) {
  request.allow_only("zip", {"compression", "deflate_level"});
  ZipStoreOptions options;
  std::string compression = request.string_option("compression").value_or("stored");
  if (compression != "stored" && compression != "deflate") {
    fail(ZARR_ERR_INVALID_ARGUMENT, "options: store option 'compression' must be \"stored\" or \"deflate\", got \"" +
                                        compression + "\"");
  }
  options.deflate = compression == "deflate";
  if (std::optional<int64_t> level = request.int_option("deflate_level", 1, 9)) {
    if (!options.deflate) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: store option 'deflate_level' needs \"compression\": \"deflate\"");
    }
    options.deflate_level = static_cast<int>(*level);
  }
  return options;
}

}  // namespace

// The archive is the file the base of the URL names.
NodeLocation open_zip_url(const StoreRequest& archive, const std::string& path_in_zip) {
  if (archive.scheme != "file") {
    fail(ZARR_ERR_UNSUPPORTED, archive.shown("zip archives are read from local files only, not over " + archive.scheme));
  }
  ZipStoreOptions options = zip_options(archive);
  std::string node = path::normalize(path_in_zip);  // checked before the archive is touched
  return {open_zip_store(archive.location, archive.writes(), options), node};
}

}  // namespace zarr
