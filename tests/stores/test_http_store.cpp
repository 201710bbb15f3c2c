// The read-only HTTP store against Debian's nginx on 127.0.0.1 (serving
// ../shared/peer-data and arrays the tests write) and against the scripted
// server: the conformance suite's read cases, every peer-data array read over
// HTTP as it reads from disk, written arrays (v2, v3, sharded) in full and in
// part, missing keys and chunks, server errors, dropped connections, bounded
// retries, concurrent chunk fetches, listing refused, consolidated groups.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include <rapidjson/document.h>

#include <gtest/gtest.h>

#include "base/error.h"
#include "base/scrub.h"
#include "capi_helpers.h"
#include "stores/http_store.h"
#include "stores/local_servers.h"
#include "stores/remote_fixtures.h"
#include "stores/store_conformance.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

namespace zarr {
namespace {

namespace fs = std::filesystem;
using remote_test::Outcome;

// One nginx for the whole test program, serving peer-data under
// /peer-data/ and a scratch folder under /served/; /fail500/ answers 500 and
// /forbidden/ 403. Started on first use, stopped at exit.
struct SharedNginx {
  test::TempDir served;
  std::unique_ptr<test::Nginx> nginx;
};

SharedNginx* shared_nginx() {
  // Destroyed at exit, which stops nginx and removes the folder.
  static const std::unique_ptr<SharedNginx> shared = [] {
    auto s = std::make_unique<SharedNginx>();
    if (!test::Nginx::unavailable_reason().empty()) return s;
    test::clear_proxy_environment();
    std::map<std::string, std::string> folders = {{"/served/", s->served.path()}};
    if (!test::peer_data_dir().empty()) folders["/peer-data/"] = test::peer_data_dir();
    s->nginx = std::make_unique<test::Nginx>(folders, std::map<std::string, int>{{"/fail500/", 500},
                                                                                  {"/forbidden/", 403}});
    return s;
  }();
  return shared.get();
}

// The store options of the tests: short timeouts, quick retries.
constexpr const char* kFastOptions = R"({"store": {"timeout_ms": 5000, "max_retries": 2}})";

HttpStoreOptions fast_store_options() {
  HttpStoreOptions options;
  options.client.timeout_ms = 5000;
  options.client.max_retries = 2;
  options.client.retry_delay_ms = 5;
  return options;
}

void skip_without_nginx() { GTEST_SKIP() << test::Nginx::unavailable_reason(); }

// ---- the conformance suite's read cases ------------------------------------------------

conformance::StoreKind http_kind() {
  conformance::StoreKind kind;
  kind.name = "http_nginx";
  kind.make_read_only = [](const std::string&, const conformance::Contents& contents) -> std::shared_ptr<Store> {
    SharedNginx* shared = shared_nginx();
    if (!shared->nginx) {
      skip_without_nginx();
      return nullptr;
    }
    static std::atomic<int> counter{0};
    const std::string name = "conformance" + std::to_string(counter++);
    for (const auto& [key, value] : contents) {
      fs::path file = fs::path(shared->served.path()) / name / key;
      fs::create_directories(file.parent_path());
      std::ofstream(file, std::ios::binary) << value;
    }
    return make_http_store(shared->nginx->url() + "/served/" + name, fast_store_options());
  };
  return kind;
}

// ---- the store interface against nginx ------------------------------------------------------

class HttpStoreTest : public testing::Test {
 protected:
  void SetUp() override {
    shared_ = shared_nginx();
    if (!shared_->nginx) skip_without_nginx();
  }

  std::string url(const std::string& path) const { return shared_->nginx->url() + path; }
  // A folder served at /served/<name>.
  std::string served_folder(const std::string& name) const { return shared_->served.path() + "/" + name; }

