// The AWS CLI's shared files (stores/aws_config.h): sections, profiles,
// static credentials, and the settings libzarr refuses by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/error.h"
#include "stores/aws_config.h"
#include "support/test_support.h"

namespace zarr {
namespace {

using test::Caught;
using test::catch_error;

// The shared files in a temporary folder, found through the variables.
struct SharedFiles {
  SharedFiles() {
    for (const char* name : {"AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"}) env.unset(name);
    env.set("HOME", dir.path());
  }
  void write(const std::string& name, const std::string& text) {
    std::filesystem::create_directories(dir / ".aws");
    std::ofstream(dir / (".aws/" + name)) << text;
  }
  test::TempDir dir;
  test::EnvironmentGuard env;
};

const char* kCredentials =
    "# written by aws configure\n"
    "[default]\n"
    "aws_access_key_id = AKIDDEFAULT\n"
    "aws_secret_access_key = default/secret+key\n"
    "\n"
    "[dev]\n"
    "aws_access_key_id=AKIDDEV\n"
    "aws_secret_access_key=dev-secret ; not a comment in a value\n"
    "aws_session_token = TOKEN\n";

const char* kConfig =
    "[default]\n"
    "region = eu-west-1\n"
    "[profile dev]\n"
    "region = eu-central-1\n"
    "s3 =\n"
    "  endpoint_url = http://127.0.0.1:9000\n"
    "  addressing_style = path\n"
    "output = json\n"
    "[profile sso]\n"
    "sso_session = corp\n"
    "[profile halfkey]\n"
    "aws_access_key_id = AKIDHALF\n";

TEST(AwsConfig, SectionsKeepTheirKeysAndNestedServiceSettings) {
  auto dev = aws::ini_section(kConfig, "profile dev");
  ASSERT_TRUE(dev.has_value());
  EXPECT_EQ((*dev)["region"], "eu-central-1");
  EXPECT_EQ((*dev)["s3.endpoint_url"], "http://127.0.0.1:9000");
  EXPECT_EQ((*dev)["s3.addressing_style"], "path");
  EXPECT_EQ((*dev)["output"], "json");  // after the nested lines, a top-level key again
  EXPECT_FALSE(aws::ini_section(kConfig, "dev").has_value());  // the config file says "profile dev"
  EXPECT_FALSE(aws::ini_section("", "default").has_value());
}

TEST(AwsConfig, TheDefaultProfileOrAwsProfileIsRead) {
  SharedFiles files;
  files.write("credentials", kCredentials);
  files.write("config", kConfig);
  aws::Profile profile = aws::read_profile("");
  EXPECT_EQ(profile.name, "default");
  EXPECT_EQ(aws::profile_setting(profile, "region"), "eu-west-1");
  std::optional<aws::StaticCredentials> keys = aws::profile_credentials(profile);
  ASSERT_TRUE(keys.has_value());
  EXPECT_EQ(keys->access_key_id, "AKIDDEFAULT");
  EXPECT_EQ(keys->secret_access_key, "default/secret+key");

  files.env.set("AWS_PROFILE", "dev");
  profile = aws::read_profile("");
  EXPECT_EQ(profile.name, "dev");
  EXPECT_EQ(aws::profile_setting(profile, "s3.endpoint_url"), "http://127.0.0.1:9000");
  keys = aws::profile_credentials(profile);
  ASSERT_TRUE(keys.has_value());
  EXPECT_EQ(keys->secret_access_key, "dev-secret ; not a comment in a value");
  EXPECT_EQ(keys->session_token, "TOKEN");
  // A profile named in the call wins over AWS_PROFILE.
  EXPECT_EQ(aws::read_profile("default").name, "default");
}

TEST(AwsConfig, OtherPathsComeFromTheirVariables) {
  SharedFiles files;
  std::ofstream(files.dir / "creds") << "[x]\naws_access_key_id = K\naws_secret_access_key = S\n";
  files.env.set("AWS_SHARED_CREDENTIALS_FILE", files.dir / "creds");
  files.env.set("AWS_CONFIG_FILE", files.dir / "absent");
  aws::Profile profile = aws::read_profile("x");
  EXPECT_EQ(profile.credentials_path, files.dir / "creds");
  EXPECT_EQ(aws::profile_credentials(profile)->access_key_id, "K");
}

TEST(AwsConfig, NoFilesMeanNoCredentialsUnlessAProfileIsNamed) {
  SharedFiles files;
  aws::Profile profile = aws::read_profile("");
  EXPECT_FALSE(profile.found());
  EXPECT_FALSE(aws::profile_credentials(profile).has_value());
  files.env.set("AWS_PROFILE", "nowhere");
  const Caught caught = catch_error([] { aws::read_profile(""); });
  EXPECT_EQ(caught.code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_NE(caught.message.find("AWS profile 'nowhere' is in neither"), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find(files.dir / ".aws/credentials"), std::string::npos) << caught.message;
}

TEST(AwsConfig, ProfilesLibzarrCannotUseAreRefusedByNameWithoutValues) {
  SharedFiles files;
  files.write("config", kConfig);
  Caught caught = catch_error([] { aws::profile_credentials(aws::read_profile("sso")); });
  EXPECT_EQ(caught.code, ZARR_ERR_UNSUPPORTED);
  EXPECT_NE(caught.message.find("'sso_session'"), std::string::npos) << caught.message;
  caught = catch_error([] { aws::profile_credentials(aws::read_profile("halfkey")); });
  EXPECT_EQ(caught.code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_NE(caught.message.find("go together"), std::string::npos) << caught.message;
  EXPECT_EQ(caught.message.find("AKIDHALF"), std::string::npos) << caught.message;
}

TEST(AwsConfig, AFileOverOneMebibyteIsRefused) {
  SharedFiles files;
  files.write("credentials", "[default]\n" + std::string(1 << 20, '#'));
  const Caught caught = catch_error([] { aws::read_profile(""); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("over the 1 MiB"), std::string::npos) << caught.message;
}

}  // namespace
}  // namespace zarr
