// Groups: create/open, parent groups on demand, listing, attributes, nodes
// opened by relative path.
#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {
std::string listing(zarr_group* g) {
  char* json = nullptr;
  int status = zarr_group_list(g, &json);
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  std::string out = json ? json : "";
  zarr_free(json);
  return out;
}
}  // namespace

TEST(Groups, CreateNestedNodesWithParentGroups) {
  TempDir dir;
  GroupPtr root;
  ASSERT_OK(zarr_group_create_ex(root.out(), (dir / "h.zarr").c_str(), "{\"title\": \"demo\"}", kV2Group));
  ArrayPtr a;
  ASSERT_OK(zarr_group_create_array(a.out(), root, "x/y/arr", array_meta("[4]", "[2]").c_str()));
  EXPECT_EQ(list_files(dir / "h.zarr"),
            (std::vector<std::string>{".zattrs", ".zgroup", "x/.zgroup", "x/y/.zgroup", "x/y/arr/.zarray"}));
  GroupPtr sub;
  ASSERT_OK(zarr_group_create_group(sub.out(), root, "x/z", nullptr));
  EXPECT_EQ(listing(root), "[{\"name\":\"x\",\"kind\":\"group\"}]");
  GroupPtr x;
  ASSERT_OK(zarr_group_open_group(x.out(), root, "x"));
  EXPECT_EQ(listing(x), "[{\"name\":\"y\",\"kind\":\"group\"},{\"name\":\"z\",\"kind\":\"group\"}]");
}

TEST(Groups, ChildCountAndIndexedAccess) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), dir.path().c_str(), nullptr, kV2Group));
  ArrayPtr a, b;
  ASSERT_OK(zarr_group_create_array(a.out(), g, "b_array", array_meta("[1]", "[1]").c_str()));
  GroupPtr c;
  ASSERT_OK(zarr_group_create_group(c.out(), g, "a_group", nullptr));
  size_t n = 0;
  ASSERT_OK(zarr_group_child_count(g, &n));
  ASSERT_EQ(n, 2u);
  const char* name = nullptr;
  int kind = 0;
  ASSERT_OK(zarr_group_child(g, 0, &name, &kind));
  EXPECT_STREQ(name, "a_group");
  EXPECT_EQ(kind, ZARR_NODE_GROUP);
  ASSERT_OK(zarr_group_child(g, 1, &name, &kind));
  EXPECT_STREQ(name, "b_array");
  EXPECT_EQ(kind, ZARR_NODE_ARRAY);
  EXPECT_STATUS(zarr_group_child(g, 2, &name, &kind), ZARR_ERR_OUT_OF_BOUNDS, "child index 2");
}

TEST(Groups, OpenArrayByRelativePathAndByFullPath) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), (dir / "h").c_str(), nullptr, kV2Group));
  ArrayPtr a;
  ASSERT_OK(zarr_group_create_array(a.out(), g, "sub/arr", array_meta("[3]", "[3]").c_str()));
  ASSERT_OK(write_region<int32_t>(a, {0}, {3}, {4, 5, 6}));
  ArrayPtr b;
  ASSERT_OK(zarr_group_open_array(b.out(), g, "/sub//arr/", "r"));
  EXPECT_EQ(read_all<int32_t>(b), (std::vector<int32_t>{4, 5, 6}));
  EXPECT_EQ(read_all<int32_t>(open_array(dir / "h/sub/arr")), (std::vector<int32_t>{4, 5, 6}));
  EXPECT_STATUS(zarr_group_open_array(b.out(), g, "sub/../sub/arr", "r"), ZARR_ERR_INVALID_ARGUMENT, "..");
  EXPECT_STATUS(zarr_group_open_array(b.out(), g, "sub", "r"), ZARR_ERR_NOT_FOUND, "group");
  EXPECT_STATUS(zarr_group_open_array(b.out(), g, "", "r"), ZARR_ERR_INVALID_ARGUMENT, "names no node");
  GroupPtr h;
  EXPECT_STATUS(zarr_group_open_group(h.out(), g, "sub/arr"), ZARR_ERR_NOT_FOUND, "array");
}

TEST(Groups, CreateInsideAnExistingHierarchyAddsMissingGroups) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), (dir / "h.zarr").c_str(), nullptr, kV2Group));
  // A plain path below an existing group: the groups in between are created.
  create_array(dir / "h.zarr/a/b/arr", array_meta("[2]", "[2]"));
  EXPECT_TRUE(file_exists(dir / "h.zarr/a/.zgroup"));
  EXPECT_TRUE(file_exists(dir / "h.zarr/a/b/.zgroup"));
  // Outside any hierarchy no group is invented.
  create_array(dir / "loose/arr", array_meta("[2]", "[2]"));
  EXPECT_FALSE(file_exists(dir / "loose/.zgroup"));
}

