// zarr_erase: erasing arrays and groups with everything below them, on the
// filesystem (the node's folder goes too), in memory and in zip archives, and
// refusing anything that is not a Zarr node. Also zarr_group_format.
#include <filesystem>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;
namespace fs = std::filesystem;

TEST(Erase, FilesystemArrayGoesWithItsFolderAndSiblingsStay) {
  TempDir dir;
  GroupPtr root;
  ASSERT_OK(zarr_group_create_ex(root.out(), (dir / "g").c_str(), nullptr, kV2Group));
  ArrayPtr a = create_array(dir / "g/a", array_meta("[4]", "[2]"));
  ArrayPtr b = create_array(dir / "g/ab", array_meta("[4]", "[2]"));
  ASSERT_OK(write_region<int32_t>(a, {0}, {4}, {1, 2, 3, 4}));
  ASSERT_OK(zarr_erase((dir / "g/a").c_str(), nullptr));
  EXPECT_FALSE(fs::exists(dir / "g/a"));
  EXPECT_TRUE(fs::exists(dir / "g/ab/.zarray")) << "a sibling whose name starts with the erased one's";
  EXPECT_EQ(child_names(root), std::vector<std::string>{"ab"});
}

TEST(Erase, FilesystemGroupGoesWithEveryChild) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), (dir / "g").c_str(), nullptr, kV2Group));
  create_array(dir / "g/sub/x", array_meta("[4]", "[2]"));
  ASSERT_OK(zarr_erase((dir / "g").c_str(), nullptr));
  EXPECT_FALSE(fs::exists(dir / "g"));
  EXPECT_TRUE(fs::exists(dir.path())) << "the folder above the node stays";
}

TEST(Erase, MemoryStoreNodeAtAPath) {
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), "memory://erase-test", nullptr, kV2Group));
  create_array("memory://erase-test/x/y", array_meta("[4]", "[2]"));
  create_array("memory://erase-test/z", array_meta("[4]", "[2]"));
  ASSERT_OK(zarr_erase("memory://erase-test/x", nullptr));
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), "memory://erase-test/x/y", "r"), ZARR_ERR_NOT_FOUND, "");
  EXPECT_EQ(child_names(g), std::vector<std::string>{"z"});
}

TEST(Erase, NothingThereIsNotFoundAndErasesNothing) {
  TempDir dir;
  fs::create_directories(dir / "plain");
  write_file(dir / "plain/notes.txt", zarr::ByteView(reinterpret_cast<const uint8_t*>("keep"), 4));
  EXPECT_STATUS(zarr_erase((dir / "plain").c_str(), nullptr), ZARR_ERR_NOT_FOUND, "no array or group");
  EXPECT_TRUE(fs::exists(dir / "plain/notes.txt"));
  EXPECT_STATUS(zarr_erase((dir / "missing").c_str(), nullptr), ZARR_ERR_NOT_FOUND, "");
  EXPECT_FALSE(fs::exists(dir / "missing"));
  EXPECT_STATUS(zarr_erase("memory://erase-none/q", nullptr), ZARR_ERR_NOT_FOUND, "'q'");
}

TEST(Erase, ExistingZipArchiveIsRefusedAndKept) {
  TempDir dir;
  const std::string archive = dir / "a.zip";
  create_array(archive + "|zip:a", array_meta("[4]", "[2]"));
  const auto size = fs::file_size(archive);
  int status = zarr_erase((archive + "|zip:a").c_str(), nullptr);
  EXPECT_NE(status, ZARR_OK);
  EXPECT_NE(std::string(zarr_last_error()).find(archive), std::string::npos) << zarr_last_error();
  EXPECT_EQ(fs::file_size(archive), size);
  ArrayPtr a = open_array(archive + "|zip:a");
  EXPECT_EQ(zarr_ndim(a), 1u);
}

TEST(Erase, ArgumentErrors) {
  EXPECT_STATUS(zarr_erase(nullptr, nullptr), ZARR_ERR_INVALID_ARGUMENT, "url");
  EXPECT_STATUS(zarr_erase("memory://x", R"({"bogus": 1})"), ZARR_ERR_INVALID_ARGUMENT, "bogus");
  EXPECT_STATUS(zarr_erase("nope://x", nullptr), ZARR_ERR_INVALID_ARGUMENT, "nope://x");
}

TEST(GroupFormat, IsTheFormatOfTheGroupMetadata) {
  TempDir dir;
  GroupPtr v2, v3;
  ASSERT_OK(zarr_group_create_ex(v2.out(), (dir / "v2").c_str(), nullptr, kV2Group));
  ASSERT_OK(zarr_group_create_ex(v3.out(), (dir / "v3").c_str(), nullptr, R"({"zarr_format": 3})"));
  EXPECT_EQ(zarr_group_format(v2), 2);
  EXPECT_EQ(zarr_group_format(v3), 3);
  EXPECT_EQ(zarr_group_format(nullptr), 0);
}
