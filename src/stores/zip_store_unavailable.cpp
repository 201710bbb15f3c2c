// open_zip_store in builds without libzip (meson option -Dzip=disabled).
#include "base/error.h"
#include "stores/key_rules.h"
#include "stores/zip_store.h"

namespace zarr {

std::shared_ptr<Store> open_zip_store(const std::string& archive, bool, const ZipStoreOptions&) {
  fail(ZARR_ERR_UNSUPPORTED, "cannot open zip archive " + keys::quote(archive) +
                                 ": this libzarr was built without zip support (libzip)");
}

}  // namespace zarr
