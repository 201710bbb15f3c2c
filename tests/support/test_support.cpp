#include "support/test_support.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "base/error.h"

namespace fs = std::filesystem;

namespace zarr::test {

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "libzarr-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string peer_data_expected_location() {
  return (fs::path(ZARR_SOURCE_ROOT) / ".." / "shared" / "peer-data").lexically_normal().string();
}

std::string peer_data_dir() {
  std::string dir = peer_data_expected_location();
  return fs::is_directory(dir) ? dir : std::string();
}

Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, ByteView data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out.write(reinterpret_cast<const char*>(data.data), static_cast<std::streamsize>(data.size));
}

bool file_exists(const std::string& path) { return fs::exists(path); }

void make_dag_of_links(const std::string& dir, int levels) {
  for (int level = 0; level <= levels; ++level) fs::create_directories(dir + "/l" + std::to_string(level));
  for (int level = 0; level < levels; ++level) {
    const std::string from = dir + "/l" + std::to_string(level), to = "../l" + std::to_string(level + 1);
    fs::create_directory_symlink(to, from + "/a");
    fs::create_directory_symlink(to, from + "/b");
  }
}

Caught catch_error(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {};
}

void EnvironmentGuard::set(const char* name, const std::string& value) {
  save(name);
  setenv(name, value.c_str(), 1);
}

void EnvironmentGuard::unset(const char* name) {
  save(name);
  unsetenv(name);
}

EnvironmentGuard::~EnvironmentGuard() {
  for (const auto& [name, value] : saved_) {
    if (value) setenv(name.c_str(), value->c_str(), 1); else unsetenv(name.c_str());
  }
}

void EnvironmentGuard::save(const char* name) {
  if (saved_.count(name)) return;
  const char* value = std::getenv(name);
  saved_[name] = value ? std::optional<std::string>(value) : std::nullopt;
}

VlenItems::VlenItems(const std::vector<std::string>& items) {
  for (const std::string& item : items) {
    data += item;
    offsets.push_back(data.size());
  }
}

std::vector<std::string> vlen_strings(const std::string& prefix, size_t first, size_t n) {
  std::vector<std::string> out;
  for (size_t k = first; k < first + n; ++k) {
    std::string text = k % 4 == 0 ? "" : prefix + std::to_string(k);
    for (size_t i = 0; k % 4 != 0 && i < k % 3; ++i) text += "\xc3\xa9";  // U+00E9
    out.push_back(text);
  }
  return out;
}

}  // namespace zarr::test
