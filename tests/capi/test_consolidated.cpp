// Consolidated metadata: written as zarr-python writes it, and a hierarchy
// opened through it never reads the per-node metadata keys.
#include <cstdlib>
#include <filesystem>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

// A group with a subgroup and two arrays, in the given format.
void make_hierarchy(const std::string& url, int format) {
  GroupPtr g;
  std::string options = "{\"zarr_format\": " + std::to_string(format) + "}";
  ASSERT_OK(zarr_group_create_ex(g.out(), url.c_str(), "{\"title\": \"t\"}", options.c_str()));
  std::string doc = format == 3 ? "{\"shape\": [4], \"data_type\": \"int32\", \"chunk_grid\": {\"name\": \"regular\", "
                                  "\"configuration\": {\"chunk_shape\": [2]}}}"
                                : array_meta("[4]", "[2]");
  for (const char* path : {"a", "sub/b"}) {
    ArrayPtr a;
    ASSERT_OK(zarr_group_create_array(a.out(), g, path, doc.c_str()));
    ASSERT_OK(write_region<int32_t>(a, {0}, {4}, {1, 2, 3, 4}));
  }
}

std::string listing(zarr_group* g) {
  char* json = nullptr;
  EXPECT_EQ(zarr_group_list(g, &json), ZARR_OK) << zarr_last_error();
  std::string out = json ? json : "";
  zarr_free(json);
  return out;
}

// Open through consolidated metadata after hiding every per-node metadata
// file: only the consolidated document can be answering.
void expect_opens_from_consolidated_only(const std::string& url, const char* node_metadata) {
  std::filesystem::rename(url + "/a/" + node_metadata, url + "/a/hidden");
  std::filesystem::rename(url + "/sub/b/" + node_metadata, url + "/sub/b/hidden");
  GroupPtr g;
  ASSERT_OK(zarr_group_open_ex(g.out(), url.c_str(), "r", "{\"consolidated\": true}"));
  EXPECT_EQ(listing(g), "[{\"name\":\"a\",\"kind\":\"array\"},{\"name\":\"sub\",\"kind\":\"group\"}]");
  ArrayPtr b;
  ASSERT_OK(zarr_group_open_array(b.out(), g, "sub/b", "r"));
  EXPECT_EQ(read_all<int32_t>(b), (std::vector<int32_t>{1, 2, 3, 4}));
  GroupPtr plain;
  ASSERT_OK(zarr_group_open_ex(plain.out(), url.c_str(), "r", "{\"consolidated\": false}"));
  ArrayPtr missing;
  EXPECT_STATUS(zarr_group_open_array(missing.out(), plain, "a", "r"), ZARR_ERR_NOT_FOUND, "no array");
}

}  // namespace

TEST(Consolidated, V2ZmetadataAsZarrPythonWritesIt) {
  TempDir dir;
  const std::string url = dir / "h";
  make_hierarchy(url, 2);
  ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
  zarr::Bytes raw = read_file(url + "/.zmetadata");
  std::string text(raw.begin(), raw.end());
  for (const char* key : {"\".zgroup\"", "\".zattrs\"", "\"a/.zarray\"", "\"sub/.zgroup\"", "\"sub/b/.zarray\"",
                          "\"zarr_consolidated_format\": 1"}) {
    EXPECT_NE(text.find(key), std::string::npos) << key << "\n" << text;
  }
  // zarr-python reads it through its own consolidated reader.
  if (std::system("/usr/bin/python3 -c 'import zarr' 2>/dev/null") == 0) {
    std::string cmd = "/usr/bin/python3 -c \"import zarr; g = zarr.open_consolidated('" + url +
                      "'); assert list(g['sub/b'][:]) == [1, 2, 3, 4]; assert g.attrs['title'] == 't'\"";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
  }
  expect_opens_from_consolidated_only(url, ".zarray");
}

