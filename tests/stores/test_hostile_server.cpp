// The HTTP and S3 stores against a hostile server (the scripted server of
// local_servers.h, on 127.0.0.1): bodies that never end, a Content-Length
// that lies, redirects to another origin (another port, or "localhost" for
// "127.0.0.1"), answers that echo the secrets they were sent, listings that
// never end or come back to a page already seen, bucket names that are not
// buckets. Everything through the C API, as a program meets it.
#include <atomic>
#include <functional>
#include <memory>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "capi_helpers.h"
#include "stores/local_servers.h"
#include "stores/remote_fixtures.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

namespace zarr {
namespace {

using remote_test::Outcome;

// The v2 case of remote_fixtures: int32 [40, 30] in uncompressed chunks of
// [16, 14], so a chunk is 896 bytes, the most its metadata allows.
constexpr uint64_t kChunkBytes = 16 * 14 * 4;

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// None of `secrets` in `text`.
void expect_no_secret(const std::string& text, const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets) EXPECT_EQ(text.find(secret), std::string::npos) << secret << " in: " << text;
}

class HostileHttp : public testing::Test {
 protected:
  void SetUp() override {
    test::clear_proxy_environment();
    remote_test::write_case(dir_ / "a", remote_test::array_cases()[0], nullptr);
  }
  // Serves the array, but answers requests for paths ending in `path` with `reply`.
  test::ScriptedHttpServer::Handler serving_but(const std::string& path, const test::ScriptedReply& reply) {
    return [this, path, reply](const test::ScriptedRequest& r) {
      if (ends_with(r.path.substr(0, r.path.find('?')), path)) return reply;
      return test::ScriptedHttpServer::serve_file(dir_.path(), r);
    };
  }
  test::TempDir dir_;
};

// ---- bodies over their limit ------------------------------------------------------------------

TEST_F(HostileHttp, AChunkBodyThatNeverEndsStopsAtTheChunksLimit) {
  test::ScriptedHttpServer server(serving_but("/a/0.0", test::ScriptedReply::endless()));
  int status = ZARR_OK;
  remote_test::read_all(server.url() + "/a", R"({"store": {"max_retries": 0}})", &status);
  EXPECT_EQ(status, ZARR_ERR_IO);
  const std::string& message = remote_test::failure_message();
  EXPECT_NE(message.find("value '0.0' in " + server.url() + "/a is larger than its limit of " +
                         std::to_string(kChunkBytes) + " bytes"),
            std::string::npos)
      << message;
  // The transfer ended when the limit was passed: what the server got out is
  // what the socket buffers held, not an endless stream.
  EXPECT_LT(server.body_bytes_sent(), uint64_t{64} << 20);
}

TEST_F(HostileHttp, AMetadataDocumentThatNeverEndsStopsAtMaxValueBytes) {
  test::ScriptedHttpServer server(serving_but("/a/.zarray", test::ScriptedReply::endless()));
  Outcome outcome =
      remote_test::open_outcome(server.url() + "/a", "r", R"({"store": {"max_value_bytes": 100000, "max_retries": 0}})");
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("value '.zarray'"), std::string::npos) << outcome.message;
  EXPECT_NE(outcome.message.find("limit of 100000 bytes"), std::string::npos) << outcome.message;
  EXPECT_LT(server.body_bytes_sent(), uint64_t{64} << 20);
}

TEST_F(HostileHttp, AContentLengthOverTheLimitIsRefusedBeforeTheBody) {
  test::ScriptedHttpServer server(serving_but("/a/0.0", test::ScriptedReply::lying_length("", 10000000000)));
  int status = ZARR_OK;
  remote_test::read_all(server.url() + "/a", R"({"store": {"max_retries": 0}})", &status);
  EXPECT_EQ(status, ZARR_ERR_IO);
  EXPECT_NE(remote_test::failure_message().find("limit of " + std::to_string(kChunkBytes) +
                                                " bytes (it holds 10000000000 bytes)"),
            std::string::npos)
      << remote_test::failure_message();
}