  SharedNginx* shared_ = nullptr;
};

using test::Caught;
using test::catch_error;

TEST_F(HttpStoreTest, ForbiddenKeysAreAbsent) {
  auto store = make_http_store(url("/forbidden"), fast_store_options());
  EXPECT_FALSE(store->get("a/.zarray"));
  EXPECT_FALSE(store->exists("a/.zarray"));
  ByteRange tail;
  tail.suffix = 4;
  EXPECT_FALSE(store->get_range("a/0", tail));
}

TEST_F(HttpStoreTest, ServerErrorsNameTheUrlAndStatusAfterBoundedRetries) {
  auto store = make_http_store(url("/fail500/h.zarr"), fast_store_options());
  Caught caught = catch_error([&] { store->get("a/0.0"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("GET " + url("/fail500/h.zarr/a/0.0")), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find("status 500 after 3 attempts"), std::string::npos) << caught.message;
  EXPECT_EQ(catch_error([&] { store->exists("a/.zarray"); }).code, ZARR_ERR_IO);
  ByteRange first;
  first.length = 4;
  EXPECT_EQ(catch_error([&] { store->get_range("a/0.0", first); }).code, ZARR_ERR_IO);
}

TEST_F(HttpStoreTest, GetManyKeepsOrderAndMarksMissingKeys) {
  fs::create_directories(served_folder("many"));
  std::vector<std::string> keys;
  for (int i = 0; i < 30; ++i) {
    keys.push_back("k" + std::to_string(i));
    if (i % 3 != 0) std::ofstream(served_folder("many") + "/k" + std::to_string(i)) << "value " << i;
  }
  auto store = make_http_store(url("/served/many/"), fast_store_options());  // a trailing '/' is fine
  std::vector<std::optional<Bytes>> values = store->get_many(keys, store->value_limit());
  ASSERT_EQ(values.size(), keys.size());
  for (int i = 0; i < 30; ++i) {
    if (i % 3 == 0) {
      EXPECT_FALSE(values[i]) << i;
    } else {
      ASSERT_TRUE(values[i]) << i;
      EXPECT_EQ(ByteView(*values[i]).to_string(), "value " + std::to_string(i));
    }
  }
}

TEST_F(HttpStoreTest, ListingIsRefusedWithAWayOut) {
  auto store = make_http_store(url("/served"), fast_store_options());
  EXPECT_FALSE(store->listable());
  for (const auto& list : std::vector<std::function<void()>>{[&] { store->list_prefix(""); },
                                                              [&] { store->list_dir("a/"); }}) {
    Caught caught = catch_error(list);
    EXPECT_EQ(caught.code, ZARR_ERR_UNSUPPORTED);
    EXPECT_NE(caught.message.find("HTTP servers offer no listing"), std::string::npos) << caught.message;
    EXPECT_NE(caught.message.find("consolidated"), std::string::npos) << caught.message;
  }
}

TEST_F(HttpStoreTest, WritesAreRefused) {
  auto store = make_http_store(url("/served"), fast_store_options());
  EXPECT_FALSE(store->writable());
  EXPECT_EQ(catch_error([&] { store->set("a", std::string("x")); }).code, ZARR_ERR_READ_ONLY);
  EXPECT_EQ(catch_error([&] { store->erase("a"); }).code, ZARR_ERR_READ_ONLY);
  EXPECT_EQ(catch_error([&] { store->erase_prefix("a/"); }).code, ZARR_ERR_READ_ONLY);
}

TEST(HttpStoreUrls, BadBaseUrlsAreInvalidArguments) {
  for (const char* bad : {"ftp://h/x", "http://", "http:///path", "http://h/a b", "http://h/x#frag", "h/x"}) {
    Caught caught = catch_error([&] { make_http_store(bad, HttpStoreOptions{}); });
    EXPECT_EQ(caught.code, ZARR_ERR_INVALID_ARGUMENT) << bad;
    EXPECT_NE(caught.message.find(scrub_secrets(bad)), std::string::npos) << caught.message;
  }
}

// A query string (a signed URL's token) follows every key, and is left out
// of messages.
TEST(HttpStoreUrls, QueryStringsFollowEveryKeyAndStayOutOfMessages) {
  test::clear_proxy_environment();
  std::vector<std::string> paths;
  std::mutex mutex;
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    std::lock_guard<std::mutex> lock(mutex);
    paths.push_back(r.path);
    return test::ScriptedReply::respond(500);
  });
  HttpStoreOptions options = fast_store_options();
  options.client.max_retries = 0;
  auto store = make_http_store(server.url() + "/data?token=SECRET", options);
  Caught caught = catch_error([&] { store->get("a b/0.0"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_EQ(caught.message.find("SECRET"), std::string::npos) << caught.message;
  EXPECT_EQ(store->describe().find("SECRET"), std::string::npos);
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths[0], "/data/a%20b/0.0?token=SECRET");
}

// A server that sends the first bytes whatever range is asked for: the
// explicit second request gets them too, and the read fails rather than
// returning wrong bytes.
TEST(HttpStoreRanges, ServersThatKeepSendingOtherBytesAreIoErrors) {
  test::clear_proxy_environment();
  std::atomic<int> requests{0};
  test::ScriptedHttpServer server([&](const test::ScriptedRequest&) {
    ++requests;
    test::ScriptedReply reply = test::ScriptedReply::respond(206, "012");
    reply.headers.push_back("Content-Range: bytes 0-2/10");
    return reply;
  });
  auto store = make_http_store(server.url(), fast_store_options());
  ByteRange tail;
  tail.suffix = 3;
  Caught caught = catch_error([&] { store->get_range("k", tail); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("HTTP GET " + server.url() + "/k"), std::string::npos) << caught.message;
  EXPECT_EQ(requests, 2);
}

// ---- arrays through the C API -----------------------------------------------------------------

class HttpArrayTest : public HttpStoreTest {
 protected:
  // Writes every case under /served/<folder>/<case>; gives the base URL.
  std::string write_cases(const std::string& folder) {
    for (const remote_test::ArrayCase& c : remote_test::array_cases()) {
      remote_test::write_case(served_folder(folder) + "/" + c.name, c, nullptr);
    }
    return url("/served/" + folder);
  }
};

TEST_F(HttpArrayTest, WrittenArraysReadInFullAndInPart) {
  const std::string base = write_cases("arrays");
  const std::vector<int32_t> expected = remote_test::expected_contents();
  for (const remote_test::ArrayCase& c : remote_test::array_cases()) {
    SCOPED_TRACE(c.name);
    int status = ZARR_OK;
    EXPECT_EQ(remote_test::read_all(base + "/" + c.name, kFastOptions, &status), expected)
        << remote_test::failure_message();
    // A region across chunk (and shard) edges, partly in the unwritten rows.
    std::vector<int32_t> part = remote_test::read_region(base + "/" + c.name, kFastOptions, 13, 5, 25, 17, &status);
    ASSERT_EQ(status, ZARR_OK) << remote_test::failure_message();
    for (uint64_t r = 0; r < 25; ++r) {
      for (uint64_t col = 0; col < 17; ++col) {
        ASSERT_EQ(part[r * 17 + col], expected[(13 + r) * remote_test::kCols + 5 + col]) << r << "," << col;
      }
    }
  }
}

TEST_F(HttpArrayTest, MissingArraysAreNotFound) {
  Outcome outcome = remote_test::open_outcome(url("/served/nothing-here"), "r", kFastOptions);
  EXPECT_EQ(outcome.status, ZARR_ERR_NOT_FOUND) << outcome.message;
  EXPECT_NE(outcome.message.find(url("/served/nothing-here")), std::string::npos) << outcome.message;
}

TEST_F(HttpArrayTest, ServerErrorsReachTheCaller) {
  Outcome outcome = remote_test::open_outcome(url("/fail500/a.zarr"), "r", kFastOptions);
  EXPECT_EQ(outcome.status, ZARR_ERR_IO);
  EXPECT_NE(outcome.message.find(url("/fail500/a.zarr/")), std::string::npos) << outcome.message;
  EXPECT_NE(outcome.message.find("status 500"), std::string::npos) << outcome.message;
}

TEST_F(HttpArrayTest, WritesAreRefusedThroughTheCApi) {
  write_cases("readonly");
  Outcome outcome = remote_test::open_outcome(url("/served/readonly/v2"), "r+", kFastOptions);
  EXPECT_EQ(outcome.status, ZARR_ERR_READ_ONLY);
  EXPECT_NE(outcome.message.find("read-only"), std::string::npos) << outcome.message;
  zarr_array* array = nullptr;
  EXPECT_EQ(zarr_create(&array, url("/served/readonly/new").c_str(), remote_test::array_cases()[0].metadata.c_str()),
            ZARR_ERR_READ_ONLY);
}

TEST_F(HttpArrayTest, StoreOptionsAreChecked) {
  write_cases("options");
  const std::string a = url("/served/options/v3");
  Outcome unknown = remote_test::open_outcome(a, "r", R"({"store": {"region": "x"}})");
  EXPECT_EQ(unknown.status, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_NE(unknown.message.find("'region'"), std::string::npos) << unknown.message;
  EXPECT_NE(unknown.message.find("http"), std::string::npos) << unknown.message;
  for (const char* bad : {R"({"store": {"timeout_ms": 0}})", R"({"store": {"max_concurrency": "8"}})",
                          R"({"store": {"max_retries": -1}})", R"({"store": {"headers": ["x"]}})",
                          R"({"store": {"headers": {"Bad Name": "v"}}})", R"({"store": {"headers": {"X": "a\nb"}}})",
                          R"({"store": {"headers": {"X": 1}}})"}) {
    Outcome outcome = remote_test::open_outcome(a, "r", bad);
    EXPECT_EQ(outcome.status, ZARR_ERR_INVALID_ARGUMENT) << bad;
    EXPECT_NE(outcome.message.find("store option"), std::string::npos) << outcome.message;
  }
  Outcome good = remote_test::open_outcome(
      a, "r",
      R"({"store": {"timeout_ms": 4000, "connect_timeout_ms": 1000, "max_concurrency": 4, "max_retries": 0,
                    "headers": {"X-Client": "libzarr tests"}}})");
  EXPECT_EQ(good.status, ZARR_OK) << good.message;
}

// Every array of ../shared/peer-data that libzarr reads from disk reads the
// same over HTTP.
TEST_F(HttpArrayTest, PeerDataReadsAsFromDisk) {
  const std::string peer = test::peer_data_dir();
  if (peer.empty()) GTEST_SKIP() << "no peer data at " << test::peer_data_expected_location();
  std::ifstream manifest_file(peer + "/manifest.json");
  std::string text((std::istreambuf_iterator<char>(manifest_file)), std::istreambuf_iterator<char>());
  rapidjson::Document manifest;
  manifest.Parse(text.c_str());
  ASSERT_TRUE(manifest.IsObject() && manifest.HasMember("arrays"));
  int compared = 0;
  for (const auto& entry : manifest["arrays"].GetArray()) {
    const std::string path = entry["path"].GetString();
    int local_status = ZARR_OK, http_status = ZARR_OK;
    std::vector<uint8_t> local = remote_test::read_any_array(peer + "/" + path, nullptr, &local_status);
    if (local_status != ZARR_OK) continue;  // what libzarr cannot read from disk either (vlen, zip...)
    std::vector<uint8_t> remote = remote_test::read_any_array(url("/peer-data/" + path), kFastOptions, &http_status);
    EXPECT_EQ(http_status, ZARR_OK) << path << ": " << remote_test::failure_message();
    EXPECT_TRUE(remote == local) << path;
    ++compared;
  }
  EXPECT_GE(compared, 100);
}

// ---- hierarchies: consolidated metadata, or none ------------------------------------------------

using test::child_names;

TEST_F(HttpArrayTest, ConsolidatedGroupsOpenAndList) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    const std::string folder = served_folder("consolidated_v" + std::to_string(format));
    zarr_group* root = nullptr;
    const std::string create_options = "{\"zarr_format\": " + std::to_string(format) + "}";
    ASSERT_EQ(zarr_group_create_ex(&root, folder.c_str(), nullptr, create_options.c_str()), ZARR_OK)
        << zarr_last_error();
    zarr_group* sub = nullptr;
    ASSERT_EQ(zarr_group_create_group(&sub, root, "sub", nullptr), ZARR_OK) << zarr_last_error();
    zarr_group_close(sub);
    zarr_group_close(root);
    const remote_test::ArrayCase& c = remote_test::array_cases()[format == 2 ? 0 : 2];
    remote_test::write_case(folder + "/sub/arr", c, nullptr);
    ASSERT_EQ(zarr_consolidate_metadata(folder.c_str()), ZARR_OK) << zarr_last_error();

    const std::string http = url("/served/consolidated_v" + std::to_string(format));
    zarr_group* group = nullptr;
    ASSERT_EQ(zarr_group_open_ex(&group, http.c_str(), "r", kFastOptions), ZARR_OK) << zarr_last_error();
    EXPECT_EQ(child_names(group), std::vector<std::string>{"sub"});
    zarr_group* opened_sub = nullptr;
    ASSERT_EQ(zarr_group_open_group(&opened_sub, group, "sub"), ZARR_OK) << zarr_last_error();
    EXPECT_EQ(child_names(opened_sub), std::vector<std::string>{"arr"});
    zarr_array* array = nullptr;
    ASSERT_EQ(zarr_group_open_array(&array, group, "sub/arr", "r"), ZARR_OK) << zarr_last_error();
    std::vector<int32_t> values(remote_test::kRows * remote_test::kCols);
    uint64_t start[2] = {0, 0}, count[2] = {remote_test::kRows, remote_test::kCols};
    EXPECT_EQ(zarr_read_region(array, 2, start, count, values.data(), values.size() * 4), ZARR_OK) << zarr_last_error();
    EXPECT_EQ(values, remote_test::expected_contents());
    zarr_close(array);
    zarr_group_close(opened_sub);
    zarr_group_close(group);
    // Asking for consolidated metadata where there is none says so.
    Outcome required = remote_test::group_open_outcome(http + "/sub", "r", R"({"consolidated": true})");
    EXPECT_EQ(required.status, ZARR_ERR_NOT_FOUND) << required.message;
  }
}

TEST_F(HttpArrayTest, PeerDataConsolidatedGroupOpensAndLists) {
  const std::string peer = test::peer_data_dir();
  if (peer.empty()) GTEST_SKIP() << "no peer data at " << test::peer_data_expected_location();
  zarr_group* group = nullptr;
  const std::string http = url("/peer-data/zarrita-fixtures/v2/data.zarr");
  ASSERT_EQ(zarr_group_open_ex(&group, http.c_str(), "r", kFastOptions), ZARR_OK) << zarr_last_error();
  zarr_group* local = nullptr;
  ASSERT_EQ(zarr_group_open(&local, (peer + "/zarrita-fixtures/v2/data.zarr").c_str(), "r"), ZARR_OK);
  std::vector<std::string> names = child_names(group);
  EXPECT_GT(names.size(), 5u);
  EXPECT_EQ(names, child_names(local));
  zarr_group_close(local);
  zarr_group_close(group);
}

// Without consolidated metadata a group opens (its own metadata is a key)
// but cannot list its children; arrays open by path.
TEST_F(HttpArrayTest, UnconsolidatedGroupsOpenButListingIsRefused) {
  const std::string folder = served_folder("plain_group");
  zarr_group* root = nullptr;
  ASSERT_EQ(zarr_group_create_ex(&root, folder.c_str(), nullptr, zarr::test::kV2Group), ZARR_OK) << zarr_last_error();
  zarr_group_close(root);
  remote_test::write_case(folder + "/arr", remote_test::array_cases()[0], nullptr);

  zarr_group* group = nullptr;
  ASSERT_EQ(zarr_group_open_ex(&group, url("/served/plain_group").c_str(), "r", kFastOptions), ZARR_OK)
      << zarr_last_error();
  char* json = nullptr;
  EXPECT_EQ(zarr_group_list(group, &json), ZARR_ERR_UNSUPPORTED);
  const std::string message = zarr_last_error();
  EXPECT_NE(message.find("no listing"), std::string::npos) << message;
  EXPECT_NE(message.find("consolidated"), std::string::npos) << message;
  zarr_array* array = nullptr;
  EXPECT_EQ(zarr_group_open_array(&array, group, "arr", "r"), ZARR_OK) << zarr_last_error();
  zarr_close(array);
  zarr_group_close(group);
}

// ---- misbehaving servers, through the C API ------------------------------------------------------

// Serves a folder, failing every request whose path contains `marker` with `reply`.
class MisbehavingServerTest : public testing::Test {
 protected:
  void SetUp() override {
    test::clear_proxy_environment();
    remote_test::write_case(dir_ / "a", remote_test::array_cases()[0], nullptr);
  }
  test::TempDir dir_;
};

// Every answer closes its connection: libcurl retries a request once by
// itself when a kept-alive connection turns out dead, and that would blur the
// count of libzarr's own attempts.
TEST_F(MisbehavingServerTest, DroppedConnectionsFailTheReadAfterBoundedRetries) {
  std::atomic<int> chunk_requests{0};
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (r.path.find("/a/1.1") != std::string::npos) {
      ++chunk_requests;
      return test::ScriptedReply::close_connection();
    }
    test::ScriptedReply reply = test::ScriptedHttpServer::serve_file(dir_.path(), r);
    reply.close_after = true;
    return reply;
  });
  int status = ZARR_OK;
  remote_test::read_all(server.url() + "/a", R"({"store": {"max_retries": 2, "timeout_ms": 3000}})", &status);
  EXPECT_EQ(status, ZARR_ERR_IO);
  const std::string& message = remote_test::failure_message();
  EXPECT_NE(message.find(server.url() + "/a/1.1"), std::string::npos) << message;
  EXPECT_NE(message.find("Empty reply from server"), std::string::npos) << message;
  EXPECT_EQ(chunk_requests, 3);
}

