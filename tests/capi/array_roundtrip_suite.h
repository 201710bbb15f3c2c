// The array round-trip suite: arrays of every kind created, written, read
// back, resized and reopened through the C API under one store, the same
// GoogleTest cases parameterised over stores (as store_conformance.h is over
// the store interface). Adding a store is one line:
//
//   INSTANTIATE_TEST_SUITE_P(Memory, ArrayRoundTrip, testing::Values(memory_roundtrip_store()), roundtrip_store_name);
//
// Cases: fixed-size types in v2 and v3, filters and checksums, sharding with
// the index at either end, partial and unaligned writes against a model,
// chunks back to the fill value, resize and append, strings, hierarchies
// with attributes (listed where the store lists, consolidated everywhere),
// and read-only handles.
#pragma once

#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "capi_helpers.h"
#include "support/test_support.h"

namespace zarr::test {

struct RoundTripStore {
  std::string name;  // appended to test names: letters, digits and '_'
  // The URL of a fresh, empty store (or folder) the test fills; scratch_dir
  // is an empty folder the test owns. The test keeps a handle open on an
  // array in it throughout, so that in-process stores, which free their data
  // with their last handle, keep it between the test's own handles.
  std::function<std::string(const std::string& scratch_dir)> fresh_url;
  bool listable = true;  // zarr_group_list works without consolidated metadata
  // Optional, around each test: prepare returns why the store cannot run
  // here ("" when it can; the test then skips), finish undoes what prepare
  // did (environment variables a remote store reads, say).
  std::function<std::string()> prepare;
  std::function<void()> finish;
};

std::string roundtrip_store_name(const testing::TestParamInfo<RoundTripStore>& info);

// The built-in stores every build has.
RoundTripStore filesystem_roundtrip_store();
RoundTripStore memory_roundtrip_store();

class ArrayRoundTrip : public testing::TestWithParam<RoundTripStore> {
 protected:
  void SetUp() override;
  void TearDown() override;
  // URL + "/root" under a fresh URL per Zarr format (one hierarchy holds one
  // format), then root(format) + "/" + name for nodes.
  std::string root(int zarr_format);
  std::string node(const std::string& name, int zarr_format = 2) { return root(zarr_format) + "/" + name; }

 private:
  TempDir scratch_;
  std::string roots_[2];
  ArrayPtr keepers_[2];
};

}  // namespace zarr::test