// A Content-Length above what is sent (within the limit) leaves the
// transfer short: an I/O error after the retries. One below it: the bytes
// announced are the value, what follows is never read.
TEST_F(HostileHttp, AContentLengthThatLiesIsNeverBelieved) {
  const std::string document = ByteView(test::read_file(dir_ / "a/.zarray")).to_string();
  test::ScriptedHttpServer longer(
      serving_but("/a/.zarray", test::ScriptedReply::lying_length(document, document.size() + 100)));
  Outcome outcome =
      remote_test::open_outcome(longer.url() + "/a", "r", R"({"store": {"max_retries": 1, "timeout_ms": 3000}})");
  EXPECT_EQ(outcome.status, ZARR_ERR_IO);
  EXPECT_NE(outcome.message.find("GET " + longer.url() + "/a/.zarray"), std::string::npos) << outcome.message;
  EXPECT_NE(outcome.message.find("2 attempts"), std::string::npos) << outcome.message;

  test::ScriptedHttpServer shorter(serving_but(
      "/a/.zarray", test::ScriptedReply::lying_length(document + std::string(100000, 'x'), document.size())));
  int status = ZARR_OK;
  EXPECT_EQ(remote_test::read_all(shorter.url() + "/a", nullptr, &status), remote_test::expected_contents())
      << remote_test::failure_message();
}

// ---- redirects -----------------------------------------------------------------------------------

constexpr const char* kApiKeyHeader = R"({"store": {"headers": {"X-Api-Key": "apikey-987654321"}, "max_retries": 0}})";

TEST_F(HostileHttp, RedirectsToAnotherPortAreNotFollowed) {
  test::ScriptedHttpServer elsewhere(
      [&](const test::ScriptedRequest& r) { return test::ScriptedHttpServer::serve_file(dir_.path(), r); });
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    return test::ScriptedReply::redirect(302, elsewhere.url() + r.path + "?sig=redirect-secret-42");
  });
  Outcome outcome = remote_test::open_outcome(server.url() + "/a", "r", kApiKeyHeader);
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("redirects to " + elsewhere.url() + "/a/"), std::string::npos) << outcome.message;
  EXPECT_NE(outcome.message.find("another origin"), std::string::npos) << outcome.message;
  expect_no_secret(outcome.message, {"redirect-secret-42", "apikey-987654321"});
  EXPECT_EQ(elsewhere.requests(), 0) << "nothing went to the other origin";
}

// "localhost" is another origin than "127.0.0.1", on the same port of the
// same server.
TEST_F(HostileHttp, RedirectsFromOneHostNameToAnotherAreNotFollowed) {
  std::atomic<int> to_localhost{0};
  std::atomic<int> port{0};
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (r.headers.count("host") && r.headers.at("host").rfind("localhost", 0) == 0) {
      ++to_localhost;
      return test::ScriptedHttpServer::serve_file(dir_.path(), r);
    }
    return test::ScriptedReply::redirect(301, "http://localhost:" + std::to_string(port) + r.path);
  });
  port = server.port();
  Outcome outcome = remote_test::open_outcome(server.url() + "/a", "r", kApiKeyHeader);
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("another origin"), std::string::npos) << outcome.message;
  EXPECT_EQ(to_localhost, 0);
}

// With "redirects": "any_origin" a redirect to another origin is followed,
// but neither the custom headers nor the URL's user:password go there.
TEST_F(HostileHttp, RedirectsFollowedToAnotherOriginGoWithoutHeadersOrCredentials) {
  test::ScriptedHttpServer elsewhere(
      [&](const test::ScriptedRequest& r) { return test::ScriptedHttpServer::serve_file(dir_.path(), r); });
  test::ScriptedHttpServer server(
      [&](const test::ScriptedRequest& r) { return test::ScriptedReply::redirect(307, elsewhere.url() + r.path); });
  const std::string url = "http://user:hunter2pw@127.0.0.1:" + std::to_string(server.port()) + "/a";
  int status = ZARR_OK;
  EXPECT_EQ(remote_test::read_all(url, R"({"store": {"headers": {"X-Api-Key": "apikey-987654321"},
                                    "redirects": "any_origin"}})",
                                  &status),
            remote_test::expected_contents())
      << remote_test::failure_message();
  ASSERT_GT(elsewhere.requests(), 0);
  for (const test::ScriptedRequest& r : elsewhere.received()) {
    EXPECT_EQ(r.headers.count("x-api-key"), 0u) << r.path;
    EXPECT_EQ(r.headers.count("authorization"), 0u) << r.path;
  }
  for (const test::ScriptedRequest& r : server.received()) {
    EXPECT_EQ(r.headers.count("x-api-key"), 1u) << "the origin the headers are for gets them: " << r.path;
  }
}

