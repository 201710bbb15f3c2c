// Zip archives through the C API: URLs of the form PATH|zip:NODE, the
// archive written when the last handle on it closes (and zarr_close saying
// when that fails), existing archives read-only, and store options given
// through the _ex functions.
#include <filesystem>

#include "capi_helpers.h"
#include "support/test_support.h"
#include "zarr_config.h"

using namespace zarr::test;
namespace fs = std::filesystem;

namespace {

#if ZARR_HAVE_ZIP

const char* const kV3Doc =
    "{\"shape\": [6], \"data_type\": \"int32\", \"chunk_grid\": {\"name\": \"regular\", "
    "\"configuration\": {\"chunk_shape\": [4]}}}";

std::string group_listing(zarr_group* g) {
  char* json = nullptr;
  EXPECT_EQ(zarr_group_list(g, &json), ZARR_OK) << zarr_last_error();
  std::string out = json ? json : "";
  zarr_free(json);
  return out;
}

class ZipApi : public ::testing::Test {
 protected:
  std::string archive() const { return dir_ / "h.zip"; }
  std::string url(const std::string& node) const { return archive() + "|zip:" + node; }
  TempDir dir_;
};

TEST_F(ZipApi, HierarchyRoundTripsThroughAnArchive) {
  {
    GroupPtr root;
    ASSERT_OK(zarr_group_create_ex(root.out(), url("").c_str(), "{\"title\": \"zipped\"}", "{\"zarr_format\": 3}"));
    ArrayPtr a;
    ASSERT_OK(zarr_group_create_array(a.out(), root, "a", kV3Doc));
    ASSERT_OK(write_region<int32_t>(a, {0}, {6}, {1, 2, 3, 4, 5, 6}));
    // Another URL into the same archive while it is being written: the same store.
    ArrayPtr b = create_array("file://" + url("sub/b"), kV3Doc);
    ASSERT_OK(write_region<int32_t>(b, {2}, {3}, {7, 8, 9}));
    EXPECT_FALSE(fs::exists(archive())) << "written when the last handle closes";
  }
  ASSERT_TRUE(fs::exists(archive()));
  GroupPtr root;
  ASSERT_OK(zarr_group_open(root.out(), url("").c_str(), "r"));
  EXPECT_EQ(group_listing(root), R"([{"name":"a","kind":"array"},{"name":"sub","kind":"group"}])");
  char* attrs = nullptr;
  ASSERT_OK(zarr_group_get_attributes(root, &attrs));
  EXPECT_STREQ(attrs, "{\"title\":\"zipped\"}");
  zarr_free(attrs);
  EXPECT_EQ(read_all<int32_t>(open_array(url("a"))), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(read_all<int32_t>(open_array(url("/sub//b/"))), (std::vector<int32_t>{0, 0, 7, 8, 9, 0}));
}

TEST_F(ZipApi, ArchiveIsWrittenWhenTheLastHandleCloses) {
  zarr_group* group = nullptr;
  ASSERT_OK(zarr_group_create_ex(&group, url("").c_str(), nullptr, kV2Group));
  zarr_array* array = nullptr;
  ASSERT_OK(zarr_group_create_array(&array, group, "x", array_meta("[4]", "[2]").c_str()));
  ASSERT_OK(write_region<int32_t>(array, {0}, {4}, {4, 3, 2, 1}));
  EXPECT_EQ(zarr_group_close(group), ZARR_OK);
  EXPECT_FALSE(fs::exists(archive())) << "the array still uses the archive";
  EXPECT_EQ(zarr_close(array), ZARR_OK);
  EXPECT_TRUE(fs::exists(archive()));
  EXPECT_EQ(read_all<int32_t>(open_array(url("x"))), (std::vector<int32_t>{4, 3, 2, 1}));
}

TEST_F(ZipApi, ZarrCloseReportsAnArchiveThatCouldNotBeWritten) {
  zarr_array* array = nullptr;
  ASSERT_OK(zarr_create(&array, url("x").c_str(), array_meta("[4]", "[2]").c_str()));
  ASSERT_OK(write_region<int32_t>(array, {0}, {4}, {1, 2, 3, 4}));
  fs::create_directory(archive());  // something else took the archive's name
  EXPECT_STATUS(zarr_close(array), ZARR_ERR_IO, "cannot write zip archive '" + archive() + "'");
  EXPECT_EQ(list_files(dir_.path()), std::vector<std::string>{}) << "no temporary file left behind";
}

TEST_F(ZipApi, ZarrGroupCloseReportsItToo) {
  zarr_group* group = nullptr;
  ASSERT_OK(zarr_group_create_ex(&group, url("g").c_str(), nullptr, kV2Group));
  fs::create_directory(archive());
  EXPECT_STATUS(zarr_group_close(group), ZARR_ERR_IO, archive());
}

TEST_F(ZipApi, AnExistingArchiveOpensReadOnly) {
  create_array(url("x"), array_meta("[4]", "[2]"));  // closed at once: the archive is written
  ASSERT_TRUE(fs::exists(archive()));
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), url("x").c_str(), "r+"), ZARR_ERR_READ_ONLY, "cannot be updated in place");
  EXPECT_STATUS(zarr_create(a.out(), url("y").c_str(), array_meta("[4]", "[2]").c_str()), ZARR_ERR_READ_ONLY,
                archive());
  GroupPtr g;
  EXPECT_STATUS(zarr_group_open(g.out(), url("").c_str(), "r+"), ZARR_ERR_READ_ONLY, archive());
  ASSERT_OK(zarr_open(a.out(), url("x").c_str(), "r"));
  EXPECT_STATUS(write_region<int32_t>(a, {0}, {1}, {5}), ZARR_ERR_READ_ONLY, "");
}