// Arrays reached through a group opened with consolidated metadata listed
// the consolidated documents as their stored keys: zarr_stored_chunks gave
// [], zarr_info 0 chunks initialized and 0 bytes, for arrays full of chunks.
TEST(Consolidated, WhatIsStoredIsListedFromTheStoreItself) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    TempDir dir;
    const std::string url = dir / "h";
    make_hierarchy(url, format);
    ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
    GroupPtr g;
    ASSERT_OK(zarr_group_open_ex(g.out(), url.c_str(), "r", "{\"consolidated\": true}"));
    ArrayPtr b;
    ASSERT_OK(zarr_group_open_array(b.out(), g, "sub/b", "r"));
    char* json = nullptr;
    ASSERT_OK(zarr_stored_chunks(b, &json));
    EXPECT_STREQ(json, "{\"chunks\":[[0],[1]],\"stray_keys\":[]}");
    zarr_free(json);
    ASSERT_OK(zarr_info(b, &json));
    const std::string info = json;
    zarr_free(json);
    EXPECT_NE(info.find("\"chunks_initialized\":2"), std::string::npos) << info;
    EXPECT_EQ(info.find("\"nbytes_stored\":0,"), std::string::npos) << info;
    // The group's children still come from the consolidated document alone.
    std::filesystem::create_directories(url + "/not_a_node");
    EXPECT_EQ(listing(g), "[{\"name\":\"a\",\"kind\":\"array\"},{\"name\":\"sub\",\"kind\":\"group\"}]");
  }
}

// Creating, erasing, resizing, appending and setting attributes never
// touched an existing .zmetadata or consolidated_metadata: a group opened
// through it kept listing an erased array (which read as fill values) and
// the old shape and attributes. Each change now brings it in step, whether
// the node was named by its own path or reached through a group.
TEST(Consolidated, EveryChangeKeepsItInStep) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    TempDir dir;
    const std::string url = dir / "h";
    make_hierarchy(url, format);
    ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
    const std::string doc = format == 3 ? "{\"shape\": [3], \"data_type\": \"int32\", \"chunk_grid\": {\"name\": "
                                          "\"regular\", \"configuration\": {\"chunk_shape\": [3]}}}"
                                        : array_meta("[3]", "[3]");
    {
      ArrayPtr c;  // by its own path
      ASSERT_OK(zarr_create(c.out(), (url + "/sub/c").c_str(), doc.c_str()));
      ArrayPtr a;
      ASSERT_OK(zarr_open(a.out(), (url + "/a").c_str(), "r+"));
      const uint64_t shape[] = {6};
      ASSERT_OK(zarr_resize(a, 1, shape));
      ASSERT_OK(zarr_set_attributes(a, "{\"units\": \"K\"}"));
      ASSERT_OK(zarr_erase((url + "/sub/b").c_str(), nullptr));
      GroupPtr root;  // through a group
      ASSERT_OK(zarr_group_open(root.out(), url.c_str(), "r+"));
      ASSERT_OK(zarr_group_set_attributes(root, "{\"title\": \"new\"}"));
      GroupPtr sub;
      ASSERT_OK(zarr_group_open_group(sub.out(), root, "sub"));
      ArrayPtr d;
      ASSERT_OK(zarr_group_create_array(d.out(), sub, "d", doc.c_str()));
      const uint64_t count[] = {3};
      const int32_t more[] = {7, 8, 9};
      ASSERT_OK(zarr_append(d, 0, 1, count, more, sizeof more));
    }
    GroupPtr g;
    ASSERT_OK(zarr_group_open_ex(g.out(), url.c_str(), "r", "{\"consolidated\": true}"));
    char* json = nullptr;
    ASSERT_OK(zarr_group_get_attributes(g, &json));
    EXPECT_STREQ(json, "{\"title\":\"new\"}");
    zarr_free(json);
    GroupPtr sub;
    ASSERT_OK(zarr_group_open_group(sub.out(), g, "sub"));
    EXPECT_EQ(listing(sub), "[{\"name\":\"c\",\"kind\":\"array\"},{\"name\":\"d\",\"kind\":\"array\"}]");
    ArrayPtr a;
    ASSERT_OK(zarr_group_open_array(a.out(), g, "a", "r"));
    uint64_t shape = 0;
    ASSERT_OK(zarr_shape(a, &shape));
    EXPECT_EQ(shape, 6u);
    ASSERT_OK(zarr_get_attributes(a, &json));
    EXPECT_STREQ(json, "{\"units\":\"K\"}");
    zarr_free(json);
    ArrayPtr d;
    ASSERT_OK(zarr_group_open_array(d.out(), g, "sub/d", "r"));
    ASSERT_OK(zarr_shape(d, &shape));
    EXPECT_EQ(shape, 6u);
    if (format == 2 && std::system("/usr/bin/python3 -c 'import zarr' 2>/dev/null") == 0) {
      const std::string cmd = "/usr/bin/python3 -c \"import zarr; g = zarr.open_consolidated('" + url +
                              "'); assert sorted(g['sub']) == ['c', 'd'], list(g['sub']); assert g['a'].shape == (6,); "
                              "assert g['a'].attrs['units'] == 'K'; assert g.attrs['title'] == 'new'\"";
      EXPECT_EQ(std::system(cmd.c_str()), 0);
    }
  }
}