// Within the origin, redirects are followed with the request's headers (a
// folder to its name with '/', a file that moved).
TEST_F(HostileHttp, RedirectsWithinTheOriginAreFollowedWithTheHeaders) {
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (r.path.rfind("/moved/", 0) == 0) return test::ScriptedReply::redirect(301, "/a/" + r.path.substr(7));
    return test::ScriptedHttpServer::serve_file(dir_.path(), r);
  });
  int status = ZARR_OK;
  EXPECT_EQ(remote_test::read_all(server.url() + "/moved", kApiKeyHeader, &status), remote_test::expected_contents())
      << remote_test::failure_message();
  for (const test::ScriptedRequest& r : server.received()) EXPECT_EQ(r.headers.count("x-api-key"), 1u) << r.path;
}

// ---- secrets in messages ---------------------------------------------------------------------------

const std::vector<std::string> kUrlSecrets = {"hunter2pw", "sekrit123", "apikey-987654321"};

std::string secret_url(int port) {
  return "http://user:hunter2pw@127.0.0.1:" + std::to_string(port) + "/a?token=sekrit123";
}

TEST_F(HostileHttp, SecretsStayOutOfConnectionTimeoutAndStatusErrors) {
  const int closed_port = test::free_local_port();
  Outcome refused = remote_test::open_outcome(secret_url(closed_port), "r", kApiKeyHeader);
  EXPECT_EQ(refused.status, ZARR_ERR_IO) << refused.message;
  EXPECT_NE(refused.message.find("127.0.0.1:" + std::to_string(closed_port)), std::string::npos) << refused.message;
  expect_no_secret(refused.message, kUrlSecrets);

  test::ScriptedHttpServer stalling(serving_but("/a/.zarray", test::ScriptedReply::stall()));
  Outcome timed_out = remote_test::open_outcome(
      secret_url(stalling.port()), "r",
      R"({"store": {"headers": {"X-Api-Key": "apikey-987654321"}, "max_retries": 0, "timeout_ms": 300}})");
  EXPECT_EQ(timed_out.status, ZARR_ERR_IO) << timed_out.message;
  EXPECT_NE(timed_out.message.find("timed out"), std::string::npos) << timed_out.message;
  expect_no_secret(timed_out.message, kUrlSecrets);

  test::ScriptedHttpServer failing(serving_but("/a/0.0", test::ScriptedReply::respond(500)));
  int status = ZARR_OK;
  remote_test::read_all(secret_url(failing.port()), kApiKeyHeader, &status);
  EXPECT_EQ(status, ZARR_ERR_IO);
  EXPECT_NE(remote_test::failure_message().find("status 500"), std::string::npos) << remote_test::failure_message();
  expect_no_secret(remote_test::failure_message(), kUrlSecrets);
}

TEST_F(HostileHttp, ZarrInfoShowsTheStoreWithoutUserinfoOrQuery) {
  test::ScriptedHttpServer server(
      [&](const test::ScriptedRequest& r) { return test::ScriptedHttpServer::serve_file(dir_.path(), r); });
  test::ArrayPtr a;
  ASSERT_OK(zarr_open(a.out(), secret_url(server.port()).c_str(), "r"));
  rapidjson::Document info = test::info_of(a);
  const std::string store = info["store"].GetString();
  EXPECT_EQ(store, "http://***@127.0.0.1:" + std::to_string(server.port()) + "/a?...");
  expect_no_secret(store, kUrlSecrets);
}

