// The XML of S3 answers (stores/s3_xml.h): listings, error documents,
// entities, and answers too broken to trust.
#include <functional>

#include <gtest/gtest.h>

#include "base/error.h"
#include "stores/s3_xml.h"

namespace zarr {
namespace {

int error_code_of(const std::function<void()>& call, std::string* message = nullptr) {
  try {
    call();
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.code();
  }
  return ZARR_OK;
}

TEST(S3Xml, ListPageWithKeysPrefixesAndToken) {
  const std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name><Prefix>p/</Prefix>"
      "<KeyCount>3</KeyCount><MaxKeys>3</MaxKeys><Delimiter>/</Delimiter><IsTruncated>true</IsTruncated>"
      "<Contents><Key>p/a &amp; b</Key><Size>3</Size></Contents>"
      "<Contents><Key>p/&#233;t&#xE9;</Key><Size>0</Size></Contents>"
      "<CommonPrefixes><Prefix>p/sub/</Prefix></CommonPrefixes>"
      "<NextContinuationToken>t/o+k==</NextContinuationToken></ListBucketResult>";
  s3xml::ListPage page = s3xml::parse_list_page(xml, "listing");
  EXPECT_EQ(page.keys, (std::vector<std::string>{"p/a & b", "p/\xc3\xa9t\xc3\xa9"}));
  EXPECT_EQ(page.prefixes, (std::vector<std::string>{"p/sub/"}));
  EXPECT_TRUE(page.truncated);
  EXPECT_EQ(page.next_token, "t/o+k==");
}

TEST(S3Xml, EmptyListing) {
  s3xml::ListPage page = s3xml::parse_list_page(
      "<ListBucketResult><Name>b</Name><Prefix/><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated>"
      "</ListBucketResult>",
      "listing");
  EXPECT_TRUE(page.keys.empty());
  EXPECT_TRUE(page.prefixes.empty());
  EXPECT_FALSE(page.truncated);
}

TEST(S3Xml, EntitiesAndCharacterReferences) {
  EXPECT_EQ(s3xml::decode_text("&lt;&gt;&quot;&apos;&amp;&#65;&#x1F600;", "x"), "<>\"'&A\xf0\x9f\x98\x80");
}

TEST(S3Xml, BrokenAnswersAreIoErrorsNamingTheRequest) {
  std::string message;
  EXPECT_EQ(error_code_of([] { s3xml::parse_list_page("<html>gateway error</html>", "GET s3://b"); }, &message),
            ZARR_ERR_IO);
  EXPECT_NE(message.find("GET s3://b"), std::string::npos) << message;
  EXPECT_EQ(error_code_of([] { s3xml::parse_list_page("<ListBucketResult><Contents><Key>a", "l"); }), ZARR_ERR_IO);
  EXPECT_EQ(error_code_of([] {
              s3xml::parse_list_page("<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>", "l");
            }),
            ZARR_ERR_IO);
  EXPECT_EQ(error_code_of([] { s3xml::decode_text("a &nbsp; b", "l"); }), ZARR_ERR_IO);
  EXPECT_EQ(error_code_of([] { s3xml::decode_text("&#0;", "l"); }), ZARR_ERR_IO);
  EXPECT_EQ(error_code_of([] { s3xml::decode_text("&#xD800;", "l"); }), ZARR_ERR_IO);
  EXPECT_EQ(error_code_of([] { s3xml::decode_text("a & b", "l"); }), ZARR_ERR_IO);
  EXPECT_EQ(error_code_of([] { s3xml::decode_text("<b>", "l"); }), ZARR_ERR_IO);
}

TEST(S3Xml, ErrorDocuments) {
  s3xml::ErrorInfo error = s3xml::parse_error(
      "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>"
      "<Key>a/b</Key></Error>");
  EXPECT_EQ(error.code, "NoSuchKey");
  EXPECT_EQ(error.message, "The specified key does not exist.");
  EXPECT_EQ(s3xml::parse_error("").code, "");
  EXPECT_EQ(s3xml::parse_error("<Error><Code>Broken").code, "");  // unreadable: reported by status alone
}

// <Prefix> must not match <Prefixes>, nor <Key> match <KeyCount>.
TEST(S3Xml, ElementNamesMatchWhole) {
  EXPECT_EQ(s3xml::elements("<KeyCount>2</KeyCount><Key>k</Key>", "Key", "x"), (std::vector<std::string>{"k"}));
}

}  // namespace
}  // namespace zarr
