#include "stores/aws_config.h"

#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "base/error.h"

namespace zarr::aws {

namespace {

// Larger than any credentials or config file people write; a bound on what a
// stray path (a device, a huge file) makes the library read.
constexpr std::streamoff kMaxFileBytes = 1 << 20;

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

bool is_comment_or_blank(const std::string& line) {
  const std::string t = trimmed(line);
  return t.empty() || t[0] == '#' || t[0] == ';';
}

const char* getenv_nonempty(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

std::string home_directory() {
  if (const char* home = getenv_nonempty("HOME")) return home;
  std::vector<char> buffer(16384);
  passwd entry{};
  passwd* found = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_dir) {
    return found->pw_dir;
  }
  return "";
}

// The file of `variable`, else ~/.aws/NAME ("" when there is no home).
std::string shared_file_path(const char* variable, const char* name) {
  if (const char* path = getenv_nonempty(variable)) return path;
  const std::string home = home_directory();
  return home.empty() ? "" : home + "/.aws/" + name;
}

// The file's text; std::nullopt when it does not exist.
std::optional<std::string> read_small_file(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno == ENOENT) return std::nullopt;
    fail(ZARR_ERR_IO, "AWS shared file '" + path + "': cannot read it: " + std::strerror(errno));
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size > kMaxFileBytes) {
    fail(ZARR_ERR_IO, "AWS shared file '" + path + "' is " + std::to_string(size) + " bytes: over the 1 MiB " +
                          "libzarr reads of a credentials or config file");
  }
  in.seekg(0);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The name of the section a "[...]" line opens, or std::nullopt.
std::optional<std::string> section_header(const std::string& line) {
  const std::string t = trimmed(line);
  if (t.size() < 2 || t.front() != '[') return std::nullopt;
  const size_t close = t.find(']');
  if (close == std::string::npos) return std::nullopt;
  return trimmed(t.substr(1, close - 1));
}

}  // namespace

std::optional<std::map<std::string, std::string>> ini_section(const std::string& text, const std::string& section) {
  std::optional<std::map<std::string, std::string>> out;
  bool inside = false;
  std::string parent;  // "s3" while reading the indented lines after "s3 ="
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (is_comment_or_blank(line)) continue;
    if (std::optional<std::string> name = section_header(line)) {
      inside = *name == section;
      if (inside && !out) out.emplace();
      parent.clear();
      continue;
    }
    const size_t equals = line.find('=');
    if (!inside || equals == std::string::npos) continue;
    const bool indented = line[0] == ' ' || line[0] == '\t';
    const std::string key = trimmed(line.substr(0, equals));
    const std::string value = trimmed(line.substr(equals + 1));
    if (indented && !parent.empty()) {
      (*out)[parent + "." + key] = value;
      continue;
    }
    parent = value.empty() ? key : "";
    (*out)[key] = value;
  }
  return out;
}

Profile read_profile(const std::string& name) {
  Profile profile;
  profile.named = !name.empty() || getenv_nonempty("AWS_PROFILE");
  profile.name = !name.empty() ? name : profile.named ? getenv_nonempty("AWS_PROFILE") : "default";
  const std::string credentials_path = shared_file_path("AWS_SHARED_CREDENTIALS_FILE", "credentials");
  const std::string config_path = shared_file_path("AWS_CONFIG_FILE", "config");
  if (std::optional<std::string> text = read_small_file(credentials_path)) {
    if (auto section = ini_section(*text, profile.name)) {
      profile.credentials = std::move(*section);
      profile.credentials_path = credentials_path;
    }
  }
  if (std::optional<std::string> text = read_small_file(config_path)) {
    const std::string section = profile.name == "default" ? "default" : "profile " + profile.name;
    if (auto found = ini_section(*text, section)) {
      profile.config = std::move(*found);
      profile.config_path = config_path;
    }
  }
  if (profile.named && !profile.found()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "AWS profile '" + profile.name + "' is in neither '" + credentials_path +
                                        "' nor '" + config_path + "'");
  }
  return profile;
}

namespace {

std::optional<StaticCredentials> credentials_of(const std::map<std::string, std::string>& section,
                                                const Profile& profile, const std::string& path) {
  const auto get = [&](const char* key) {
    auto it = section.find(key);
    return it == section.end() ? std::string() : it->second;
  };
  const std::string where = "AWS profile '" + profile.name + "' in '" + path + "'";
  StaticCredentials out{get("aws_access_key_id"), get("aws_secret_access_key"), get("aws_session_token")};
  if (out.access_key_id.empty() && out.secret_access_key.empty()) {
    for (const char* other : {"sso_session", "sso_start_url", "role_arn", "credential_process",
                              "web_identity_token_file", "source_profile"}) {
      if (section.count(other)) {
        fail(ZARR_ERR_UNSUPPORTED, where + " gets its credentials through '" + other + "', which libzarr does not " +
                                       "do: export them (aws configure export-credentials --format env)");
      }
    }
    return std::nullopt;
  }
  if (out.access_key_id.empty() || out.secret_access_key.empty()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + ": aws_access_key_id and aws_secret_access_key go together");
  }
  return out;
}

}  // namespace

std::optional<StaticCredentials> profile_credentials(const Profile& profile) {
  if (!profile.credentials.empty()) {
    if (auto found = credentials_of(profile.credentials, profile, profile.credentials_path)) return found;
  }
  return credentials_of(profile.config, profile, profile.config_path);
}

std::string profile_setting(const Profile& profile, const std::string& key) {
  auto it = profile.config.find(key);
  return it == profile.config.end() ? "" : it->second;
}

}  // namespace zarr::aws