// A quote, '<' or '`' is a character a URL may hold (RFC 3986 allows ' in
// userinfo and paths): it never ends the URL that scrubbing hides parts of,
// neither in messages nor in zarr_info's "store" (the old scrubber stopped
// at it and printed the rest, password and token: audit of issue 20,
// finding 4).
TEST_F(HostileHttp, QuotesInAUrlLetNoSecretThrough) {
  const int closed_port = test::free_local_port();
  const std::string host = "127.0.0.1:" + std::to_string(closed_port);
  for (const std::string& url : {"http://alice:pa'ssw0rd@" + host + "/a", "http://" + host + "/bob's?token=ab'sekrit123",
                                 "http://alice:pa\"ssw0rd@" + host + "/a", "http://alice:pa`ssw0rd@" + host + "/a",
                                 "http://alice:pa<ssw0rd@" + host + "/a"}) {
    SCOPED_TRACE(url);
    Outcome refused = remote_test::open_outcome(url, "r", R"({"store": {"max_retries": 0}})");
    EXPECT_EQ(refused.status, ZARR_ERR_IO) << refused.message;
    EXPECT_NE(refused.message.find(host), std::string::npos) << refused.message;
    expect_no_secret(refused.message, {"ssw0rd", "sekrit123"});
  }
  test::ScriptedHttpServer server(
      [&](const test::ScriptedRequest& r) { return test::ScriptedHttpServer::serve_file(dir_.path(), r); });
  test::ArrayPtr a;
  ASSERT_OK(zarr_open(a.out(), ("http://alice:pa'ssw0rd@" + server.url().substr(7) + "/a?token=ab'sekrit123").c_str(),
                      "r"));
  const std::string store = test::info_of(a)["store"].GetString();
  EXPECT_EQ(store, "http://***@127.0.0.1:" + std::to_string(server.port()) + "/a?...");
}

// ---- S3 ------------------------------------------------------------------------------------------

constexpr const char* kAccessKey = "AKIDHOSTILE0001";
constexpr const char* kSecretKey = "SECRETKEY-hostile-1234";
constexpr const char* kSessionToken = "SESSIONTOKEN-hostile-5678";

std::string s3_options(const test::ScriptedHttpServer& server, const std::string& extra = "") {
  return std::string(R"({"store": {"endpoint": ")") + server.url() + R"(", "access_key_id": ")" + kAccessKey +
         R"(", "secret_access_key": ")" + kSecretKey + R"(", "session_token": ")" + kSessionToken +
         R"(", "max_retries": 0)" + extra + "}}";
}

bool is_listing(const test::ScriptedRequest& r) { return r.path.find("list-type=2") != std::string::npos; }

// A group at s3://bkt/g: its .zgroup, and a listing that `page` writes.
test::ScriptedHttpServer::Handler s3_group(std::function<std::string(int page)> page) {
  auto pages = std::make_shared<std::atomic<int>>(0);
  return [page, pages](const test::ScriptedRequest& r) {
    if (is_listing(r)) return test::ScriptedReply::respond(200, page((*pages)++));
    if (r.path.rfind("/bkt/g/.zgroup", 0) == 0) return test::ScriptedReply::respond(200, R"({"zarr_format": 2})");
    return test::ScriptedReply::respond(404, "<Error><Code>NoSuchKey</Code></Error>");
  };
}

std::string truncated_page(const std::string& token) {
  return "<ListBucketResult><IsTruncated>true</IsTruncated><CommonPrefixes><Prefix>g/x" + token +
         "/</Prefix></CommonPrefixes><NextContinuationToken>" + token + "</NextContinuationToken></ListBucketResult>";
}

// Listing the group's children: status and message.
Outcome list_group(const std::string& options) {
  test::GroupPtr g;
  Outcome outcome;
  outcome.status = zarr_group_open_ex(g.out(), "s3://bkt/g", "r", options.c_str());
  if (outcome.status == ZARR_OK) {
    size_t count = 0;
    outcome.status = zarr_group_child_count(g, &count);
  }
  if (outcome.status != ZARR_OK) outcome.message = zarr_last_error();
  return outcome;
}

