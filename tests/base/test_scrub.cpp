// scrub_secrets: userinfo, query strings and fragments of URLs, and the
// secrets a store names, never reach a message.
#include <gtest/gtest.h>

#include "base/scrub.h"

using namespace zarr;

TEST(Scrub, UrlsLoseUserinfoQueryAndFragment) {
  EXPECT_EQ(scrub_secrets("HTTP GET http://user:pw@127.0.0.1:8080/t.zarr/0.0?token=abc: refused"),
            "HTTP GET http://***@127.0.0.1:8080/t.zarr/0.0?...: refused");
  EXPECT_EQ(scrub_secrets("URL 'https://h/x#access_token=1' is bad"), "URL 'https://h/x#...' is bad");
  EXPECT_EQ(scrub_secrets("redirected to \"http://a:b@localhost:1/?x=y\""), "redirected to \"http://***@localhost:1/?...\"");
  EXPECT_EQ(scrub_secrets("http://u:p@host"), "http://***@host");
  EXPECT_EQ(scrub_secrets("s3://bucket/prefix (endpoint http://k:s@h:9000/path?x)"),
            "s3://bucket/prefix (endpoint http://***@h:9000/path?...)");
  // A URL inside another's query goes with that query.
  EXPECT_EQ(scrub_secrets("http://h/a?next=http://u:p@evil/x"), "http://h/a?...");
}

TEST(Scrub, TextWithoutSecretsIsUnchanged) {
  for (const char* text : {"cannot read key 'a?b' of /data/x.zarr", "memory://name/a/b", "no URL here: a@b?c",
                           "://not a url", "file:///tmp/x.zarr: missing", ""}) {
    EXPECT_EQ(scrub_secrets(text), text);
  }
}

TEST(Scrub, NamedSecretsAndTheirLongWordsAreHidden) {
  const std::vector<std::string> secrets = {"Bearer sekrit-token-123", "AKIDEXAMPLE", "ab"};
  EXPECT_EQ(scrub_secrets("server said: Bearer sekrit-token-123 is bad", secrets), "server said: *** is bad");
  EXPECT_EQ(scrub_secrets("token sekrit-token-123 echoed; key AKIDEXAMPLE", secrets), "token *** echoed; key ***");
  // Secrets shorter than kMinScrubbedSecret would garble every message.
  EXPECT_EQ(scrub_secrets("absent", secrets), "absent");
}

TEST(Scrub, ScrubbingTwiceChangesNothing) {
  const std::string once = scrub_secrets("GET http://u:p@h/x?t=1#f and AKIDEXAMPLE", {"AKIDEXAMPLE"});
  EXPECT_EQ(scrub_secrets(once, {"AKIDEXAMPLE"}), once);
}
