// What the URL resolver (stores/url.cpp) hands the factory of a URL scheme, and
// what the factory gives back: a store and the node's path inside it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>

#include <rapidjson/document.h>

#include "stores/store.h"

namespace zarr {

// How the caller will use the node: open "r", open "r+", or create it.
// kErase: writable like kReadWrite, but a filesystem URL resolves to the
// node's parent folder, so that erasing the node removes its own folder too.
enum class StoreAccess { kRead, kReadWrite, kCreate, kErase };

struct NodeLocation {
  std::shared_ptr<Store> store;
  std::string path;  // normalised node path inside the store ("" for its root)
};

struct StoreRequest {
  std::string url;       // the URL as the caller gave it, for error messages
  std::string scheme;    // "file" (also for plain paths), "memory", "http", "https", "s3"
  std::string location;  // what follows "scheme://" ("bucket/prefix", "host:port/path");
                         // for "file", the path with percent escapes decoded
  StoreAccess access = StoreAccess::kRead;
  // The "store" member of the options JSON (docs/stores.md), an object; null
  // when the caller gave none.
  const rapidjson::Value* options = nullptr;

  bool writes() const { return access != StoreAccess::kRead; }

  // Store options, checked: each error is ZARR_ERR_INVALID_ARGUMENT naming
  // the option ("store.region") and the URL. `store_kind` names the store
  // in messages ("s3", "zip").
  void allow_only(const char* store_kind, std::initializer_list<const char*> known) const;
  std::optional<bool> bool_option(const char* name) const;
  std::optional<std::string> string_option(const char* name) const;
  std::optional<int64_t> int_option(const char* name, int64_t min, int64_t max) const;

  // ZARR_ERR_INVALID_ARGUMENT "URL '<url>': <why>" (shown()).
  [[noreturn]] void fail_url(const std::string& why) const;
  // "URL '<url>': <message>" with the URL scrubbed from its parts
  // (scrubbed_url) and its userinfo and query hidden wherever the message
  // repeats them (url_secrets): base/scrub.h.
  std::string shown(const std::string& message) const;

  // "max_value_bytes": an option of every store, libzarr's own (allow_only
  // accepts it whatever the store; plugin stores never see it).
  static constexpr const char* kMaxValueBytes = "max_value_bytes";
  // Its value, checked (1 to 2^63 - 1 bytes); nullopt when absent. The URL
  // resolver hands it to the store (Store::set_value_limit).
  std::optional<uint64_t> value_limit_option() const;
};

}  // namespace zarr