TEST(HostileS3, ListingsThatNeverEndStopAtThePageBound) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer server(s3_group([](int page) { return truncated_page("t" + std::to_string(page)); }));
  Outcome outcome = list_group(s3_options(server, R"(, "max_list_pages": 5)"));
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("past 5 pages"), std::string::npos) << outcome.message;
  int listings = 0;
  for (const test::ScriptedRequest& r : server.received()) listings += is_listing(r);
  EXPECT_EQ(listings, 5);
}

// Pages of new tokens forever, each with keys: the listing stops at the
// bound on its entries (store option "max_list_entries") before the page
// bound, so what it holds stays small (audit of issue 20, finding 7).
TEST(HostileS3, ListingsThatNeverEndStopAtTheEntryBound) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer server(s3_group([](int page) {
    std::string body = "<ListBucketResult><IsTruncated>true</IsTruncated>";
    for (int i = 0; i < 3; ++i) body += "<CommonPrefixes><Prefix>g/x" + std::to_string(page * 3 + i) + "/</Prefix></CommonPrefixes>";
    return body + "<NextContinuationToken>t" + std::to_string(page) + "</NextContinuationToken></ListBucketResult>";
  }));
  Outcome outcome = list_group(s3_options(server, R"(, "max_list_entries": 10)"));
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("past 10 keys and prefixes (store option \"max_list_entries\")"), std::string::npos)
      << outcome.message;
  int listings = 0;
  for (const test::ScriptedRequest& r : server.received()) listings += is_listing(r);
  EXPECT_EQ(listings, 4) << "12 entries after page 4";
  Outcome bad = list_group(s3_options(server, R"(, "max_list_entries": 0)"));
  EXPECT_EQ(bad.status, ZARR_ERR_INVALID_ARGUMENT) << bad.message;
  EXPECT_NE(bad.message.find("max_list_entries"), std::string::npos) << bad.message;
}

// Keys of 16 MiB would let max_list_entries hold 16 TiB: a listed key or
// prefix longer than S3's 1024 bytes ends the listing at its page.
TEST(HostileS3, ListedKeysLongerThanS3AllowsStopTheListing) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer server(s3_group([](int page) {
    const std::string name = "g/" + std::string(1100, 'k') + std::to_string(page) + "/";
    return "<ListBucketResult><IsTruncated>true</IsTruncated><CommonPrefixes><Prefix>" + name +
           "</Prefix></CommonPrefixes><NextContinuationToken>t" + std::to_string(page) +
           "</NextContinuationToken></ListBucketResult>";
  }));
  Outcome outcome = list_group(s3_options(server));
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("S3 keys have at most 1024"), std::string::npos) << outcome.message;
  int listings = 0;
  for (const test::ScriptedRequest& r : server.received()) listings += is_listing(r);
  EXPECT_EQ(listings, 1) << "the first page ends it";
}

TEST(HostileS3, ListingsThatComeBackToAnEarlierTokenStop) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer server(s3_group([](int page) { return truncated_page(page % 2 ? "B" : "A"); }));
  Outcome outcome = list_group(s3_options(server));
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("continuation token"), std::string::npos) << outcome.message;
  int listings = 0;
  for (const test::ScriptedRequest& r : server.received()) listings += is_listing(r);
  EXPECT_EQ(listings, 3) << "pages A, B, then A again";
}

TEST(HostileS3, AnObjectThatNeverEndsStopsAtItsLimit) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer endless([](const test::ScriptedRequest&) { return test::ScriptedReply::endless(); });
  Outcome outcome = remote_test::open_outcome("s3://bkt/g", "r", s3_options(endless, R"(, "max_value_bytes": 4096)").c_str());
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("limit of 4096 bytes"), std::string::npos) << outcome.message;
  EXPECT_LT(endless.body_bytes_sent(), uint64_t{64} << 20);
}