TEST_F(MisbehavingServerTest, StalledChunksTimeOut) {
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (r.path.find("/a/0.0") != std::string::npos) return test::ScriptedReply::stall();
    return test::ScriptedHttpServer::serve_file(dir_.path(), r);
  });
  int status = ZARR_OK;
  remote_test::read_all(server.url() + "/a", R"({"store": {"max_retries": 1, "timeout_ms": 300}})", &status);
  EXPECT_EQ(status, ZARR_ERR_IO);
  EXPECT_NE(remote_test::failure_message().find("timed out"), std::string::npos) << remote_test::failure_message();
}

TEST_F(MisbehavingServerTest, PassingServerErrorsAreRetriedAway) {
  std::atomic<int> failures_left{2};
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (r.path.find("/a/2.0") != std::string::npos && failures_left-- > 0) return test::ScriptedReply::respond(503);
    return test::ScriptedHttpServer::serve_file(dir_.path(), r);
  });
  int status = ZARR_OK;
  EXPECT_EQ(remote_test::read_all(server.url() + "/a", R"({"store": {"max_retries": 2}})", &status),
            remote_test::expected_contents())
      << remote_test::failure_message();
}

// The server holds each chunk until 6 chunk requests are in its hands at
// once: a region read fetches its chunks concurrently, up to max_concurrency.
bool is_chunk_path(const std::string& path) {
  const size_t last = path.rfind('/');
  return last + 1 < path.size() && std::isdigit(static_cast<unsigned char>(path[last + 1]));
}

