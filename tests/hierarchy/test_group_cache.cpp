// A group handle reads its metadata once and keeps it until reopened
// (docs/stores.md, "Caching and consistency").
#include <gtest/gtest.h>

#include <memory>

#include "hierarchy/group.h"
#include "support/key_counting_store.h"

namespace zarr {
namespace {

using testing_support::KeyCountingStore;

TEST(GroupMetadataCache, AttributesAreReadOnceAndKeptUntilReopened) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("zarr_format " + std::to_string(format));
    auto store = std::make_shared<KeyCountingStore>();
    Group::create(store, "g", R"({"a": 1})", format);
    std::unique_ptr<Group> group = Group::open(store, "g", false);
    store->reset();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(group->attributes_json(), R"({"a":1})");
    EXPECT_LE(store->metadata_reads(), format == 2 ? 1 : 0);
    Group::open(store, "g", true)->set_attributes(R"({"a": 2})");
    EXPECT_EQ(group->attributes_json(), R"({"a":1})");
    EXPECT_EQ(Group::open(store, "g", false)->attributes_json(), R"({"a":2})");
  }
}

}  // namespace
}  // namespace zarr
