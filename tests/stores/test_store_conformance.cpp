// The local stores in the conformance suite (store_conformance.h): one
// StoreKind per store, one INSTANTIATE line per suite.
#include "stores/store_conformance.h"

#include "hashmap_store.h"
#include "stores/filesystem_store.h"
#include "stores/memory_store.h"
#include "stores/plugin_store.h"
#include "stores/zip_store.h"
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

// A store a program registered (zarr_plugin.h): the C hash-map store of
// tests/plugins/hashmap_store.c behind libzarr's adapter. Its tables, like
// memory stores, live while a handle holds them.
std::shared_ptr<Store> open_hashmap(const std::string& scratch, StoreAccess access) {
  static const bool registered = [] {
    zarr_store_vtable vtable = hashmap_store_vtable("hashmap");
    register_plugin_store(&vtable, {});
    return true;
  }();
  (void)registered;
  StoreRequest request;
  request.url = "hashmap://conformance" + scratch;
  request.scheme = "hashmap";
  request.location = "conformance" + scratch;
  request.access = access;
  return open_plugin_store(request).store;
}

StoreKind plugin_kind() {
  StoreKind kind;
  kind.name = "plugin_hashmap_in_c";
  kind.make_empty = [](const std::string& scratch) { return open_hashmap(scratch, StoreAccess::kCreate); };
  kind.make_read_only = populate_then(kind.make_empty, [](const std::string& scratch, std::shared_ptr<Store>) {
    return open_hashmap(scratch, StoreAccess::kRead);  // opened while the writer still holds the table
  });
  return kind;
}

ZipStoreOptions deflated() {
  ZipStoreOptions options;
  options.deflate = true;
  return options;
}

std::vector<StoreKind> local_kinds() {
  std::vector<StoreKind> kinds = {filesystem_kind(), memory_kind(), plugin_kind()};
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