TEST_F(MisbehavingServerTest, RegionReadsFetchChunksConcurrently) {
  for (int concurrency : {16, 1}) {
    test::ScriptedHttpServer* server_ptr = nullptr;
    test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
      if (is_chunk_path(r.path)) server_ptr->wait_for_in_flight(6, concurrency == 1 ? 20 : 3000);
      return test::ScriptedHttpServer::serve_file(dir_.path(), r);
    });
    server_ptr = &server;
    int status = ZARR_OK;
    const std::string options = "{\"store\": {\"max_concurrency\": " + std::to_string(concurrency) + "}}";
    EXPECT_EQ(remote_test::read_all(server.url() + "/a", options.c_str(), &status), remote_test::expected_contents())
        << remote_test::failure_message();
    if (concurrency == 1) {
      EXPECT_EQ(server.max_in_flight(), 1);
    } else {
      EXPECT_GE(server.max_in_flight(), 6);
    }
  }
}

// The same through a group opened with consolidated metadata, as HTTP
// hierarchies are.
TEST_F(MisbehavingServerTest, ConsolidatedHierarchiesFetchChunksConcurrently) {
  zarr_group* root = nullptr;
  ASSERT_EQ(zarr_group_create_ex(&root, (dir_ / "h").c_str(), nullptr, zarr::test::kV2Group), ZARR_OK) << zarr_last_error();
  zarr_group_close(root);
  remote_test::write_case(dir_ / "h/a", remote_test::array_cases()[0], nullptr);
  ASSERT_EQ(zarr_consolidate_metadata((dir_ / "h").c_str()), ZARR_OK) << zarr_last_error();
  test::ScriptedHttpServer* server_ptr = nullptr;
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (is_chunk_path(r.path)) server_ptr->wait_for_in_flight(6, 1000);
    return test::ScriptedHttpServer::serve_file(dir_.path(), r);
  });
  server_ptr = &server;
  zarr_group* group = nullptr;
  ASSERT_EQ(zarr_group_open(&group, (server.url() + "/h").c_str(), "r"), ZARR_OK) << zarr_last_error();
  zarr_array* array = nullptr;
  ASSERT_EQ(zarr_group_open_array(&array, group, "a", "r"), ZARR_OK) << zarr_last_error();
  std::vector<int32_t> values(remote_test::kRows * remote_test::kCols);
  uint64_t start[2] = {0, 0}, count[2] = {remote_test::kRows, remote_test::kCols};
  EXPECT_EQ(zarr_read_region(array, 2, start, count, values.data(), values.size() * 4), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(values, remote_test::expected_contents());
  EXPECT_GE(server.max_in_flight(), 6);
  zarr_close(array);
  zarr_group_close(group);
}

