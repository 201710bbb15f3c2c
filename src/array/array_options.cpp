// Parsing the array options of zarr_open_ex / zarr_create_ex
// (array/array_options.h).
#include "array/array_options.h"

#include "base/error.h"
#include "base/json.h"
#include "concurrency/thread_pool.h"

namespace zarr {

namespace {

// {"total_bytes_limit": N}, as TensorStore's cache_pool; 0 keeps nothing.
uint64_t parse_cache_pool(const rapidjson::Value& value) {
  const char* what = "options: 'cache_pool' must be an object {\"total_bytes_limit\": bytes}";
  if (!value.IsObject()) fail(ZARR_ERR_INVALID_ARGUMENT, what);
  json::check_members(value, {"total_bytes_limit"}, ZARR_ERR_INVALID_ARGUMENT, "options: 'cache_pool'");
  auto limit = value.FindMember("total_bytes_limit");
  if (limit == value.MemberEnd() || !limit->value.IsUint64()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'cache_pool.total_bytes_limit' must be a number of bytes, 0 or more");
  }
  return limit->value.GetUint64();
}

}  // namespace

// {"limit": N} (TensorStore's data_copy_concurrency), {"limit": "shared"} or
// {} (the process-wide count: 0); N from 1 to kMaxThreadCount. `where`
// prefixes the error ("options", "spec").
size_t thread_limit_option(const rapidjson::Value& value, const std::string& where) {
  const std::string what = where + ": 'data_copy_concurrency' must be {\"limit\": threads from 1 to " +
                           std::to_string(kMaxThreadCount) + " or \"shared\"}, got " + json::to_string(value);
  if (!value.IsObject()) fail(ZARR_ERR_INVALID_ARGUMENT, what);
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
    if (json::text(it->name) != "limit") fail(ZARR_ERR_INVALID_ARGUMENT, what);
  }
  const auto limit = value.FindMember("limit");
  if (limit == value.MemberEnd()) return 0;
  if (limit->value.IsString() && json::text(limit->value) == "shared") return 0;
  if (!limit->value.IsUint64() || limit->value.GetUint64() < 1 || limit->value.GetUint64() > kMaxThreadCount) {
    fail(ZARR_ERR_INVALID_ARGUMENT, what);
  }
  return static_cast<size_t>(limit->value.GetUint64());
}

std::string process_lock_dir_option(const rapidjson::Value& value) {
  const bool usable = value.IsString() && value.GetStringLength() > 0;
  if (!usable) fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'process_lock_dir' must be a non-empty folder path string");
  return json::nul_free_text(value, "options: 'process_lock_dir'");
}

ChunkStoreOption chunk_store_option(const rapidjson::Value& value) {
  const char* what = "options: 'chunk_store' must be a URL string or {\"url\": URL, \"store\": {...}}";
  if (value.IsString() && value.GetStringLength() > 0) return {json::nul_free_text(value, "options: 'chunk_store'"), nullptr};
  if (!value.IsObject()) fail(ZARR_ERR_INVALID_ARGUMENT, what);
  ChunkStoreOption option;
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
    const std::string member = json::text(it->name);
    if (member == "url" && it->value.IsString() && it->value.GetStringLength() > 0) {
      option.url = json::nul_free_text(it->value, "options: 'chunk_store.url'");
    } else if (member == "store" && it->value.IsObject()) {
      option.store_options = &it->value;
    } else {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'chunk_store." + member + "' is not a URL string ('url') or an "
                                      "object of store options ('store')");
    }
  }
  if (option.url.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, what);
  return option;
}

ArrayOptions parse_array_options(const rapidjson::Value& options_object) {
  ArrayOptions options;
  for (auto it = options_object.MemberBegin(); it != options_object.MemberEnd(); ++it) {
    std::string name = json::text(it->name);
    if (name == "store") continue;  // the URL's store takes it (stores/url.h)
    if (name == "write_empty_chunks") {
      if (!it->value.IsBool()) fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'write_empty_chunks' must be true or false");
      options.write_empty_chunks = it->value.GetBool();
    } else if (name == "zarr_format") {
      const bool known = it->value.IsInt() && it->value.GetInt() >= 1 && it->value.GetInt() <= 3;
      if (!known) fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'zarr_format' must be 1, 2 or 3");
      options.zarr_format = it->value.GetInt();
    } else if (name == "cache_pool") {
      options.cache_bytes = parse_cache_pool(it->value);
    } else if (name == "data_copy_concurrency") {
      options.thread_limit = thread_limit_option(it->value, "options");
    } else if (name == "chunk_store") {
      options.chunk_store_url = chunk_store_option(it->value).url;
    } else if (name == "process_lock_dir") {
      options.process_lock_dir = process_lock_dir_option(it->value);
    } else {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: " + json::unknown("option", name));
    }
  }
  // Other processes rewrite the chunks of a locked array: a cache would go on
  // serving what they replaced.
  if (options.cache_bytes > 0 && !options.process_lock_dir.empty()) {
    fail(ZARR_ERR_INVALID_ARGUMENT,
         "options: 'cache_pool' and 'process_lock_dir' do not go together (the cache would not see other "
         "processes' writes)");
  }
  return options;
}

}  // namespace zarr
