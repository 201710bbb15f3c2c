#include <gtest/gtest.h>

#include "base/error.h"
#include "base/path.h"

using namespace zarr;

TEST(Path, NormalizeStripsAndCollapsesSeparators) {
  EXPECT_EQ(path::normalize("/a//b/"), "a/b");
  EXPECT_EQ(path::normalize("a\\b"), "a/b");
  EXPECT_EQ(path::normalize(""), "");
  EXPECT_EQ(path::normalize("///"), "");
  EXPECT_EQ(path::normalize("a.b/.c"), "a.b/.c");
}

TEST(Path, NormalizeRejectsDotSegments) {
  for (const char* bad : {"a/../b", "..", "./a", "a/."}) {
    try {
      path::normalize(bad);
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ZARR_ERR_INVALID_ARGUMENT);
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos);
    }
  }
}

TEST(Path, JoinParentBasenameSegments) {
  EXPECT_EQ(path::join("a/b", ".zarray"), "a/b/.zarray");
  EXPECT_EQ(path::join("", "x"), "x");
  EXPECT_EQ(path::join("x", ""), "x");
  EXPECT_EQ(path::parent("a/b/c"), "a/b");
  EXPECT_EQ(path::parent("a"), "");
  EXPECT_EQ(path::basename("a/b/c"), "c");
  EXPECT_EQ(path::segments("a/b/c"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(path::segments("").empty());
}