// Remote reads fetch chunks in batches; with a cache_pool, the second read of
// the array asks the server for no chunk at all.
TEST_F(MisbehavingServerTest, CachedChunksAreNotFetchedAgain) {
  std::atomic<int> chunk_requests{0};
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (is_chunk_path(r.path)) ++chunk_requests;
    return test::ScriptedHttpServer::serve_file(dir_.path(), r);
  });
  zarr_array* array = nullptr;
  ASSERT_EQ(zarr_open_ex(&array, (server.url() + "/a").c_str(), "r", R"({"cache_pool": {"total_bytes_limit": 1000000}})"),
            ZARR_OK)
      << zarr_last_error();
  std::vector<int32_t> values(remote_test::kRows * remote_test::kCols);
  uint64_t start[2] = {0, 0}, count[2] = {remote_test::kRows, remote_test::kCols};
  EXPECT_EQ(zarr_read_region(array, 2, start, count, values.data(), values.size() * 4), ZARR_OK) << zarr_last_error();
  const int first = chunk_requests;
  EXPECT_GT(first, 0);
  std::fill(values.begin(), values.end(), -7);
  EXPECT_EQ(zarr_read_region(array, 2, start, count, values.data(), values.size() * 4), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(values, remote_test::expected_contents());
  EXPECT_EQ(chunk_requests, first) << "every chunk, stored or absent, came from the cache";
  zarr_close(array);
}

