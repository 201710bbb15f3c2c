// Legacy Zarr v1 arrays open read-only and migrate to v2 in place.
#include <filesystem>
#include <numeric>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

// Build a v1 array on disk: chunks written through a v2 array with the same
// compressor (v1 and v2 chunk bytes and keys are identical), then the v2
// documents replaced by v1 "meta" and "attrs".
std::vector<int32_t> make_v1_array(const std::string& dir, const std::string& compression,
                                   const std::string& v2_compressor) {
  std::vector<int32_t> data(30);
  std::iota(data.begin(), data.end(), 0);
  {
    ArrayPtr a = create_array(dir, array_meta("[5, 6]", "[2, 4]", "<i4", {{"compressor", v2_compressor},
                                                                          {"fill_value", "-1"}}));
    EXPECT_EQ(write_region(a, {0, 0}, {5, 6}, data), ZARR_OK);
  }
  std::filesystem::remove(dir + "/.zarray");
  write_file(dir + "/meta", "{\"zarr_format\": 1, \"shape\": [5, 6], \"chunks\": [2, 4], \"dtype\": \"<i4\", " +
                                compression + ", \"fill_value\": -1, \"order\": \"C\"}");
  write_file(dir + "/attrs", std::string("{\"origin\": \"v1\"}"));
  return data;
}

}  // namespace

TEST(LegacyV1, OpensReadOnlyWithEveryCompressionSpelling) {
  TempDir dir;
  struct Case {
    const char* v1;
    const char* v2;
  } cases[] = {
      {"\"compression\": \"none\", \"compression_opts\": null", "null"},
      {"\"compression\": \"zlib\", \"compression_opts\": 3", "{\"id\": \"zlib\", \"level\": 3}"},
      {"\"compression\": \"blosc\", \"compression_opts\": {\"cname\": \"lz4\", \"clevel\": 3, \"shuffle\": 1}",
       "{\"id\": \"blosc\", \"cname\": \"lz4\", \"clevel\": 3, \"shuffle\": 1}"},
      {"\"compression\": \"bz2\", \"compression_opts\": 1", "{\"id\": \"bz2\", \"level\": 1}"},
  };
  int i = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.v1);
    std::string url = dir / ("v1_" + std::to_string(i++));
    std::vector<int32_t> data = make_v1_array(url, c.v1, c.v2);
    ArrayPtr a = open_array(url, "r");
    EXPECT_EQ(zarr_format(a), 1);
    EXPECT_EQ(read_all<int32_t>(a), data);
    EXPECT_EQ(attributes_of(a), "{\"origin\":\"v1\"}");
    EXPECT_NE(metadata_of(a).find("\"compression\""), std::string::npos) << "the stored v1 document";
    ArrayPtr w;
    EXPECT_STATUS(zarr_open(w.out(), url.c_str(), "r+"), ZARR_ERR_READ_ONLY, "zarr_migrate_v1_to_v2");
  }
}

TEST(LegacyV1, MigrateRewritesMetadataAndKeepsChunks) {
  TempDir dir;
  std::string url = dir / "old";
  std::vector<int32_t> data = make_v1_array(url, "\"compression\": \"zlib\", \"compression_opts\": 1",
                                            "{\"id\": \"zlib\", \"level\": 1}");
  std::vector<std::string> chunks_before;
  for (const std::string& f : list_files(url)) {
    if (f != "meta" && f != "attrs") chunks_before.push_back(f);
  }
  zarr::Bytes chunk_bytes = read_file(url + "/0.0");
  ASSERT_OK(zarr_migrate_v1_to_v2(url.c_str()));
  std::vector<std::string> expected = chunks_before;
  expected.insert(expected.begin(), {".zarray", ".zattrs"});
  EXPECT_EQ(list_files(url), expected) << "meta and attrs replaced by .zarray and .zattrs";
  EXPECT_EQ(read_file(url + "/0.0"), chunk_bytes) << "chunks untouched";
  ArrayPtr a = open_array(url, "r+");
  EXPECT_EQ(zarr_format(a), 2);
  EXPECT_EQ(read_all<int32_t>(a), data);
  EXPECT_EQ(attributes_of(a), "{\"origin\":\"v1\"}");
  std::string m = metadata_of(a);
  EXPECT_NE(m.find("\"id\": \"zlib\""), std::string::npos) << m;
  EXPECT_NE(m.find("\"filters\": null"), std::string::npos) << m;
  EXPECT_NE(m.find("\"fill_value\": -1"), std::string::npos) << m;
  EXPECT_STATUS(zarr_migrate_v1_to_v2(url.c_str()), ZARR_ERR_NOT_FOUND, "'meta'");
}

TEST(LegacyV1, BrokenV1MetadataIsReported) {
  TempDir dir;
  std::filesystem::create_directories(dir / "bad");
  write_file(dir / "bad/meta", std::string("{\"zarr_format\": 1, \"shape\": [2], \"chunks\": [2], \"dtype\": \"<i4\", "
                                           "\"compression\": \"zlib\", \"compression_opts\": \"high\", \"fill_value\": 0}"));
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), (dir / "bad").c_str(), "r"), ZARR_ERR_INVALID_METADATA, "compression_opts");
  EXPECT_STATUS(zarr_migrate_v1_to_v2((dir / "bad").c_str()), ZARR_ERR_INVALID_METADATA, "compression_opts");
  EXPECT_TRUE(file_exists(dir / "bad/meta")) << "a failed migration leaves the v1 array as it was";
}