// One rule for formats (docs/c-api.md#formats): a new root is v3, a new node
// takes the nearest enclosing group's format, and the other format is refused
// by URL as through a group handle, writing nothing.
TEST(Groups, ANewRootIsV3AndNewNodesTakeTheirHierarchysFormat) {
  TempDir dir;
  GroupPtr v3;
  ASSERT_OK(zarr_group_create(v3.out(), (dir / "new.zarr").c_str(), nullptr));
  EXPECT_EQ(zarr_group_format(v3), 3);
  EXPECT_TRUE(file_exists(dir / "new.zarr/zarr.json"));
  GroupPtr v2;
  ASSERT_OK(zarr_group_create_ex(v2.out(), (dir / "old.zarr").c_str(), nullptr, kV2Group));
  GroupPtr below;  // by URL, two levels down: both new groups are v2
  ASSERT_OK(zarr_group_create(below.out(), (dir / "old.zarr/a/b").c_str(), nullptr));
  EXPECT_EQ(zarr_group_format(below), 2);
  EXPECT_TRUE(file_exists(dir / "old.zarr/a/.zgroup"));
  GroupPtr below_v3;
  ASSERT_OK(zarr_group_create(below_v3.out(), (dir / "new.zarr/c").c_str(), nullptr));
  EXPECT_EQ(zarr_group_format(below_v3), 3);
}

TEST(Groups, TheOtherFormatIsRefusedByUrlAndWritesNothing) {
  TempDir dir;
  GroupPtr v2;
  ASSERT_OK(zarr_group_create_ex(v2.out(), (dir / "old.zarr").c_str(), nullptr, kV2Group));
  GroupPtr v3;
  ASSERT_OK(zarr_group_create(v3.out(), (dir / "new.zarr").c_str(), nullptr));
  const std::vector<std::string> old_files = list_files(dir / "old.zarr");
  const std::vector<std::string> new_files = list_files(dir / "new.zarr");
  ArrayPtr a;
  EXPECT_STATUS(zarr_create(a.out(), (dir / "old.zarr/sub/x").c_str(), v3_array_meta("[4]", "[2]").c_str()),
                ZARR_ERR_INVALID_ARGUMENT, "cannot create a Zarr v3 array 'sub/x' in the Zarr v2 group '/'");
  EXPECT_STATUS(zarr_create(a.out(), (dir / "new.zarr/sub/x").c_str(), array_meta("[4]", "[2]").c_str()),
                ZARR_ERR_INVALID_ARGUMENT, "one hierarchy has one format");
  GroupPtr g;
  EXPECT_STATUS(zarr_group_create_ex(g.out(), (dir / "old.zarr/sub").c_str(), nullptr, "{\"zarr_format\": 3}"),
                ZARR_ERR_INVALID_ARGUMENT, "cannot create a Zarr v3 group 'sub' in the Zarr v2 group");
  EXPECT_STATUS(zarr_group_create_ex(g.out(), (dir / "new.zarr/sub/deeper").c_str(), nullptr, kV2Group),
                ZARR_ERR_INVALID_ARGUMENT, "in the Zarr v3 group '/'");
  zarr_array_desc desc = ZARR_ARRAY_DESC_INIT;
  desc.zarr_format = 3;
  desc.data_type = "int32";
  desc.ndim = 1;
  const uint64_t shape[1] = {4};
  desc.shape = shape;
  EXPECT_STATUS(zarr_create_from_desc(a.out(), (dir / "old.zarr/y").c_str(), &desc, nullptr),
                ZARR_ERR_INVALID_ARGUMENT, "one hierarchy has one format");
  EXPECT_EQ(list_files(dir / "old.zarr"), old_files) << "no parent group, no metadata written";
  EXPECT_EQ(list_files(dir / "new.zarr"), new_files);
}

TEST(Groups, NoNodeBelowAnArray) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), dir.path().c_str(), nullptr, kV2Group));
  ArrayPtr a;
  ASSERT_OK(zarr_group_create_array(a.out(), g, "arr", array_meta("[2]", "[2]").c_str()));
  ArrayPtr b;
  EXPECT_STATUS(zarr_group_create_array(b.out(), g, "arr/inner", array_meta("[2]", "[2]").c_str()),
                ZARR_ERR_INVALID_ARGUMENT, "is an array");
}

namespace {

// A root group of `format` at `root`, and a 2-element array document of it.
void create_root_group(GroupPtr& g, const std::string& root, int format) {
  ASSERT_OK(zarr_group_create_ex(g.out(), root.c_str(), nullptr, format == 2 ? kV2Group : nullptr));
}
std::string small_array_meta(int format) {
  return format == 2 ? array_meta("[2]", "[2]") : v3_array_meta("[2]", "[2]");
}

}  // namespace