// A shard too big for the cache is read in part; the cache keeps its index,
// so a second read of the same inner chunk makes one request instead of two.
TEST_F(MisbehavingServerTest, CacheKeepsTheIndexOfShardsReadInPart) {
  for (const remote_test::ArrayCase& c : remote_test::array_cases()) {
    if (c.name.find("sharded") == std::string::npos) continue;
    SCOPED_TRACE(c.name);
    remote_test::write_case(dir_ / c.name, c, nullptr);
    std::atomic<int> shard_requests{0};
    test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
      if (is_chunk_path(r.path)) ++shard_requests;
      return test::ScriptedHttpServer::serve_file(dir_.path(), r);
    });
    zarr_array* array = nullptr;
    // 500 bytes: below a shard (16 x 14 int32), above its index.
    ASSERT_EQ(zarr_open_ex(&array, (server.url() + "/" + c.name).c_str(), "r",
                           R"({"cache_pool": {"total_bytes_limit": 500}})"),
              ZARR_OK)
        << zarr_last_error();
    std::vector<int32_t> window(4);
    uint64_t start[2] = {16, 0}, count[2] = {2, 2};
    std::vector<int> requests;
    for (int read = 0; read < 2; ++read) {
      const int before = shard_requests;
      EXPECT_EQ(zarr_read_region(array, 2, start, count, window.data(), 16), ZARR_OK) << zarr_last_error();
      requests.push_back(shard_requests - before);
      const std::vector<int32_t> expected = remote_test::expected_contents();
      EXPECT_EQ(window, (std::vector<int32_t>{expected[16 * remote_test::kCols], expected[16 * remote_test::kCols + 1],
                                              expected[17 * remote_test::kCols], expected[17 * remote_test::kCols + 1]}));
    }
    EXPECT_EQ(requests, (std::vector<int>{2, 1})) << "index + inner chunk, then the inner chunk alone";
    zarr_close(array);
  }
}

