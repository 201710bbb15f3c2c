// A node's attributes as stored and their read-modify-write
// (metadata/node_attributes.h), on the memory store.
#include <gtest/gtest.h>

#include "base/error.h"
#include "concurrency/key_lock.h"
#include "metadata/node_attributes.h"
#include "stores/memory_store.h"
#include "support/test_support.h"

using namespace zarr;
using zarr::test::Caught;
using zarr::test::catch_error;

namespace {

std::string stored(const Store& store, const std::string& key) { return ByteView(*store.get(key)).to_string(); }

AttributesNode node_of(Store& store, int format) { return {store, "g", format, "group 'g'", ""}; }

TEST(NodeAttributes, MergeReplacesAddsAtTheEndRemovesNullsAndKeepsOrder) {
  auto store = make_memory_store("");
  store->set("g/.zattrs", std::string(R"({"z": 1, "a": 2, "m": 3})"));
  const std::string now = change_stored_attributes(
      node_of(*store, 2), merging_attributes(R"({"a": [2], "m": null, "b": {"c": null}, "gone": null})", "update"));
  EXPECT_EQ(now, R"({"z":1,"a":[2],"b":{"c":null}})") << "a null inside a value is a value";
  EXPECT_EQ(stored(*store, "g/.zattrs"), "{\n    \"z\": 1,\n    \"a\": [\n        2\n    ],\n    \"b\": {\n        \"c\": null\n    }\n}");
}

TEST(NodeAttributes, AMissingZattrsIsAnEmptyObject) {
  auto store = make_memory_store("");
  EXPECT_EQ(change_stored_attributes(node_of(*store, 2), merging_attributes(R"({"x": 1})", "update")), R"({"x":1})");
}

TEST(NodeAttributes, V3ChangesOnlyTheAttributesMemberAndAddsOneWhenAbsent) {
  auto store = make_memory_store("");
  store->set("g/zarr.json", std::string(R"({"zarr_format": 3, "node_type": "group", "extra": NaN})"));
  change_stored_attributes(node_of(*store, 3), replacing_attributes(R"({"k": "v"})", "set"));
  EXPECT_EQ(stored(*store, "g/zarr.json"),
            "{\n  \"zarr_format\": 3,\n  \"node_type\": \"group\",\n  \"extra\": \"NaN\",\n  \"attributes\": {\n"
            "    \"k\": \"v\"\n  }\n}");
  EXPECT_EQ(stored_v3_attributes(node_of(*store, 3)), R"({"k":"v"})");
}

TEST(NodeAttributes, TheChangeRunsUnderTheKeysLock) {
  auto store = make_memory_store("");
  bool held = false;
  change_stored_attributes(node_of(*store, 2), [&](rapidjson::Value&, rapidjson::Document::AllocatorType&) {
    std::mutex& mutex = key_mutex(store->identity(), "g/.zattrs");
    held = !mutex.try_lock();
    if (!held) mutex.unlock();
  });
  EXPECT_TRUE(held);
}

TEST(NodeAttributes, AttributeValueAndItsErrors) {
  EXPECT_EQ(attribute_value(R"({"a":{"b":[1]}})", "a", "group 'g'"), R"({"b":[1]})");
  Caught missing = catch_error([] { attribute_value(R"({"a":1})", "b", "group 'g'"); });
  EXPECT_EQ(missing.code, ZARR_ERR_NOT_FOUND);
  EXPECT_EQ(missing.message, "no attribute \"b\" in the attributes of group 'g'");
  EXPECT_EQ(catch_error([] { attribute_value("{}", "", "group 'g'"); }).code, ZARR_ERR_INVALID_ARGUMENT);
  // A key is its whole text: "a" does not find "a\u0000b".
  EXPECT_EQ(catch_error([] { attribute_value(R"({"a\u0000b":1})", "a", "group 'g'"); }).code, ZARR_ERR_NOT_FOUND);
}

}  // namespace
