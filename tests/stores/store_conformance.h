// The store conformance suite: one set of GoogleTest cases every store must
// pass, parameterised over kinds of store.
//
//  - StoreReadConformance runs against a read-only store pre-populated with
//    the suite's fixture (read_fixture()): whole values, empty values, byte
//    ranges at the end and beyond, suffix ranges, listing with and without
//    separators, list_dir, keys with spaces and unicode, and writes refused.
//    Every kind runs it. Listing cases skip for stores that are not listable.
//  - StoreWriteConformance runs against a fresh, empty, writable store: set,
//    overwrite, erase, erase_prefix, invalid keys, and concurrent use. Only
//    kinds with make_empty run it.
//
// Adding a store is one line per suite in a registration file, e.g.
//
//   INSTANTIATE_TEST_SUITE_P(Http, StoreReadConformance, testing::Values(http_kind()), kind_test_name);
//
// where http_kind() returns a StoreKind whose make_read_only serves the
// fixture (see test_store_conformance.cpp for the local stores).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "stores/store.h"
#include "support/test_support.h"

namespace zarr::conformance {

using Contents = std::map<std::string, std::string>;  // key -> value

struct StoreKind {
  std::string name;  // appended to test names: letters, digits and '_' only
  // A fresh, empty, writable store. scratch_dir is an empty folder the test
  // owns and removes afterwards. Unset for read-only kinds.
  std::function<std::shared_ptr<Store>(const std::string& scratch_dir)> make_empty;
  // A read-only store holding exactly `contents` (writes must be refused).
  // Either factory may call GTEST_SKIP (in a helper) and return nullptr when
  // the kind cannot run here (its server is not installed): the test skips.
  std::function<std::shared_ptr<Store>(const std::string& scratch_dir, const Contents& contents)> make_read_only;
  // Cases the kind's test server gets wrong (a local stand-in for a real
  // service, as s3rver is for S3), by test name ("SuffixRanges"), each with
  // what the server does wrong: they skip, saying so.
  std::map<std::string, std::string> server_limitations;
};

// A value as text for comparisons ("<absent>" for no value), and the byte
// ranges [offset, offset + length) (no length: to the end) and "the last n".
std::string text(const std::optional<Bytes>& value);
ByteRange range(uint64_t offset, std::optional<uint64_t> length);
ByteRange suffix(uint64_t n);

// What StoreReadConformance's stores must hold: values of every size from
// empty to a few hundred KiB, nested folders, spaces and unicode in keys.
const Contents& read_fixture();

// For writable kinds: a make_read_only that writes the contents through
// make_empty's store, hands it to `reopen` (which may flush it, close it...)
// and returns the read-only store reopen gives back.
std::function<std::shared_ptr<Store>(const std::string&, const Contents&)> populate_then(
    std::function<std::shared_ptr<Store>(const std::string& scratch_dir)> make_empty,
    std::function<std::shared_ptr<Store>(const std::string& scratch_dir, std::shared_ptr<Store> written)> reopen);

std::string kind_test_name(const testing::TestParamInfo<StoreKind>& info);

class StoreReadConformance : public testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override;

  test::TempDir scratch_;          // declared first: removed after the store is gone
  std::shared_ptr<Store> store_;  // holds read_fixture()
};

class StoreWriteConformance : public testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override;

  test::TempDir scratch_;
  std::shared_ptr<Store> store_;  // empty, writable
};

}  // namespace zarr::conformance
