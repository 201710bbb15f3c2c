#include <mutex>

#include "stores/store.h"

namespace zarr {

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
