// The AWS CLI's shared files, ~/.aws/credentials and ~/.aws/config, read as
// the AWS CLI and boto3 read them: the profile of AWS_PROFILE (or "default"),
// `[NAME]` sections in the credentials file and `[profile NAME]` (or
// `[default]`) in the config file, AWS_SHARED_CREDENTIALS_FILE and
// AWS_CONFIG_FILE for other paths. Only static keys, region and endpoint:
// SSO, role assumption and credential_process are refused by name.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace zarr::aws {

// key = value lines of one section of an INI text as the AWS CLI writes it:
// '#' and ';' start comments, names are case-sensitive, values are trimmed,
// indented lines continue a nested setting ("s3 =" then "  addressing_style =
// path") and are kept as "s3.addressing_style". std::nullopt when the section
// is absent.
std::optional<std::map<std::string, std::string>> ini_section(const std::string& text, const std::string& section);

// One profile's settings from both files.
struct Profile {
  std::string name;
  bool named = false;  // from the "profile" option or AWS_PROFILE, not the default
  std::map<std::string, std::string> config;       // its section of the config file
  std::map<std::string, std::string> credentials;  // its section of the credentials file
  std::string config_path, credentials_path;       // the files read ("" when absent)
  bool found() const { return !config_path.empty() || !credentials_path.empty(); }
};

// The profile `name` (empty: AWS_PROFILE, else "default") from the shared
// files. A file that does not exist is skipped; one that cannot be read, or
// is over 1 MiB, is ZARR_ERR_IO naming it. A profile named explicitly that
// neither file holds is ZARR_ERR_INVALID_ARGUMENT naming it and the files.
Profile read_profile(const std::string& name);

// The profile's static credentials: aws_access_key_id, aws_secret_access_key
// and aws_session_token, from the credentials file, else from the config file
// (whole from one file). std::nullopt when neither has a key. A key without a
// secret, or a profile that gets its credentials some other way (sso_*,
// role_arn, credential_process, web_identity_token_file), is an error naming
// the profile, the file and the setting, never a value.
struct StaticCredentials {
  std::string access_key_id, secret_access_key, session_token;
};
std::optional<StaticCredentials> profile_credentials(const Profile& profile);

// A setting of the profile's config section ("region", "endpoint_url"), or "".
std::string profile_setting(const Profile& profile, const std::string& key);

}  // namespace zarr::aws
