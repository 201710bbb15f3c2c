// zarrtool on remote stores: a hierarchy served read-only by nginx (HTTP) and
// an S3 bucket on s3rver, both on 127.0.0.1, started and stopped here. The
// tool gets S3's endpoint and credentials from the environment, as a user's
// shell would give them.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "stores/local_servers.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

using namespace zarrtool_test;
using zarr::test::TempDir;
namespace fs = std::filesystem;

namespace {

TEST(CliRemote, HttpStoreIsReadableAndRefusesErasing) {
  const std::string skip = zarr::test::Nginx::unavailable_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir dir;
  const std::string local = make_counting_array(dir, "a", "2");
  zarr::test::Nginx nginx({{"/data/", dir.path() + "/"}}, {});
  const std::string url = nginx.url() + "/data/a";

  RunResult info = run_tool({"info", url, "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  rapidjson::Document doc = parse(info.out);
  EXPECT_EQ(extents(doc["shape"]), (std::vector<uint64_t>{6, 8}));
  EXPECT_TRUE(doc["nbytes_stored"].IsNull()) << "HTTP cannot list";
  EXPECT_EQ(run_tool({"cat", url}).out, run_tool({"cat", local}).out);
  RunResult verify = run_tool({"verify", url});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("4 chunks, unknown missing, 0 corrupt"), std::string::npos) << verify.out;
  RunResult rm = run_tool({"rm", url, "--yes"});
  EXPECT_NE(rm.exit_code, 0);
  EXPECT_NE(rm.err.find(url), std::string::npos) << rm.err;
  const std::string copy = dir / "copy";
  ASSERT_EQ(run_tool({"cp", url, copy, "--format", "3"}).exit_code, 0);
  EXPECT_EQ(run_tool({"cat", copy}).out, run_tool({"cat", local}).out);
}

// A consolidated hierarchy over HTTP, which cannot list: verify compared the
// consolidated entries with a listing of each group's own nodes and stopped
// at "cannot list group" (exit 1), and cp opened each subgroup by its URL,
// where no consolidated metadata is, and failed the same way. Both now go
// through the consolidated group; verify checks each entry against the
// node's own metadata and says what it cannot check (unlisted nodes).
TEST(CliRemote, ConsolidatedHierarchyOverHttpIsVerifiedAndCopied) {
  zarr::test::clear_proxy_environment();
  for (const std::string format : {"2", "3"}) {
    SCOPED_TRACE("Zarr v" + format);
    TempDir dir;
    const std::string local = dir / "g";
    ASSERT_EQ(run_tool({"create", local, "--group", "--format", format}).exit_code, 0);
    make_counting_array_at(local + "/a", format);
    ASSERT_EQ(run_tool({"create", local + "/sub", "--group"}).exit_code, 0);
    make_counting_array_at(local + "/sub/b", format);
    ASSERT_EQ(run_tool({"consolidate", local}).exit_code, 0);
    zarr::test::ScriptedHttpServer server([&](const zarr::test::ScriptedRequest& r) {
      return zarr::test::ScriptedHttpServer::serve_file(dir.path(), r);
    });
    const std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/g";

    RunResult verify = run_tool({"verify", url});
    EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
    EXPECT_NE(verify.out.find(url + "/sub/b: 4 chunks, unknown missing, 0 corrupt"), std::string::npos) << verify.out;
    EXPECT_NE(verify.out.find(url + ": consolidated metadata: 0 stale entries (nodes it does not list cannot be "
                                    "found: the store cannot list)"),
              std::string::npos)
        << verify.out;

    const std::string copy = dir / "copy";
    RunResult cp = run_tool({"cp", url, copy});
    ASSERT_EQ(cp.exit_code, 0) << cp.err;
    EXPECT_EQ(run_tool({"tree", copy}).out, run_tool({"tree", local}).out);
    EXPECT_EQ(run_tool({"cat", copy + "/sub/b"}).out, run_tool({"cat", local + "/sub/b"}).out);
    EXPECT_TRUE(fs::exists(fs::path(copy) / (format == "2" ? ".zmetadata" : "zarr.json")));
    EXPECT_EQ(run_tool({"verify", copy}).exit_code, 0) << "the copy is consolidated";

    // Another writer removes sub/b without consolidating: a stale entry.
    fs::remove_all(fs::path(local) / "sub" / "b");
    RunResult stale = run_tool({"verify", url});
    EXPECT_EQ(stale.exit_code, 4) << stale.out << stale.err;
    EXPECT_NE(stale.out.find(url + "/sub/b: stale consolidated metadata: listed, but not in the store"),
              std::string::npos)
        << stale.out;
  }
}

// A copy whose destination cannot be created (S3 without credentials) made
// nothing: zarrtool said it "could not remove the partial copy" before the
// real error, as if a partial copy were left behind.
TEST(CliRemote, ACopyThatCreatedNothingRemovesNothing) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group"}).exit_code, 0);
  const std::string local = make_counting_array_at(group + "/a");
  const std::string environment = "HOME=" + shell_quote(dir.path()) +
                                  " AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_CONFIG_FILE=/nonexistent"
                                  " AWS_ACCESS_KEY_ID= AWS_SECRET_ACCESS_KEY= AWS_PROFILE= AWS_NO_SIGN_REQUEST="
                                  " AWS_ENDPOINT_URL_S3=http://127.0.0.1:" +
                                  std::to_string(zarr::test::free_local_port());
  for (const std::string& source : {local, group}) {
    SCOPED_TRACE(source);
    RunResult cp = run_tool({"cp", source, "s3://bucket/copy"}, environment);
    EXPECT_EQ(cp.exit_code, 1) << cp.err;
    EXPECT_NE(cp.err.find("no S3 credentials"), std::string::npos) << cp.err;
    EXPECT_EQ(cp.err.find("partial copy"), std::string::npos) << cp.err;
  }
}

// Nothing zarrtool prints shows a URL's user:password or query: neither its
// own lines (verify names the URL it checked) nor libzarr's messages, whether
// the server answers or nothing listens.
TEST(CliRemote, UrlSecretsAreNeverPrinted) {
  zarr::test::clear_proxy_environment();
  TempDir dir;
  make_counting_array(dir, "a", "2");
  zarr::test::ScriptedHttpServer server([&](const zarr::test::ScriptedRequest& r) {
    return zarr::test::ScriptedHttpServer::serve_file(dir.path(), r);
  });
  auto secret_url = [](int port) {
    return "http://user:hunter2pw@127.0.0.1:" + std::to_string(port) + "/a?token=sekrit123";
  };
  const std::vector<std::vector<std::string>> commands = {
      {"info", secret_url(server.port())},
      {"verify", secret_url(server.port())},
      {"cat", secret_url(server.port())},
      {"info", secret_url(zarr::test::free_local_port())},
      {"cp", secret_url(server.port()), secret_url(server.port()) + "x"},
  };
  for (const std::vector<std::string>& command : commands) {
    SCOPED_TRACE(command[0] + " " + command[1]);
    RunResult result = run_tool(command);
    for (const char* secret : {"hunter2pw", "sekrit123"}) {
      EXPECT_EQ(result.out.find(secret), std::string::npos) << result.out;
      EXPECT_EQ(result.err.find(secret), std::string::npos) << result.err;
    }
  }
  RunResult verify = run_tool({"verify", secret_url(server.port())});
  EXPECT_NE(verify.out.find("http://***@127.0.0.1:" + std::to_string(server.port()) + "/a?...: 4 chunks"),
            std::string::npos)
      << verify.out;
}

TEST(CliRemote, S3CopyInfoVerifyAndErase) {
  const std::string skip = zarr::test::S3rver::unavailable_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  zarr::test::S3rver s3({"bucket"});
  const std::string environment = "AWS_ENDPOINT_URL_S3=" + shell_quote(s3.endpoint()) + " AWS_ACCESS_KEY_ID=" +
                                  zarr::test::S3rver::kAccessKey + " AWS_SECRET_ACCESS_KEY=" +
                                  zarr::test::S3rver::kSecretKey + " AWS_REGION=us-east-1";
  TempDir dir;
  const std::string local = make_counting_array(dir, "a", "2");
  const std::string url = "s3://bucket/data/a";
  RunResult cp = run_tool({"cp", local, url, "--format", "3", "--shards", "6,8", "--chunks", "3,4"}, environment);
  ASSERT_EQ(cp.exit_code, 0) << cp.err;
  RunResult info = run_tool({"info", url, "--json"}, environment);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  rapidjson::Document doc = parse(info.out);
  EXPECT_EQ(doc["chunks_initialized"].GetUint64(), 1u) << info.out;
  EXPECT_GT(doc["nbytes_stored"].GetUint64(), 0u) << info.out;
  EXPECT_EQ(run_tool({"cat", url}, environment).out, run_tool({"cat", local}).out);
  RunResult verify = run_tool({"verify", url}, environment);
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("1 shards, 0 missing, 0 corrupt, 0 unreadable, 0 stray keys"), std::string::npos)
      << verify.out;
  // The same store through --store-options alone, with no environment.
  const std::string options = std::string(R"({"endpoint":")") + s3.endpoint() + R"(","region":"us-east-1",)" +
                              R"("access_key_id":")" + zarr::test::S3rver::kAccessKey +
                              R"(","secret_access_key":")" + zarr::test::S3rver::kSecretKey + R"("})";
  RunResult with_options = run_tool({"--store-options", options, "cat", url});
  EXPECT_EQ(with_options.exit_code, 0) << with_options.err;
  EXPECT_EQ(with_options.out, run_tool({"cat", local}).out);
  // A public bucket: AWS_NO_SIGN_REQUEST=YES, no credentials anywhere.
  const std::string no_files = " AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_CONFIG_FILE=/nonexistent";
  const std::string unsigned_env = "AWS_ENDPOINT_URL_S3=" + shell_quote(s3.endpoint()) + " AWS_NO_SIGN_REQUEST=YES" +
                                   no_files + " AWS_ACCESS_KEY_ID= AWS_SECRET_ACCESS_KEY=";
  RunResult anonymous = run_tool({"cat", url}, unsigned_env);
  EXPECT_EQ(anonymous.exit_code, 0) << anonymous.err;
  EXPECT_EQ(anonymous.out, run_tool({"cat", local}).out);
  // The keys of a profile in ~/.aws/credentials, and its S3 endpoint in ~/.aws/config.
  std::ofstream(dir / "credentials") << "[lab]\naws_access_key_id = " << zarr::test::S3rver::kAccessKey
                                     << "\naws_secret_access_key = " << zarr::test::S3rver::kSecretKey << "\n";
  std::ofstream(dir / "config") << "[profile lab]\nregion = us-east-1\ns3 =\n  endpoint_url = " << s3.endpoint()
                                << "\n";
  const std::string profile_env = "HOME=" + shell_quote(dir.path()) + " AWS_PROFILE=lab AWS_SHARED_CREDENTIALS_FILE=" +
                                  shell_quote(dir / "credentials") + " AWS_CONFIG_FILE=" +
                                  shell_quote(dir / "config") + " AWS_ACCESS_KEY_ID= AWS_SECRET_ACCESS_KEY=";
  RunResult profile = run_tool({"cat", url}, profile_env);
  EXPECT_EQ(profile.exit_code, 0) << profile.err;
  EXPECT_EQ(profile.out, run_tool({"cat", local}).out);
  RunResult rm = run_tool({"rm", url, "--yes"}, environment);
  EXPECT_EQ(rm.exit_code, 0) << rm.err;
  EXPECT_EQ(run_tool({"info", url}, environment).exit_code, 3) << "erased";
}

}  // namespace