TEST_F(ZipApi, MissingArchivesAndNodesAreNotFound) {
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), url("x").c_str(), "r"), ZARR_ERR_NOT_FOUND, "no zip archive at '" + archive());
  create_array(url("x"), array_meta("[4]", "[2]"));
  EXPECT_STATUS(zarr_open(a.out(), url("y").c_str(), "r"), ZARR_ERR_NOT_FOUND, "'y' in " + archive() + "|zip:");
  // Opening "r+" where no archive is yet opens an empty one that is never written.
  EXPECT_STATUS(zarr_open(a.out(), (dir_ / "new.zip|zip:x").c_str(), "r+"), ZARR_ERR_NOT_FOUND, "");
  EXPECT_FALSE(fs::exists(dir_ / "new.zip"));
}

TEST_F(ZipApi, StoreOptionsGoThroughTheExFunctions) {
  const std::string deflate = R"({"store": {"compression": "deflate"}})";
  const std::string raw = array_meta("[100000]", "[100000]", "<i4");  // compressor null: zeros stay zeros
  {
    ArrayPtr a = create_array(url("x"), raw, deflate.c_str());
    ASSERT_OK(zarr_set_attributes(a, "{\"k\": 1}"));
    ASSERT_OK(write_region<int32_t>(a, {0}, {2}, {1, 2}));
  }
  EXPECT_LT(fs::file_size(archive()), 10000u) << "400 kB of nearly all zeros, deflated";
  ArrayPtr a;
  ASSERT_OK(zarr_open_ex(a.out(), url("x").c_str(), "r", "{\"store\": {}}"));
  EXPECT_EQ(read_region<int32_t>(a, {0}, {3}), (std::vector<int32_t>{1, 2, 0}));
  GroupPtr g;
  ASSERT_OK(zarr_group_open_ex(g.out(), url("").c_str(), "r", "{\"store\": {}, \"consolidated\": false}"));
  ASSERT_OK(zarr_group_create_ex(g.out(), (dir_ / "g.zip|zip:").c_str(), nullptr,
                                 "{\"zarr_format\": 3, \"store\": {\"compression\": \"stored\"}}"));

  EXPECT_STATUS(zarr_open_ex(a.out(), url("x").c_str(), "r", "{\"store\": {\"region\": \"x\"}}"),
                ZARR_ERR_INVALID_ARGUMENT, "store option 'region' is not an option of the zip store");
  EXPECT_STATUS(zarr_open_ex(a.out(), url("x").c_str(), "r", "{\"store\": 5}"), ZARR_ERR_INVALID_ARGUMENT,
                "'store' must be a JSON object");
  EXPECT_STATUS(zarr_create_ex(a.out(), (dir_ / "bad.zip|zip:").c_str(), raw.c_str(),
                               "{\"store\": {\"compression\": \"bzip2\"}}"),
                ZARR_ERR_INVALID_ARGUMENT, "\"bzip2\"");
  EXPECT_STATUS(zarr_group_open_ex(g.out(), url("").c_str(), "r", "{\"store\": {\"fsync\": true}}"),
                ZARR_ERR_INVALID_ARGUMENT, "'fsync'");
  EXPECT_FALSE(fs::exists(dir_ / "bad.zip"));
}

TEST_F(ZipApi, ConsolidatedMetadataInsideAnArchive) {
  {
    GroupPtr root;
    ASSERT_OK(zarr_group_create_ex(root.out(), url("").c_str(), nullptr, kV2Group));
    ArrayPtr a;
    ASSERT_OK(zarr_group_create_array(a.out(), root, "sub/a", array_meta("[4]", "[2]").c_str()));
    // The archive is still being written (handles are open): this adds to it.
    ASSERT_OK(zarr_consolidate_metadata(url("").c_str()));
  }
  GroupPtr g;
  ASSERT_OK(zarr_group_open_ex(g.out(), url("").c_str(), "r", "{\"consolidated\": true}"));
  EXPECT_EQ(group_listing(g), R"([{"name":"sub","kind":"group"}])");
  // Nothing to add to an archive already written.
  EXPECT_STATUS(zarr_consolidate_metadata(url("").c_str()), ZARR_ERR_READ_ONLY, archive());
}

TEST_F(ZipApi, RootBelowAFolderInTheArchive) {
  create_array(url("data.zarr/arr"), array_meta("[2]", "[2]"));
  GroupPtr g;
  ASSERT_OK(zarr_group_open(g.out(), url("data.zarr").c_str(), "r"));
  EXPECT_EQ(group_listing(g), R"([{"name":"arr","kind":"array"}])");
}

#else

TEST(ZipApi, BuildsWithoutLibzipSaySo) {
  TempDir dir;
  ArrayPtr a;
  EXPECT_STATUS(zarr_create(a.out(), (dir / "a.zip|zip:x").c_str(), array_meta("[2]", "[2]").c_str()),
                ZARR_ERR_UNSUPPORTED, "built without zip support");
}

#endif

}  // namespace
