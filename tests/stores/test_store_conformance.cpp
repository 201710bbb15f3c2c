// The local stores in the conformance suite (store_conformance.h): one
// StoreKind per store, one INSTANTIATE line per suite.
#include "stores/store_conformance.h"

#include "zarr_config.h"

namespace zarr::conformance {
namespace {

StoreKind filesystem_kind() {
  StoreKind kind;
  kind.name = "filesystem";
  kind.make_empty = [](const std::string& scratch) { return make_filesystem_store(scratch + "/root"); };
  kind.make_read_only = populate_then(kind.make_empty, [](const std::string& scratch, std::shared_ptr<Store>) {
    return make_filesystem_store(scratch + "/root", true);
  });
  return kind;
}

// The scratch folder's path names the test's memory store: no two tests share one.
StoreKind memory_kind() {
  StoreKind kind;
  kind.name = "memory";
  kind.make_empty = [](const std::string& scratch) { return make_memory_store("conformance" + scratch); };
  kind.make_read_only = populate_then(kind.make_empty, [](const std::string& scratch, std::shared_ptr<Store>) {
    return make_memory_store("conformance" + scratch, true);  // opened while the writer still holds the data
  });
  return kind;
}

// Written through the zip writer, then read from the archive it wrote.
StoreKind zip_kind(const std::string& name, const ZipStoreOptions& options) {
  StoreKind kind;
  kind.name = name;
  kind.make_empty = [options](const std::string& scratch) {
    return open_zip_store(scratch + "/store.zip", true, options);
  };
  kind.make_read_only = populate_then(kind.make_empty, [](const std::string& scratch, std::shared_ptr<Store> written) {
    release_store(std::move(written));  // the last user: writes the archive
    return open_zip_store(scratch + "/store.zip", false, ZipStoreOptions{});
  });
  return kind;
}

ZipStoreOptions deflated() {
  ZipStoreOptions options;
  options.deflate = true;
  return options;
}

std::vector<StoreKind> local_kinds() {
  std::vector<StoreKind> kinds = {filesystem_kind(), memory_kind()};
#if ZARR_HAVE_ZIP
  kinds.push_back(zip_kind("zip_stored", ZipStoreOptions{}));
  kinds.push_back(zip_kind("zip_deflated", deflated()));
#endif
  return kinds;
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Local, StoreReadConformance, testing::ValuesIn(local_kinds()), kind_test_name);
INSTANTIATE_TEST_SUITE_P(Local, StoreWriteConformance, testing::ValuesIn(local_kinds()), kind_test_name);

}  // namespace zarr::conformance