// A server that sends ETags (as S3 and nginx do) lets a handle keep shard
// indexes without a cache_pool: the next part of a shard costs one request.
// When the shard is replaced (its ETag changes), the kept index is dropped
// at the first read of the new shard, before any of its bytes is used.
TEST_F(MisbehavingServerTest, ShardIndexesAreKeptAndCheckedByETag) {
  const remote_test::ArrayCase& c = remote_test::array_cases()[2];
  ASSERT_EQ(c.name, "v3_sharded_end");
  remote_test::write_case(dir_ / c.name, c, nullptr);
  std::atomic<int> shard_requests{0};
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (is_chunk_path(r.path)) ++shard_requests;
    test::ScriptedReply reply = test::ScriptedHttpServer::serve_file(dir_.path(), r);
    if (reply.status / 100 == 2) {
      const Bytes content = test::read_file(dir_.path() + r.path);
      const std::string text(content.begin(), content.end());
      reply.headers.push_back("ETag: \"" + std::to_string(std::hash<std::string>()(text)) + "\"");
    }
    return reply;
  });
  zarr_array* array = nullptr;
  ASSERT_EQ(zarr_open(&array, (server.url() + "/" + c.name).c_str(), "r"), ZARR_OK) << zarr_last_error();
  const std::vector<int32_t> expected = remote_test::expected_contents();
  const std::vector<int32_t> want = {expected[16 * remote_test::kCols + 7], expected[16 * remote_test::kCols + 8],
                                     expected[17 * remote_test::kCols + 7], expected[17 * remote_test::kCols + 8]};
  std::vector<int32_t> window(4);
  uint64_t start[2] = {16, 7}, count[2] = {2, 2};
  auto requests_of_a_read = [&] {
    const int before = shard_requests;
    EXPECT_EQ(zarr_read_region(array, 2, start, count, window.data(), 16), ZARR_OK) << zarr_last_error();
    EXPECT_EQ(window, want);
    return shard_requests - before;
  };
  EXPECT_EQ(requests_of_a_read(), 2) << "index + inner chunk";
  EXPECT_EQ(requests_of_a_read(), 1) << "the inner chunk alone";
  // Another writer empties the inner chunk before it (fill value 7): the
  // inner chunk read moves within the shard.
  {
    zarr_array* writer = nullptr;
    ASSERT_EQ(zarr_open(&writer, (dir_ / c.name).c_str(), "r+"), ZARR_OK) << zarr_last_error();
    std::vector<int32_t> fill(8 * 7, 7);
    uint64_t at[2] = {16, 0}, extent[2] = {8, 7};
    ASSERT_EQ(zarr_write_region(writer, 2, at, extent, fill.data(), fill.size() * 4), ZARR_OK) << zarr_last_error();
    zarr_close(writer);
  }
  EXPECT_EQ(requests_of_a_read(), 3) << "the inner chunk at its old place (another ETag), then index + inner chunk";
  EXPECT_EQ(requests_of_a_read(), 1);
  zarr_close(array);
}

TEST_F(MisbehavingServerTest, CustomHeadersAreSentWithEveryRequest) {
  std::atomic<int> without{0};
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    auto it = r.headers.find("authorization");
    if (it == r.headers.end() || it->second != "Bearer T0KEN") ++without;
    return test::ScriptedHttpServer::serve_file(dir_.path(), r);
  });
  int status = ZARR_OK;
  remote_test::read_all(server.url() + "/a", R"({"store": {"headers": {"Authorization": "Bearer T0KEN"}}})", &status);
  EXPECT_EQ(status, ZARR_OK) << remote_test::failure_message();
  EXPECT_GT(server.requests(), 5);
  EXPECT_EQ(without, 0);
}

// ---- the fetch and decode pipeline of remote region reads (issue 25) ----------------------

// Writes a uint16 array of `n` elements (value i at i) at `dir` from `metadata`.
void write_counting_array(const fs::path& dir, const std::string& metadata, const std::vector<uint64_t>& shape) {
  zarr_array* array = nullptr;
  ASSERT_EQ(zarr_create(&array, dir.c_str(), metadata.c_str()), ZARR_OK) << zarr_last_error();
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  std::vector<uint16_t> values(n);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<uint16_t>(i * 7 + 1);
  const std::vector<uint64_t> start(shape.size(), 0);
  ASSERT_EQ(zarr_write_region(array, shape.size(), start.data(), shape.data(), values.data(), n * 2), ZARR_OK)
      << zarr_last_error();
  zarr_close(array);
}

// A region of 200 chunks, answered out of order (each chunk after a delay of
// its own), the first chunk held until 100 chunk requests have arrived: the
// store keeps max_concurrency requests in flight through the whole region,
// past a chunk that is slow, and every value lands where it belongs. (Before
// the pipeline, a region was fetched in batches of 64 chunks, each waiting
// for its slowest.)
TEST_F(MisbehavingServerTest, RegionReadsKeepRequestsInFlightPastASlowChunk) {
  write_counting_array(dir_ / "many",
                       R"({"zarr_format": 2, "shape": [1, 600], "chunks": [1, 3], "dtype": "<u2", "order": "C", )"
                       R"("fill_value": 0, "filters": null, "compressor": null})",
                       {1, 600});
  std::atomic<int> chunk_requests{0};
  std::atomic<bool> held_until_100{false};
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (is_chunk_path(r.path)) {
      const int n = ++chunk_requests;
      if (r.path.substr(r.path.rfind('/') + 1) == "0.0") {
        for (int waited = 0; waited < 5000 && chunk_requests < 100; ++waited) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        held_until_100 = chunk_requests >= 100;
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(200 * (n % 7)));  // out of order
      }
    }
    return test::ScriptedHttpServer::serve_file(dir_.path(), r);
  });
  zarr_array* array = nullptr;
  ASSERT_EQ(zarr_open_ex(&array, (server.url() + "/many").c_str(), "r", R"({"store": {"max_concurrency": 4}})"),
            ZARR_OK)
      << zarr_last_error();
  std::vector<uint16_t> values(600, 0xABAB);
  const uint64_t start[2] = {0, 0}, count[2] = {1, 600};
  ASSERT_EQ(zarr_read_region(array, 2, start, count, values.data(), values.size() * 2), ZARR_OK) << zarr_last_error();
  zarr_close(array);
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(values[i], static_cast<uint16_t>(i * 7 + 1)) << "element " << i;
  EXPECT_EQ(chunk_requests, 200);
  EXPECT_TRUE(held_until_100) << "the other chunks waited for the first";
  EXPECT_LE(server.max_in_flight(), 4);
}

