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

// Any character a URL may hold (RFC 3986 allows ' in userinfo and paths)
// stays in it: only white space and control characters end a URL, and a
// quote that opened it ends it at its last closing quote (the old scrubber
// ended a URL at ' " < > `, and printed the password or token after it:
// audit of issue 20, finding 4).
TEST(Scrub, QuotesInsideAUrlDoNotEndIt) {
  EXPECT_EQ(scrub_secrets("URL 'http://alice:pa'ssw0rd@127.0.0.1:9/data.zarr': refused"),
            "URL 'http://***@127.0.0.1:9/data.zarr': refused");
  EXPECT_EQ(scrub_secrets("URL 'http://h:9/bob's.zarr?X-Amz-Signature=SECRET123': refused"),
            "URL 'http://h:9/bob's.zarr?...': refused");
  for (const char* quote : {"\"", "`", "<", ">"}) {
    EXPECT_EQ(scrub_secrets(std::string("GET http://alice:pa") + quote + "ss@h/x failed"), "GET http://***@h/x failed");
  }
  EXPECT_EQ(scrub_secrets("see <http://h/x?t=1>, then"), "see <http://h/x?...>, then");
  EXPECT_EQ(scrub_secrets("(http://u:p@h/a)."), "(http://***@h/a).");
}

// A URL as a store knows it, shown from its parts, and the parts that may
// be secrets, which scrub_secrets hides wherever a message repeats them.
TEST(Scrub, UrlsAreShownFromTheirParts) {
  EXPECT_EQ(scrubbed_url("http://a:b'c@h:1/x y?t=1#f"), "http://***@h:1/x y?...");
  EXPECT_EQ(scrubbed_url("s3://KEY:SECRET@bucket/p"), "s3://***@bucket/p");
  EXPECT_EQ(scrubbed_url("/plain/path?x"), "/plain/path?x");
  EXPECT_EQ(url_secrets("http://a:b'c@h/x?t=1#f"), (std::vector<std::string>{"a:b'c", "t=1#f"}));
  EXPECT_TRUE(url_secrets("http://h/x").empty());
  const std::string url = "http://user:pass word@h/x?token=abc def";
  const std::string shown = scrub_secrets("cannot open " + url + ": refused", url_secrets(url));
  EXPECT_EQ(shown.find("pass word"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("abc def"), std::string::npos) << shown;
}

// A password typed with a raw '/', '?' or '#' (not percent-encoded, as RFC
// 3986 wants) ended the authority early, and the scrubber printed the user
// and the start of the password ("http://alice:pa/..."): an '@' after it is
// taken as the end of a userinfo too, at the price of hiding a host when a
// path holds an '@'.
TEST(Scrub, RawSlashQuestionMarkOrHashInAPasswordStaysHidden) {
  for (const char* c : {"/", "?", "#", "/a@b"}) {
    const std::string url = std::string("http://alice:pa") + c + "ss@127.0.0.1:9/data.zarr?t=1";
    const std::string shown = scrub_secrets("GET " + url + ": refused", url_secrets(url));
    EXPECT_EQ(shown, "GET http://***@127.0.0.1:9/data.zarr?...: refused") << c;
    EXPECT_EQ(scrubbed_url(url), "http://***@127.0.0.1:9/data.zarr?...") << c;
    EXPECT_EQ(shown.find("alice"), std::string::npos) << shown;
  }
  EXPECT_EQ(scrubbed_url("https://TOKEN/with+slash@h/x"), "https://***@h/x");
  // A URL in the query of another is not the userinfo of the first.
  EXPECT_EQ(scrubbed_url("http://h/a?next=http://u:p@evil/x"), "http://h/a?...");
  EXPECT_EQ(scrubbed_url("http://h:80/x"), "http://h:80/x");
}