// A server that quotes the request's credentials back in its error message.
TEST(HostileS3, CredentialsTheServerEchoesStayOutOfMessages) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer server([](const test::ScriptedRequest& r) {
    std::string echoed;
    for (const auto& [name, value] : r.headers) echoed += name + "=" + value + " ";
    return test::ScriptedReply::respond(400, "<Error><Code>Echo" + echoed + "</Code><Message>you sent " + echoed +
                                                 " with key " + kSecretKey + "</Message></Error>");
  });
  Outcome outcome = remote_test::open_outcome("s3://bkt/g", "r", s3_options(server).c_str());
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("you sent"), std::string::npos) << outcome.message;
  expect_no_secret(outcome.message, {kAccessKey, kSecretKey, kSessionToken});
}

TEST(HostileS3, RedirectsAreNotFollowed) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer elsewhere([](const test::ScriptedRequest&) { return test::ScriptedReply::respond(200, "{}"); });
  test::ScriptedHttpServer server(
      [&](const test::ScriptedRequest& r) { return test::ScriptedReply::redirect(307, elsewhere.url() + r.path); });
  Outcome outcome = remote_test::open_outcome("s3://bkt/g", "r", s3_options(server).c_str());
  EXPECT_EQ(outcome.status, ZARR_ERR_IO) << outcome.message;
  EXPECT_NE(outcome.message.find("status 307"), std::string::npos) << outcome.message;
  EXPECT_EQ(elsewhere.requests(), 0);
}

// A bucket spelled with userinfo ("KEY:SECRET@bucket", as some tools take
// it) is refused by the naming rules, and the message quotes it as messages
// show a URL: the key and secret stay out (the old message quoted the raw
// text: audit of issue 20, finding 5).
TEST(HostileS3, UserinfoBeforeTheBucketStaysOutOfMessages) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer server([](const test::ScriptedRequest&) { return test::ScriptedReply::respond(404); });
  const std::string url = std::string("s3://") + kAccessKey + ":" + kSecretKey + "@my-bucket/arr.zarr";
  Outcome outcome = remote_test::open_outcome(url, "r", s3_options(server).c_str());
  EXPECT_EQ(outcome.status, ZARR_ERR_INVALID_ARGUMENT) << outcome.message;
  EXPECT_NE(outcome.message.find("bucket \"***@my-bucket\""), std::string::npos) << outcome.message;
  expect_no_secret(outcome.message, {kAccessKey, kSecretKey});
  EXPECT_EQ(server.requests(), 0);
}

// AWS's bucket naming rules: a name that breaks one is refused, naming the
// bucket, before anything is sent; "s3://../bkt/x" never reaches bucket bkt.
TEST(HostileS3, BucketNamesFollowAwsRules) {
  test::clear_proxy_environment();
  test::ScriptedHttpServer server([](const test::ScriptedRequest&) { return test::ScriptedReply::respond(404); });
  for (const std::string& bad : std::vector<std::string>{"..", ".", "b", "ab", "Bucket", "bkt_x", "-bkt", "bkt-", ".bkt", "a..b", "192.168.5.4",
                                "xn--bkt", "sthree-bkt", "bkt-s3alias", "bkt--ol-s3", std::string(64, 'a')}) {
    for (const std::string& url : {"s3://" + bad + "/x", "s3://" + bad + "/bkt/x"}) {
      SCOPED_TRACE(url);
      Outcome outcome = remote_test::open_outcome(url, "r", s3_options(server).c_str());
      EXPECT_EQ(outcome.status, ZARR_ERR_INVALID_ARGUMENT) << outcome.message;
      EXPECT_NE(outcome.message.find("bucket \"" + bad + "\""), std::string::npos) << outcome.message;
    }
  }
  EXPECT_EQ(server.requests(), 0);
  for (const std::string& good : std::vector<std::string>{"bkt", "my-bucket", "a.b.c", "123", "bucket-1.data", std::string(63, 'a')}) {
    Outcome outcome = remote_test::open_outcome("s3://" + good + "/x", "r", s3_options(server).c_str());
    EXPECT_EQ(outcome.status, ZARR_ERR_NOT_FOUND) << good << ": " << outcome.message;
  }
}

}  // namespace
}  // namespace zarr
