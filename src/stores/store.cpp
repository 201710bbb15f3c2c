#include <mutex>

#include "base/error.h"
#include "stores/key_rules.h"
#include "stores/store.h"

namespace zarr {

void fail_too_large(const std::string& where, const std::string& key, uint64_t limit, std::optional<uint64_t> size) {
  const std::string held = size ? std::to_string(*size) + " bytes" : "more";
  fail(ZARR_ERR_IO, "value " + keys::quote(key) + " in " + where + " is larger than its limit of " +
                        std::to_string(limit) + " bytes (it holds " + held +
                        "); a chunk's limit is what its array's metadata allows, that of other values the store "
                        "option \"max_value_bytes\" (docs/stores.md)");
}

void check_value_size(const std::string& where, const std::string& key, uint64_t size, uint64_t limit) {
  if (size > limit) fail_too_large(where, key, limit, size);
}

uint64_t range_limit(const ByteRange& range, uint64_t open_limit) {
  if (range.suffix) return *range.suffix;
  return range.length ? *range.length : open_limit;
}

void release_store(std::shared_ptr<Store> store) {
  // Two threads closing the last two handles of one store each see the
  // other's reference unless their checks are serialised: then exactly the
  // later one sees a count of 1. The reference is dropped inside the lock
  // (`held` is destroyed before `lock`), flush failing or not.
  static std::mutex last_user_check;
  std::lock_guard<std::mutex> lock(last_user_check);
  std::shared_ptr<Store> held = std::move(store);
  if (held && held.use_count() == 1) held->flush();
}

}  // namespace zarr
