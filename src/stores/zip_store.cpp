// Opening zip archives: a reader for an existing archive, a writer for a new
// one, and one shared writer per archive while it is open, so that every
// handle writing into an archive adds to the same one (as memory:// names do).
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <map>
#include <mutex>

#include "base/error.h"
#include "stores/key_rules.h"
#include "stores/zip_store_internal.h"

namespace zarr {
namespace {

// The archive's absolute path with symlinks resolved as far as it exists:
// two spellings of one archive share one writer.
std::string identity_of(const std::string& archive) {
  std::error_code ec;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(archive, ec), ec);
  return ec ? archive : canonical.string();
}

// Writers alive, by archive identity. Entries are weak so that a writer goes
// (and writes its archive) when its last user does; expired ones are swept
// on the next open.
struct WriterRegistry {
  std::mutex mutex;
  std::map<std::string, std::weak_ptr<Store>> by_archive;
};

WriterRegistry& writers() {
  static WriterRegistry instance;
  return instance;
}

void check_archive_path(const std::string& archive) {
  if (archive.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "zip archive path must not be empty");
  if (archive.find('\0') != std::string::npos) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zip archive path " + keys::quote(archive) + " contains a NUL byte");
  }
}

}  // namespace

std::shared_ptr<Store> open_zip_store(const std::string& archive, bool writable, const ZipStoreOptions& options) {
  check_archive_path(archive);
  if (options.deflate_level < 0 || options.deflate_level > 9) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zip deflate level must be 0 to 9, got " + std::to_string(options.deflate_level));
  }
  WriterRegistry& registry = writers();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (auto it = registry.by_archive.begin(); it != registry.by_archive.end();) {
    it = it->second.expired() ? registry.by_archive.erase(it) : std::next(it);
  }
  const std::string identity = identity_of(archive);
  auto live = registry.by_archive.find(identity);
  if (live != registry.by_archive.end()) {
    if (std::shared_ptr<Store> store = live->second.lock()) return store;
  }
  if (!writable) return zip::make_reader(archive);
  struct stat st;
  if (::stat(archive.c_str(), &st) == 0) {
    fail(ZARR_ERR_READ_ONLY, "zip archive " + keys::quote(archive) +
                                 " already exists and zip entries cannot be updated in place: open it "
                                 "read-only (mode \"r\"), or write a new archive");
  }
  if (errno != ENOENT) {
    fail(ZARR_ERR_IO, "cannot inspect " + keys::quote(archive) + ": " + std::system_category().message(errno));
  }
  std::shared_ptr<Store> store = zip::make_writer(archive, options);
  registry.by_archive[identity] = store;
  return store;
}

}  // namespace zarr