// Consolidated metadata left stale by another writer (zarr-python's rmdir and
// create do not update it): reading an erased array through it returned
// fill values, and one replaced by another shape was read with the old
// one. The first chunk found absent now checks the node's own metadata.
TEST(Consolidated, StaleEntriesAreReportedWhenAReadFindsNoChunk) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    TempDir dir;
    const std::string url = dir / "h";
    make_hierarchy(url, format);
    ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
    std::filesystem::remove_all(url + "/a");  // behind libzarr's back
    const char* own = format == 3 ? "zarr.json" : ".zarray";
    const std::string b_meta = url + "/sub/b/" + own;
    zarr::Bytes raw = read_file(b_meta);
    std::string text(raw.begin(), raw.end());
    text.replace(text.find('4', text.find("\"shape\"")), 1, "9");  // shape [4] -> [9]
    write_file(b_meta, zarr::ByteView(text));
    std::filesystem::remove_all(url + "/sub/b/" + std::string(format == 3 ? "c" : "0"));
    GroupPtr g;
    ASSERT_OK(zarr_group_open_ex(g.out(), url.c_str(), "r", "{\"consolidated\": true}"));
    ArrayPtr a;
    ASSERT_OK(zarr_group_open_array(a.out(), g, "a", "r"));  // from the consolidated document
    std::vector<int32_t> out(9);
    const uint64_t start[] = {0}, count[] = {4};
    EXPECT_STATUS(zarr_read_region(a, 1, start, count, out.data(), 16), ZARR_ERR_NOT_FOUND,
                  "'a' is in the consolidated metadata");
    EXPECT_NE(std::string(zarr_last_error()).find("is gone: the consolidated metadata is stale"), std::string::npos)
        << zarr_last_error();
    ArrayPtr b;
    ASSERT_OK(zarr_group_open_array(b.out(), g, "sub/b", "r"));
    EXPECT_STATUS(zarr_read_region(b, 1, start, count, out.data(), 16), ZARR_ERR_INVALID_METADATA,
                  "member 'shape' of its own metadata");
    // Chunks that are there read without a check; the group itself still lists both.
    ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
    GroupPtr fresh;
    ASSERT_OK(zarr_group_open_ex(fresh.out(), url.c_str(), "r", "{\"consolidated\": true}"));
    ArrayPtr b2;
    ASSERT_OK(zarr_group_open_array(b2.out(), fresh, "sub/b", "r"));
    const uint64_t all[] = {9};
    EXPECT_EQ(zarr_read_region(b2, 1, start, all, out.data(), 36), ZARR_OK) << zarr_last_error();  // in step now
  }
}

TEST(Consolidated, V3ConsolidatedMetadataMember) {
  TempDir dir;
  const std::string url = dir / "h";
  make_hierarchy(url, 3);
  ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
  zarr::Bytes raw = read_file(url + "/zarr.json");
  std::string text(raw.begin(), raw.end());
  EXPECT_NE(text.find("\"kind\": \"inline\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"sub/b\": {"), std::string::npos) << text;
  GroupPtr g;
  ASSERT_OK(zarr_group_open(g.out(), url.c_str(), "r"));
  char* attrs = nullptr;
  ASSERT_OK(zarr_group_get_attributes(g, &attrs));
  EXPECT_STREQ(attrs, "{\"title\":\"t\"}") << "attributes survive consolidation";
  zarr_free(attrs);
  expect_opens_from_consolidated_only(url, "zarr.json");
}

TEST(Consolidated, PeerHierarchiesOpenThroughTheirConsolidatedMetadata) {
  std::string peer = peer_data_dir();
  if (peer.empty()) GTEST_SKIP() << "peer data absent: " << peer_data_expected_location();
  struct Case {
    std::string group, array;
    std::vector<int16_t> values;
  } cases[] = {{peer + "/zarrita-fixtures/v2/data.zarr", "1d.chunked.i2", {1, 2, 3, 4}},
               {peer + "/zarrita-fixtures/v3/data.zarr/consolidated", "nested/1d.i2", {}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.group);
    GroupPtr g;
    ASSERT_OK(zarr_group_open_ex(g.out(), c.group.c_str(), "r", "{\"consolidated\": true}"));
    size_t n = 0;
    ASSERT_OK(zarr_group_child_count(g, &n));
    EXPECT_GT(n, 1u);
    ArrayPtr a;
    ASSERT_OK(zarr_group_open_array(a.out(), g, c.array.c_str(), "r"));
    std::vector<int16_t> values = read_all<int16_t>(a);
    if (!c.values.empty()) {
      EXPECT_EQ(values, c.values);
    }
  }
}

