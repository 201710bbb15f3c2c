#include <algorithm>
#include <cstring>
#include <mutex>

#include "base/error.h"
#include "stores/key_rules.h"
#include "stores/store.h"

namespace zarr {

// ---- the defaults of Store's optional methods, built on the required ones ----

std::optional<uint64_t> Store::value_size(const std::string& key) const {
  constexpr uint64_t kPiece = uint64_t{16} << 20;
  for (uint64_t size = 0;;) {
    std::optional<Bytes> piece = get_range(key, ByteRange{size, kPiece, std::nullopt});
    if (!piece) return size == 0 ? std::nullopt : std::optional<uint64_t>(size);  // gone meanwhile: what was there
    size += piece->size();
    if (piece->size() < kPiece) return size;
  }
}

void Store::get_each(const std::vector<std::string>& keys, uint64_t max_size, const ValueArrived& arrived) const {
  for (size_t i = 0; i < keys.size(); ++i) arrived(i, get(keys[i], max_size));
}

std::vector<std::optional<Bytes>> Store::get_many(const std::vector<std::string>& keys, uint64_t max_size) const {
  std::vector<std::optional<Bytes>> values(keys.size());
  get_each(keys, max_size, [&](size_t i, std::optional<Bytes> value) { values[i] = std::move(value); });
  return values;
}

std::optional<size_t> Store::get_into(const std::string& key, uint64_t max_size,
                                      const Destination& destination) const {
  std::optional<Bytes> value = get(key, max_size);
  if (!value) return std::nullopt;
  if (!value->empty()) std::memcpy(destination(value->size()), value->data(), value->size());
  return value->size();
}

std::optional<size_t> Store::get_scattered(const std::string& key, size_t expected_size,
                                           const std::vector<Piece>& pieces) const {
  std::optional<Bytes> value = get(key, expected_size);
  if (!value) return std::nullopt;
  if (value->size() == expected_size) copy_pieces(value->data(), pieces);
  return value->size();
}

std::optional<size_t> Store::get_in_pieces(const std::string& key, size_t expected_size, uint8_t* /*buffer*/,
                                           size_t piece_size, const PieceArrived& arrived) const {
  std::optional<Bytes> value = get(key, expected_size);
  if (!value) return std::nullopt;
  if (value->size() == expected_size) {
    for (size_t offset = 0; offset < value->size(); offset += piece_size) {
      arrived(value->data() + offset, offset, std::min(piece_size, value->size() - offset));
    }
  }
  return value->size();
}

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
