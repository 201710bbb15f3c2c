// Attributes changed through zarr_update_attributes and
// zarr_group_update_attributes, read by the peers: zarr-python 2.13 reads the
// .zattrs of v2 arrays and groups (which it wrote first), zarrita.js the
// attributes member of v3 zarr.json.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>

#include "interop_support.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarrita_runner.h"

using namespace zarr::interop;

namespace {

// What the updates below leave, for a node created with {"from_peer": 1, "kept": "k"}.
const char* kFirstUpdate = R"({"added": [1, 2.5, null], "from_peer": null, "nested": {"y": "z"}})";
const char* kSecondUpdate = R"({"added": "replaced", "unicode": "\u00e9\u4e2d"})";
const char* kExpected = R"({"kept": "k", "added": "replaced", "nested": {"y": "z"}, "unicode": "\u00e9\u4e2d"})";

// Both updates through array a and group g below root (each call on its own handle).
void update_both(const std::string& root) {
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_open(&a, (root + "/a").c_str(), "r+"), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(zarr_update_attributes(a, kFirstUpdate), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  ASSERT_EQ(zarr_open(&a, (root + "/a").c_str(), "r+"), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(zarr_update_attributes(a, kSecondUpdate), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  zarr_group* g = nullptr;
  ASSERT_EQ(zarr_group_open(&g, (root + "/g").c_str(), "r+"), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(zarr_group_update_attributes(g, kFirstUpdate), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(zarr_group_update_attributes(g, kSecondUpdate), ZARR_OK) << zarr_last_error();
  zarr_group_close(g);
}

// The peer's output: {"a": attributes of a, "g": attributes of g}.
void expect_peer_read(const std::string& out) {
  rapidjson::Document doc;
  doc.Parse(out.c_str());
  ASSERT_FALSE(doc.HasParseError()) << out;
  ASSERT_TRUE(doc.IsObject() && doc.HasMember("a") && doc.HasMember("g")) << out;
  rapidjson::Document expected;
  expected.Parse(kExpected);
  EXPECT_TRUE(doc["a"] == expected) << out;
  EXPECT_TRUE(doc["g"] == expected) << out;
}

}  // namespace

TEST(AttributesInterop, ZarrPythonReadsV2AttributesUpdatedByKey) {
  const std::string why = python_unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  zarr::test::TempDir dir;
  const char* create = R"(
import sys, zarr
root = zarr.open_group(sys.argv[1], mode="w")
root.zeros("a", shape=(4,), chunks=(2,), dtype="<i4").attrs.update({"from_peer": 1, "kept": "k"})
root.create_group("g").attrs.update({"from_peer": 1, "kept": "k"})
)";
  std::string out;
  ASSERT_EQ(run_command(shell_quote(python_exe()) + " -c " + shell_quote(create) + " " + shell_quote(dir.path()) +
                            " 2>&1",
                        &out),
            0)
      << out;
  update_both(dir.path());
  const char* read = R"(
import sys, json, zarr
root = zarr.open_group(sys.argv[1], mode="r")
print(json.dumps({"a": root["a"].attrs.asdict(), "g": root["g"].attrs.asdict()}))
)";
  ASSERT_EQ(run_command(shell_quote(python_exe()) + " -c " + shell_quote(read) + " " + shell_quote(dir.path()) + " 2>&1",
                        &out),
            0)
      << out;
  expect_peer_read(out);
}

TEST(AttributesInterop, ZarritaReadsV3AttributesUpdatedByKey) {
  const ZarritaPeer& peer = zarrita_peer();
  if (!peer.skip.empty()) GTEST_SKIP() << peer.skip;
  zarr::test::TempDir dir;
  const std::string initial = R"({"from_peer": 1, "kept": "k"})";
  zarr_array* a = nullptr;
  const std::string meta =
      R"({"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "int32", "attributes": )" + initial +
      R"(, "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}}, "chunk_key_encoding": {"name": "default"}, "fill_value": 0})";
  ASSERT_EQ(zarr_create(&a, (dir / "a").c_str(), meta.c_str()), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  zarr_group* g = nullptr;
  ASSERT_EQ(zarr_group_create_ex(&g, (dir / "g").c_str(), initial.c_str(), R"({"zarr_format": 3})"), ZARR_OK)
      << zarr_last_error();
  zarr_group_close(g);
  update_both(dir.path());
  const char* read = R"(
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
const out = {};
for (const [name, kind] of [["a", "array"], ["g", "group"]]) {
  const node = await zarr.open.v3(zarr.root(new FileSystemStore(process.argv[1] + "/" + name)), { kind });
  out[name] = node.attrs;
}
console.log(JSON.stringify(out));
)";
  std::string out;
  // --eval resolves "zarrita" from the working folder, where the peer is installed.
  ASSERT_EQ(run_command("cd " + shell_quote(peer.dir) + " && node --input-type=module -e " + shell_quote(read) + " " +
                            shell_quote(dir.path()) + " 2>&1",
                        &out),
            0)
      << out;
  expect_peer_read(out);
}
