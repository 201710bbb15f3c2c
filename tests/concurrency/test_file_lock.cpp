// FileLock (concurrency/file_lock.h): the flock a writer process holds on a
// chunk's lock file while it reads, modifies and writes the chunk.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include <gtest/gtest.h>

#include "base/error.h"
#include "concurrency/file_lock.h"
#include "support/test_support.h"

using namespace zarr;
using zarr::test::TempDir;

namespace {

// Whether another open file description could take the lock now.
bool lock_is_free(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR);
  if (fd < 0) return true;
  const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::close(fd);
  return free;
}

TEST(FileLock, CreatesFoldersAndHoldsTheLockUntilDestroyed) {
  TempDir dir;
  const std::string path = dir / "locks/arr/c/0/1.lock";
  {
    FileLock held(dir / "locks", "arr/c/0/1.lock");
    EXPECT_TRUE(std::filesystem::exists(path));
    EXPECT_FALSE(lock_is_free(path));  // even within this process: flock is per open file description
  }
  EXPECT_TRUE(lock_is_free(path));
  std::optional<FileLock> again(std::in_place, dir / "locks", "arr/c/0/1.lock");  // an existing lock file is reused
  EXPECT_FALSE(lock_is_free(path));
}

TEST(FileLock, FolderThatCannotBeCreatedIsAnIoErrorNamingTheLockFile) {
  TempDir dir;
  zarr::test::write_file(dir / "plain", ByteView(std::string("x")));
  const std::string path = dir / "plain/sub/0.lock";
  zarr::test::Caught caught = zarr::test::catch_error([&] { FileLock held(dir / "plain", "sub/0.lock"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find(path), std::string::npos) << caught.message;
}

}  // namespace