// A chunk that fails in the middle of a pipelined read (one that does not
// decode, one the server refuses) ends the read with its error, naming it,
// while the others are in flight or waiting to be decoded; the read returns.
TEST_F(MisbehavingServerTest, AChunkFailingMidwayEndsThePipelinedReadWithItsError) {
  write_counting_array(dir_ / "many",
                       R"({"zarr_format": 2, "shape": [1, 600], "chunks": [1, 3], "dtype": "<u2", "order": "C", )"
                       R"("fill_value": 0, "filters": null, "compressor": {"id": "zlib", "level": 1}})",
                       {1, 600});
  for (const std::string& failing : {"0.100", "0.150"}) {
    SCOPED_TRACE(failing);
    test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
      if (r.path.size() > failing.size() && r.path.substr(r.path.size() - failing.size() - 1) == "/" + failing) {
        return failing == "0.100" ? test::ScriptedReply::respond(200, "not zlib") : test::ScriptedReply::respond(500);
      }
      return test::ScriptedHttpServer::serve_file(dir_.path(), r);
    });
    zarr_array* array = nullptr;
    ASSERT_EQ(zarr_open_ex(&array, (server.url() + "/many").c_str(), "r",
                           R"({"store": {"max_concurrency": 4, "max_retries": 0}})"),
              ZARR_OK)
        << zarr_last_error();
    std::vector<uint16_t> values(600);
    const uint64_t start[2] = {0, 0}, count[2] = {1, 600};
    const int status = zarr_read_region(array, 2, start, count, values.data(), values.size() * 2);
    EXPECT_EQ(status, failing == "0.100" ? ZARR_ERR_CODEC : ZARR_ERR_IO) << zarr_last_error();
    EXPECT_NE(std::string(zarr_last_error()).find(failing), std::string::npos) << zarr_last_error();
    zarr_close(array);
  }
}

// Shards a region covers are fetched whole, many at a time (not one per
// thread: before the pipeline, at most as many as threads); of a shard read
// in part, its index and then the inner chunks the part needs, neighbours in
// one request (as before). Counted by the server.
TEST_F(MisbehavingServerTest, ShardedReadsMakeOneRequestPerShardOrIndexAndMergedRanges) {
  write_counting_array(
      dir_ / "sharded",
      R"({"zarr_format": 3, "node_type": "array", "shape": [64, 128], "data_type": "uint16", "fill_value": 0, )"
      R"("chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [32, 32]}}, )"
      R"("chunk_key_encoding": {"name": "default"}, "codecs": [{"name": "sharding_indexed", "configuration": )"
      R"({"chunk_shape": [8, 8], "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}], )"
      R"("index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]})",
      {64, 128});
  std::atomic<int> shard_requests{0}, ranged{0};
  test::ScriptedHttpServer* server_ptr = nullptr;
  test::ScriptedHttpServer server([&](const test::ScriptedRequest& r) {
    if (is_chunk_path(r.path)) {
      ++shard_requests;
      if (r.headers.count("range")) {
        ++ranged;
      } else {
        server_ptr->wait_for_in_flight(4, 3000);  // whole shards: several at once
      }
    }
    return test::ScriptedHttpServer::serve_file(dir_.path(), r);
  });
  server_ptr = &server;
  // One thread: the fetches in flight are the store's, not one per thread.
  ASSERT_EQ(zarr_set_thread_count(1), ZARR_OK);
  zarr_array* array = nullptr;
  ASSERT_EQ(zarr_open(&array, (server.url() + "/sharded").c_str(), "r"), ZARR_OK) << zarr_last_error();
  auto read = [&](uint64_t r0, uint64_t c0, uint64_t nr, uint64_t nc) {
    std::vector<uint16_t> values(nr * nc, 0xABAB);
    const uint64_t start[2] = {r0, c0}, count[2] = {nr, nc};
    EXPECT_EQ(zarr_read_region(array, 2, start, count, values.data(), values.size() * 2), ZARR_OK)
        << zarr_last_error();
    for (uint64_t r = 0; r < nr; ++r) {
      for (uint64_t c = 0; c < nc; ++c) {
        EXPECT_EQ(values[r * nc + c], static_cast<uint16_t>(((r0 + r) * 128 + c0 + c) * 7 + 1)) << r << ", " << c;
      }
    }
  };
  read(0, 0, 64, 128);  // 8 shards, each covered
  EXPECT_EQ(shard_requests, 8);
  EXPECT_EQ(ranged, 0);
  EXPECT_GE(server.max_in_flight(), 4) << "the shards were fetched one per thread";
  shard_requests = 0;
  read(0, 8, 8, 48);  // shard (0, 0): inner chunks 1-3 of its first row; shard (0, 1): 0-1
  EXPECT_EQ(shard_requests, 4) << "per shard: its index, then its inner chunks in one range";
  EXPECT_EQ(ranged, 4);
  zarr_close(array);
  zarr_set_thread_count(0);
}

}  // namespace

// The conformance suite's instantiations live in its own namespace.
namespace conformance {
INSTANTIATE_TEST_SUITE_P(Http, StoreReadConformance, testing::Values(http_kind()),
                         kind_test_name);
}  // namespace conformance

}  // namespace zarr
