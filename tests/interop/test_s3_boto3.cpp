// S3 objects between libzarr and boto3 (Debian's python3-boto3, run by
// s3_boto3_peer.py) through s3rver on 127.0.0.1, both ways:
//
//  * BotoReadsWhatLibzarrWrote: libzarr writes v2, v3 and sharded arrays to
//    s3:// URLs and the same arrays to a folder; boto3 lists (in pages) and
//    downloads the objects: the same keys with the same bytes, and
//    zarr-python 2.13 reads the downloaded v2 array to the values written.
//  * LibzarrReadsWhatBotoWrote: zarr-python writes a v2 array and boto3
//    uploads it; boto3 uploads v3 and sharded arrays libzarr wrote to a
//    folder; libzarr reads every one through s3:// URLs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "interop_support.h"
#include "stores/local_servers.h"
#include "stores/remote_fixtures.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

namespace zarr::interop {
namespace {

namespace fs = std::filesystem;
constexpr const char* kBucket = "interop";

class S3Boto3Interop : public testing::Test {
 protected:
  void SetUp() override {
    std::string reason = test::S3rver::unavailable_reason();
    if (!reason.empty()) GTEST_SKIP() << reason;
    std::string out;
    if (run_command(shell_quote(python_exe()) + " -c 'import boto3, zarr' 2>&1", &out) != 0) {
      GTEST_SKIP() << python_exe() << " cannot import boto3 and zarr (scripts/setup.sh installs python3-boto3): "
                   << out;
    }
    test::clear_proxy_environment();
    server_ = std::make_unique<test::S3rver>(std::vector<std::string>{kBucket});
    options_ = "{\"store\": " + server_->store_options() + "}";
  }

  // Runs the peer; its stdout.
  std::string peer(const std::string& arguments) {
    std::string command = shell_quote(python_exe()) + " " + shell_quote(scripts_dir() + "/s3_boto3_peer.py") + " " +
                          shell_quote(server_->endpoint()) + " " + arguments + " 2>&1";
    std::string out;
    EXPECT_EQ(run_command(command, &out), 0) << command << "\n" << out;
    return out;
  }

  std::string url(const std::string& path) const { return std::string("s3://") + kBucket + "/" + path; }

  std::unique_ptr<test::S3rver> server_;
  std::string options_;
};

// Every file below dir, relative paths, sorted.
std::vector<std::string> files_below(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) out.push_back(fs::relative(entry.path(), dir).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(S3Boto3Interop, BotoReadsWhatLibzarrWrote) {
  test::TempDir local, downloaded;
  for (const remote_test::ArrayCase& c : remote_test::array_cases()) {
    remote_test::write_case(url("from-libzarr/" + c.name), c, options_.c_str());
    remote_test::write_case(local / c.name, c, nullptr);
  }
  std::vector<std::string> keys = lines_of(peer("download " + std::string(kBucket) + " from-libzarr/ " +
                                                shell_quote(downloaded.path())));
  std::vector<std::string> expected_keys = files_below(local.path());
  EXPECT_EQ(keys, expected_keys);
  EXPECT_GT(expected_keys.size(), 20u);  // metadata, chunks and shards of four arrays
  for (const std::string& key : expected_keys) {
    EXPECT_TRUE(test::read_file(downloaded / key) == test::read_file(local / key)) << key;
  }
  std::string values = peer("zarr-read " + shell_quote(downloaded / "v2"));
  std::vector<int32_t> expected = remote_test::expected_contents();
  std::string expected_json = "[";
  for (size_t i = 0; i < expected.size(); ++i) expected_json += (i ? ", " : "") + std::to_string(expected[i]);
  EXPECT_EQ(values, expected_json + "]\n");
}

TEST_F(S3Boto3Interop, LibzarrReadsWhatBotoWrote) {
  peer("zarr-write-v2 " + std::string(kBucket) + " from-boto/zarr-python/");
  int status = ZARR_OK;
  EXPECT_EQ(remote_test::read_all(url("from-boto/zarr-python"), options_.c_str(), &status), remote_test::pattern())
      << remote_test::failure_message();

  test::TempDir local;
  for (const remote_test::ArrayCase& c : remote_test::array_cases()) {
    if (c.name == "v2") continue;
    remote_test::write_case(local / c.name, c, nullptr);
    peer("upload " + shell_quote(local / c.name) + " " + kBucket + " from-boto/" + c.name + "/");
    EXPECT_EQ(remote_test::read_all(url("from-boto/" + c.name), options_.c_str(), &status),
              remote_test::expected_contents())
        << c.name << ": " << remote_test::failure_message();
  }
}

}  // namespace
}  // namespace zarr::interop