// By URL, a new node's store was rooted at the first existing folder that
// held no group, so below a v2 array (.zarray only) the array was not seen:
// zarr_create wrote a v3 array (or a group) inside the v2 array's folder.
TEST(Groups, NoNodeBelowAnArrayByUrlInEitherFormat) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    TempDir dir;
    const std::string root = dir / "h.zarr";
    GroupPtr g;
    create_root_group(g, root, format);
    ArrayPtr a;
    ASSERT_OK(zarr_group_create_array(a.out(), g, "arr", small_array_meta(format).c_str()));
    const std::vector<std::string> before = list_files(root);
    for (int inner_format : {2, 3}) {
      ArrayPtr b;
      EXPECT_STATUS(zarr_create(b.out(), (root + "/arr/x/inner").c_str(), small_array_meta(inner_format).c_str()),
                    ZARR_ERR_INVALID_ARGUMENT, "its parent 'arr'");
    }
    GroupPtr sub;
    EXPECT_STATUS(zarr_group_create_ex(sub.out(), (root + "/arr/sub").c_str(), nullptr, nullptr),
                  ZARR_ERR_INVALID_ARGUMENT, "is an array");
    EXPECT_EQ(list_files(root), before) << "nothing written";
  }
}

// A v2 group named zarr.json (or .zarray ...) was created, and every reader
// then took it for a metadata document; migrating the hierarchy to v3 failed
// half-way over it. Such names are refused in both formats, nothing written.
TEST(Groups, NoNodeIsNamedAsAMetadataDocument) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    TempDir dir;
    const std::string root = dir / "h.zarr";
    GroupPtr g;
    create_root_group(g, root, format);
    const std::vector<std::string> before = list_files(root);
    for (const char* name : {"zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata"}) {
      SCOPED_TRACE(name);
      GroupPtr sub;
      EXPECT_STATUS(zarr_group_create_ex(sub.out(), (root + "/sub/" + name).c_str(), nullptr, nullptr),
                    ZARR_ERR_INVALID_ARGUMENT, "is the name of a metadata document");
      ArrayPtr a;
      EXPECT_STATUS(zarr_group_create_array(a.out(), g, (std::string(name) + "/x").c_str(),
                                            small_array_meta(format).c_str()),
                    ZARR_ERR_INVALID_ARGUMENT, "'" + std::string(name) + "'");
    }
    EXPECT_EQ(list_files(root), before) << "nothing written";
  }
}

TEST(Groups, AttributesAndReadOnlyGroups) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), dir.path().c_str(), "{\"a\": 1}", kV2Group));
  char* json = nullptr;
  ASSERT_OK(zarr_group_get_attributes(g, &json));
  EXPECT_STREQ(json, "{\"a\":1}");
  zarr_free(json);
  ASSERT_OK(zarr_group_set_attributes(g, "{\"b\": [true, null]}"));
  GroupPtr r;
  ASSERT_OK(zarr_group_open(r.out(), dir.path().c_str(), "r"));
  ASSERT_OK(zarr_group_get_attributes(r, &json));
  EXPECT_STREQ(json, "{\"b\":[true,null]}");
  zarr_free(json);
  EXPECT_STATUS(zarr_group_set_attributes(r, "{}"), ZARR_ERR_READ_ONLY, "read-only");
  ArrayPtr a;
  EXPECT_STATUS(zarr_group_create_array(a.out(), r, "x", array_meta("[1]", "[1]").c_str()), ZARR_ERR_READ_ONLY,
                "read-only");
  EXPECT_STATUS(zarr_group_set_attributes(g, "not json"), ZARR_ERR_INVALID_METADATA, "malformed");
  GroupPtr bad;
  EXPECT_STATUS(zarr_group_create_ex(bad.out(), (dir / "g2").c_str(), "[]", kV2Group), ZARR_ERR_INVALID_METADATA, "object");
  EXPECT_FALSE(file_exists(dir / "g2")) << "bad attributes leave no group behind";
}

TEST(Groups, OpenErrors) {
  TempDir dir;
  GroupPtr g;
  EXPECT_STATUS(zarr_group_open(g.out(), (dir / "none").c_str(), "r"), ZARR_ERR_NOT_FOUND, ".zgroup");
  create_array(dir / "arr", array_meta("[1]", "[1]"));
  EXPECT_STATUS(zarr_group_open(g.out(), (dir / "arr").c_str(), "r"), ZARR_ERR_NOT_FOUND, "is an array");
  EXPECT_STATUS(zarr_group_open(g.out(), dir.path().c_str(), "rw"), ZARR_ERR_INVALID_ARGUMENT, "mode");
  write_file(dir / ".zgroup", std::string("{\"zarr_format\": 7}"));
  EXPECT_STATUS(zarr_group_open(g.out(), dir.path().c_str(), "r"), ZARR_ERR_INVALID_METADATA, "zarr_format");
}