TEST(Consolidated, Errors) {
  TempDir dir;
  const std::string url = dir / "h";
  make_hierarchy(url, 2);
  GroupPtr g;
  EXPECT_STATUS(zarr_group_open_ex(g.out(), url.c_str(), "r", "{\"consolidated\": true}"), ZARR_ERR_NOT_FOUND,
                "no consolidated metadata");
  EXPECT_STATUS(zarr_group_open_ex(g.out(), url.c_str(), "r+", "{\"consolidated\": true}"), ZARR_ERR_INVALID_ARGUMENT,
                "mode \"r\"");
  EXPECT_STATUS(zarr_group_open_ex(g.out(), url.c_str(), "r", "{\"consolidated\": 1}"), ZARR_ERR_INVALID_ARGUMENT,
                "'consolidated'");
  EXPECT_STATUS(zarr_consolidate_metadata((url + "/a").c_str()), ZARR_ERR_NOT_FOUND, "no group");
  write_file(url + "/.zmetadata", std::string("{\"zarr_consolidated_format\": 1}"));
  EXPECT_STATUS(zarr_group_open(g.out(), url.c_str(), "r"), ZARR_ERR_INVALID_METADATA, "'metadata'");
  ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
  ASSERT_OK(zarr_group_open(g.out(), url.c_str(), "r"));
  ArrayPtr a;
  EXPECT_STATUS(zarr_group_open_array(a.out(), g, "a", "r+"), ZARR_ERR_READ_ONLY, "read-only");
}

// zarr_migrate_v2_to_v3 of a consolidated v2 group (xarray's to_zarr and
// zarr-python 2 consolidate by default) dropped the root's .zmetadata and
// wrote the v3 root with no consolidated_metadata: a reader asking for the
// consolidated view found none. The v3 root now carries the migrated
// members' documents, and .zmetadata is gone.
TEST(Consolidated, MigratingAConsolidatedV2GroupConsolidatesTheV3Root) {
  TempDir dir;
  const std::string url = dir / "h";
  make_hierarchy(url, 2);
  ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
  ASSERT_OK(zarr_migrate_v2_to_v3(url.c_str()));
  EXPECT_FALSE(file_exists(url + "/.zmetadata"));
  const std::string root = zarr::ByteView(read_file(url + "/zarr.json")).to_string();
  for (const char* member : {"\"a\"", "\"sub\"", "\"sub/b\"", "\"inline\""}) {
    EXPECT_NE(root.find(member), std::string::npos) << member << " in " << root;
  }
  EXPECT_EQ(root.find("\"zarr_format\": 2"), std::string::npos) << root;
  expect_opens_from_consolidated_only(url, "zarr.json");
}

// zarr_create below groups that are not there yet creates them
// (create_parent_groups), but only the new array went into the consolidated
// metadata: a group opened through it did not list the new groups, and what
// was below them could not be reached.
TEST(Consolidated, GroupsCreatedOnTheWayAreEntriesToo) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    TempDir dir;
    const std::string url = dir / "h";
    make_hierarchy(url, format);
    ASSERT_OK(zarr_consolidate_metadata(url.c_str()));
    const std::string doc = format == 3 ? "{\"shape\": [3], \"data_type\": \"int32\"}" : array_meta("[3]", "[3]");
    ArrayPtr c;
    ASSERT_OK(zarr_create(c.out(), (url + "/new/deeper/c").c_str(), doc.c_str()));
    GroupPtr g;
    ASSERT_OK(zarr_group_open_ex(g.out(), url.c_str(), "r", "{\"consolidated\": true}"));
    EXPECT_EQ(listing(g), "[{\"name\":\"a\",\"kind\":\"array\"},{\"name\":\"new\",\"kind\":\"group\"},"
                          "{\"name\":\"sub\",\"kind\":\"group\"}]");
    ArrayPtr through;
    ASSERT_OK(zarr_group_open_array(through.out(), g, "new/deeper/c", "r"));
  }
}
