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

// A node path joined to a URL comes back, once the URL is resolved (and
// percent-decoded where it is), as exactly the segments it had: "%2e%2e" is
// a name, never ".." (audit of issue 20, finding 1).
TEST(Path, JoinUrlKeepsNamesLiteralWhereUrlsAreDecoded) {
  EXPECT_EQ(path::join_url("file:///d/", "%2e%2e/x"), "file:///d/%252e%252e/x");
  EXPECT_EQ(path::join_url("http://h/d?t=1#f", "a b/%2e"), "http://h/d/a%20b/%252e?t=1#f");
  EXPECT_EQ(path::join_url("/d", "%2e%2e"), "/d/%2e%2e");
  EXPECT_EQ(path::join_url("memory://m", "/a/b"), "memory://m/a/b");
  EXPECT_EQ(path::join_url("x.zip|zip:", "a"), "x.zip|zip:a");
  EXPECT_EQ(path::join_url("/d", "a|zip:b"), "file:///d/a%7Czip%3Ab");
  EXPECT_EQ(path::join_url("s3://b/p", ""), "s3://b/p");
  EXPECT_EQ(path::percent_decode("a%2e%2E"), std::optional<std::string>("a.."));
  EXPECT_EQ(path::percent_decode("a%2"), std::nullopt);
}
