#include "stores/store_request.h"

#include "base/error.h"
#include "base/json.h"
#include "base/scrub.h"

namespace zarr {

namespace {

std::string option_name(const char* name) { return std::string("store option '") + name + "'"; }

}  // namespace

void StoreRequest::fail_url(const std::string& why) const {
  fail(ZARR_ERR_INVALID_ARGUMENT, shown(why));
}

std::string StoreRequest::shown(const std::string& message) const {
  return scrub_secrets("URL '" + scrubbed_url(url) + "': " + message, url_secrets(url));
}

void StoreRequest::allow_only(const char* store_kind, std::initializer_list<const char*> known) const {
  if (!options) return;
  for (auto it = options->MemberBegin(); it != options->MemberEnd(); ++it) {
    const std::string name = json::text(it->name);
    bool is_known = name == kMaxValueBytes;
    for (const char* k : known) is_known = is_known || name == k;
    if (is_known) continue;
    std::string list;
    for (const char* k : known) list += std::string(k) + ", ";
    fail(ZARR_ERR_INVALID_ARGUMENT, scrub_secrets("options: " + option_name(name.c_str()) +
                                                  " is not an option of the " + store_kind + " store (URL '" +
                                                  scrubbed_url(url) + "'; its options: " + list + kMaxValueBytes + ")",
                                                  url_secrets(url)));
  }
}

std::optional<bool> StoreRequest::bool_option(const char* name) const {
  if (!options || !options->HasMember(name)) return std::nullopt;
  const rapidjson::Value& v = (*options)[name];
  if (!v.IsBool()) fail(ZARR_ERR_INVALID_ARGUMENT, "options: " + option_name(name) + " must be true or false");
  return v.GetBool();
}

std::optional<std::string> StoreRequest::string_option(const char* name) const {
  if (!options || !options->HasMember(name)) return std::nullopt;
  const rapidjson::Value& v = (*options)[name];
  if (!v.IsString()) fail(ZARR_ERR_INVALID_ARGUMENT, "options: " + option_name(name) + " must be a string");
  return json::nul_free_text(v, "options: " + option_name(name));
}

std::optional<int64_t> StoreRequest::int_option(const char* name, int64_t min, int64_t max) const {
  if (!options || !options->HasMember(name)) return std::nullopt;
  const rapidjson::Value& v = (*options)[name];
  if (!v.IsInt64() || v.GetInt64() < min || v.GetInt64() > max) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "options: " + option_name(name) + " must be an integer from " +
                                        std::to_string(min) + " to " + std::to_string(max));
  }
  return v.GetInt64();
}

std::optional<uint64_t> StoreRequest::value_limit_option() const {
  std::optional<int64_t> limit = int_option(kMaxValueBytes, 1, INT64_MAX);
  if (!limit) return std::nullopt;
  return static_cast<uint64_t>(*limit);
}

}  // namespace zarr
