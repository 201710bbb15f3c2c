// The libcurl transport (stores/http_client.h) and byte ranges over HTTP
// (stores/http_range.h), against the scripted server: concurrency and its
// bound, retries and their bound, dropped connections, stalls, connection
// reuse, and servers that answer ranges wrongly.
#include <atomic>
#include <functional>

#include <gtest/gtest.h>

#include "base/error.h"
#include "stores/http_client.h"
#include "stores/http_range.h"
#include "stores/local_servers.h"
#include "stores/store_conformance.h"
#include "support/test_support.h"

namespace zarr {
namespace {

using test::ScriptedHttpServer;
using test::ScriptedReply;
using test::ScriptedRequest;

using test::Caught;
using test::catch_error;

HttpClientOptions fast_options() {
  HttpClientOptions options;
  options.timeout_ms = 2000;
  options.connect_timeout_ms = 1000;
  options.max_retries = 2;
  options.retry_delay_ms = 5;
  return options;
}

HttpRequest get(const std::string& url) {
  HttpRequest request;
  request.url = url;
  return request;
}

class HttpClientTest : public testing::Test {
 protected:
  static void SetUpTestSuite() { test::clear_proxy_environment(); }
};

TEST_F(HttpClientTest, ResponsesComeBackInRequestOrder) {
  ScriptedHttpServer server([](const ScriptedRequest& r) { return ScriptedReply::respond(200, "body of " + r.path); });
  HttpClient client(fast_options());
  std::vector<HttpRequest> requests;
  for (int i = 0; i < 20; ++i) requests.push_back(get(server.url() + "/k" + std::to_string(i)));
  std::vector<HttpResponse> responses = client.perform(requests);
  ASSERT_EQ(responses.size(), 20u);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(responses[i].status, 200);
    EXPECT_EQ(ByteView(responses[i].body).to_string(), "body of /k" + std::to_string(i));
    EXPECT_EQ(responses[i].attempts, 1);
  }
}

// The server holds every reply until 6 requests are in its hands at once:
// only a client with requests in flight together gets there.
TEST_F(HttpClientTest, ManyRequestsAreInFlightAtOnce) {
  ScriptedHttpServer* server_ptr = nullptr;
  ScriptedHttpServer server([&](const ScriptedRequest&) {
    server_ptr->wait_for_in_flight(6, 3000);
    return ScriptedReply::respond(200, "x");
  });
  server_ptr = &server;
  HttpClient client(fast_options());
  client.perform(std::vector<HttpRequest>(12, get(server.url() + "/k")));
  EXPECT_GE(server.max_in_flight(), 6) << server.connections() << " connections";
}

TEST_F(HttpClientTest, ConcurrencyIsBoundedByMaxConcurrency) {
  ScriptedHttpServer* server_ptr = nullptr;
  ScriptedHttpServer server([&](const ScriptedRequest&) {
    server_ptr->wait_for_in_flight(3, 100);  // would reach 3 if the client let it
    return ScriptedReply::respond(200, "x");
  });
  server_ptr = &server;
  HttpClientOptions options = fast_options();
  options.max_concurrency = 2;
  HttpClient client(options);
  client.perform(std::vector<HttpRequest>(8, get(server.url() + "/k")));
  EXPECT_EQ(server.max_in_flight(), 2);
}

// Without max_concurrency, a call keeps as many requests in flight as their
// bodies' limits fit in kInFlightBudget, 16 to 64.
TEST(InFlightLimit, WithoutMaxConcurrencyTheBodiesLimitsChooseIt) {
  HttpClientOptions options;
  ASSERT_EQ(options.max_concurrency, 0);
  auto requests_of = [](uint64_t max_body) {
    std::vector<HttpRequest> requests(3);
    for (HttpRequest& r : requests) r.max_body = max_body;
    requests[1].max_body = max_body / 2;  // the largest limit counts
    return requests;
  };
  EXPECT_EQ(in_flight_limit(options, requests_of(64 << 10)), kMaxAutoInFlight);
  EXPECT_EQ(in_flight_limit(options, requests_of(2 << 20)), 32);
  EXPECT_EQ(in_flight_limit(options, requests_of(8 << 20)), kMinAutoInFlight);
  EXPECT_EQ(in_flight_limit(options, requests_of(uint64_t{1} << 40)), kMinAutoInFlight);
  EXPECT_EQ(in_flight_limit(options, requests_of(0)), kMaxAutoInFlight);
  options.max_concurrency = 5;
  EXPECT_EQ(in_flight_limit(options, requests_of(64 << 10)), 5);
  EXPECT_EQ(in_flight_limit(options, requests_of(8 << 20)), 5);
}

// The server holds each reply until 40 requests are in its hands (small
// bodies: more than the old fixed 16 go out), or up to 17 (large bodies: no
// more than 16 may).
TEST_F(HttpClientTest, SmallBodiesGetMoreRequestsInFlightThanLargeOnes) {
  for (uint64_t max_body : {uint64_t{64} << 10, uint64_t{8} << 20}) {
    const bool small = max_body < (uint64_t{1} << 20);
    ScriptedHttpServer* server_ptr = nullptr;
    ScriptedHttpServer server([&](const ScriptedRequest&) {
      server_ptr->wait_for_in_flight(small ? 40 : 17, small ? 3000 : 100);
      return ScriptedReply::respond(200, "x");
    });
    server_ptr = &server;
    HttpRequest request = get(server.url() + "/k");
    request.max_body = max_body;
    HttpClient client(fast_options());
    client.perform(std::vector<HttpRequest>(small ? 80 : 34, request));
    if (small) {
      EXPECT_GE(server.max_in_flight(), 40) << server.connections() << " connections";
      EXPECT_LE(server.max_in_flight(), kMaxAutoInFlight);
    } else {
      EXPECT_EQ(server.max_in_flight(), kMinAutoInFlight);
    }
  }
}

TEST_F(HttpClientTest, ConnectionsAreReusedAcrossCalls) {
  ScriptedHttpServer server([](const ScriptedRequest&) { return ScriptedReply::respond(200, "x"); });
  HttpClient client(fast_options());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(client.perform(get(server.url() + "/k")).status, 200);
  EXPECT_EQ(server.requests(), 10);
  EXPECT_EQ(server.connections(), 1);
}

TEST_F(HttpClientTest, TransientStatusesAreRetriedUntilTheyClear) {
  std::atomic<int> calls{0};
  ScriptedHttpServer server([&](const ScriptedRequest&) {
    return ++calls <= 2 ? ScriptedReply::respond(503, "busy") : ScriptedReply::respond(200, "finally");
  });
  HttpResponse response = HttpClient(fast_options()).perform(get(server.url() + "/k"));
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(ByteView(response.body).to_string(), "finally");
  EXPECT_EQ(response.attempts, 3);
}

TEST_F(HttpClientTest, RetriesAreBounded) {
  ScriptedHttpServer server([](const ScriptedRequest&) { return ScriptedReply::respond(500, "broken"); });
  HttpResponse response = HttpClient(fast_options()).perform(get(server.url() + "/k"));
  EXPECT_EQ(response.status, 500);
  EXPECT_EQ(response.attempts, 3);  // 1 + max_retries
  EXPECT_EQ(server.requests(), 3);
}

TEST_F(HttpClientTest, ClientErrorsAreNotRetried) {
  for (int status : {400, 403, 404, 416, 501}) {
    ScriptedHttpServer server([status](const ScriptedRequest&) { return ScriptedReply::respond(status); });
    HttpResponse response = HttpClient(fast_options()).perform(get(server.url() + "/k"));
    EXPECT_EQ(response.status, status);
    EXPECT_EQ(server.requests(), 1) << status;
  }
}

TEST_F(HttpClientTest, DroppedConnectionsAreRetriedThenReported) {
  ScriptedHttpServer server([](const ScriptedRequest&) { return ScriptedReply::close_connection(); });
  const std::string url = server.url() + "/dropped";
  Caught caught = catch_error([&] { HttpClient(fast_options()).perform(get(url)); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("GET " + url), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find("Empty reply from server"), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find("3 attempts"), std::string::npos) << caught.message;
  EXPECT_EQ(server.requests(), 3);
}

TEST_F(HttpClientTest, StalledServersTimeOut) {
  ScriptedHttpServer server([](const ScriptedRequest&) { return ScriptedReply::stall(); });
  HttpClientOptions options = fast_options();
  options.timeout_ms = 200;
  options.max_retries = 1;
  Caught caught = catch_error([&] { HttpClient(options).perform(get(server.url() + "/slow")); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("timed out"), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find("2 attempts"), std::string::npos) << caught.message;
}

TEST_F(HttpClientTest, RefusedConnectionsAreReported) {
  const int port = test::free_local_port();  // nobody listens there
  HttpClientOptions options = fast_options();
  options.max_retries = 1;
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/k";
  Caught caught = catch_error([&] { HttpClient(options).perform(get(url)); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << caught.message;
}

// One failure ends the call; the other transfers are abandoned, not leaked,
// and the client stays usable.
TEST_F(HttpClientTest, AFailedRequestEndsTheCallAndTheClientRecovers) {
  ScriptedHttpServer server([](const ScriptedRequest& r) {
    return r.path == "/bad" ? ScriptedReply::close_connection() : ScriptedReply::respond(200, "ok");
  });
  HttpClientOptions options = fast_options();
  options.max_retries = 0;
  HttpClient client(options);
  std::vector<HttpRequest> requests(5, get(server.url() + "/good"));
  requests.push_back(get(server.url() + "/bad"));
  EXPECT_EQ(catch_error([&] { client.perform(requests); }).code, ZARR_ERR_IO);
  EXPECT_EQ(client.perform(get(server.url() + "/good")).status, 200);
}

TEST_F(HttpClientTest, OnlyHttpAndHttpsAreFetched) {
  test::TempDir dir;
  test::write_file(dir / "secret", std::string("local file"));
  Caught caught = catch_error([&] { HttpClient(fast_options()).perform(get("file://" + dir.path() + "/secret")); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("file://"), std::string::npos) << caught.message;
}

TEST_F(HttpClientTest, HeadersGoOutAndComeBack) {
  std::string seen;
  ScriptedHttpServer server([&](const ScriptedRequest& r) {
    seen = r.headers.count("x-test") ? r.headers.at("x-test") : "";
    ScriptedReply reply = ScriptedReply::respond(200, "");
    reply.headers.push_back("X-Answer: 42");
    return reply;
  });
  HttpRequest request = get(server.url() + "/k");
  request.headers.push_back("X-Test: sent");
  HttpResponse response = HttpClient(fast_options()).perform(request);
  EXPECT_EQ(seen, "sent");
  EXPECT_EQ(response.header("x-answer").value_or(""), "42");
}

// ---- ranges -----------------------------------------------------------------------

HttpResponse response_of(long status, const std::string& body, const std::string& content_range = "") {
  HttpResponse r;
  r.status = status;
  r.body = Bytes(body.begin(), body.end());
  if (!content_range.empty()) r.headers.emplace_back("content-range", content_range);
  return r;
}

using conformance::range;
using conformance::suffix;

std::string text(const RangeAnswer& answer) { return answer.bytes ? ByteView(*answer.bytes).to_string() : "<none>"; }

TEST(HttpRange, RangeHeaders) {
  EXPECT_EQ(range_header(range(10, 10)), "Range: bytes=10-19");
  EXPECT_EQ(range_header(range(10, std::nullopt)), "Range: bytes=10-");
  EXPECT_EQ(range_header(suffix(5)), "Range: bytes=-5");
  EXPECT_TRUE(is_empty_range(range(3, 0)));
  EXPECT_TRUE(is_empty_range(suffix(0)));
  EXPECT_FALSE(is_empty_range(range(3, std::nullopt)));
}

TEST(HttpRange, PartialContentIsCheckedAndCut) {
  HttpResponse r = response_of(206, "2345", "bytes 2-5/10");
  EXPECT_EQ(text(take_range(range(2, 4), r, "GET x")), "2345");
  HttpResponse tail = response_of(206, "789", "bytes 7-9/10");
  EXPECT_EQ(text(take_range(suffix(3), tail, "GET x")), "789");
  HttpResponse clipped = response_of(206, "89", "bytes 8-9/10");
  EXPECT_EQ(text(take_range(range(8, 100), clipped, "GET x")), "89");
}

TEST(HttpRange, WholeValuesAreCutWhenTheServerIgnoresRange) {
  HttpResponse r = response_of(200, "0123456789");
  EXPECT_EQ(text(take_range(range(2, 3), r, "GET x")), "234");
  EXPECT_EQ(text(take_range(suffix(4), r, "GET x")), "6789");
  EXPECT_EQ(text(take_range(suffix(40), r, "GET x")), "0123456789");
  EXPECT_EQ(text(take_range(range(20, std::nullopt), r, "GET x")), "");
}

// s3rver answers "bytes=-3" with the first 3 bytes: ask again by offsets.
TEST(HttpRange, MisreadSuffixRangesAreAskedAgainExplicitly) {
  HttpResponse r = response_of(206, "012", "bytes 0-2/10");
  RangeAnswer answer = take_range(suffix(3), r, "GET x");
  ASSERT_FALSE(answer.bytes);
  ASSERT_TRUE(answer.ask_again);
  EXPECT_EQ(answer.ask_again->offset, 7u);
  EXPECT_EQ(answer.ask_again->length.value_or(0), 3u);
}

TEST(HttpRange, InconsistentPartialContentIsAnIoError) {
  for (const char* content_range : {"", "bytes 2-5", "bytes 5-2/10", "bytes 2-5/4", "items 2-5/10", "bytes 2-9/10"}) {
    HttpResponse r = response_of(206, "2345", content_range);
    Caught caught = catch_error([&] { take_range(range(2, 4), r, "GET http://h/k"); });
    EXPECT_EQ(caught.code, ZARR_ERR_IO) << content_range;
    EXPECT_NE(caught.message.find("GET http://h/k"), std::string::npos) << caught.message;
  }
}

}  // namespace
}  // namespace zarr
