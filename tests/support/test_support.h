// Helpers shared by every test executable.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/bytes.h"

// Sanitizer allocators stop the process on an allocation far beyond memory
// (ASan, TSan) instead of failing it: tests of what an allocation failure
// leaves behind run in plain builds only.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ZARR_TEST_HUGE_ALLOCATIONS_ABORT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ZARR_TEST_HUGE_ALLOCATIONS_ABORT 1
#endif
#endif

namespace zarr::test {

// A fresh directory removed (recursively) when the object goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  // path() + "/" + name
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// ../shared/peer-data beside the source root, or "" when absent (tests then
// GTEST_SKIP with a message naming the folder they looked for).
std::string peer_data_dir();
// The folder peer_data_dir() looks for, for skip messages.
std::string peer_data_expected_location();

Bytes read_file(const std::string& path);
void write_file(const std::string& path, ByteView data);
bool file_exists(const std::string& path);

// Folders dir/l0 .. dir/l<levels>, each but the last with two symbolic links,
// "a" and "b", to the next: a walk that follows every link takes
// 2^(levels + 1) paths through levels + 1 folders.
void make_dag_of_links(const std::string& dir, int levels);

// What a call threw: the zarr::Error's code and message, or ZARR_OK and ""
// when it returned normally. Tests of error paths compare both.
struct Caught {
  int code = 0;
  std::string message;
};
Caught catch_error(const std::function<void()>& call);

// Sets environment variables for one test and restores them after.
class EnvironmentGuard {
 public:
  void set(const char* name, const std::string& value);
  void unset(const char* name);
  ~EnvironmentGuard();

 private:
  void save(const char* name);
  std::map<std::string, std::optional<std::string>> saved_;
};

// Elements as the C API's _vlen writes take them: offsets and one data buffer.
struct VlenItems {
  std::vector<uint64_t> offsets{0};
  std::string data;
  explicit VlenItems(const std::vector<std::string>& items);
};

// n strings "<prefix><k>" for k from first: every fourth empty, the others
// ending in 0..2 two-byte UTF-8 characters ("é").
std::vector<std::string> vlen_strings(const std::string& prefix, size_t first, size_t n);

}  // namespace zarr::test
