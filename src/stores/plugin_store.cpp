#include "stores/plugin_store.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "base/plugin_output.h"
#include "base/text.h"
#include "stores/key_rules.h"
#include "stores/sorted_keys.h"

namespace zarr {

namespace {

// The version 1 vtable's size: the least a program may hand in. It ends at
// `close`, version 1's last field (see plugin_codec.cpp for why not sizeof).
constexpr size_t kVtableV1Size = offsetof(zarr_store_vtable, close) + sizeof(zarr_store_vtable::close);

// The vtable and scheme, copied so the program's may go away.
struct StoreVtable {
  zarr_store_vtable table{};
  std::string scheme;
};

class PluginStore final : public Store {
 public:
  PluginStore(std::shared_ptr<const StoreVtable> vt, void* handle, std::string name, bool writable)
      : vt_(std::move(vt)), handle_(handle), where_(vt_->scheme + "://" + name),
        writable_(writable && vt_->table.set && vt_->table.erase) {}
  ~PluginStore() override { vt_->table.close(handle_); }
  PluginStore(const PluginStore&) = delete;
  PluginStore& operator=(const PluginStore&) = delete;

  // A whole value is asked for as its first max_size + 1 bytes: one byte
  // more than the limit tells a value over it, and the plugin never hands
  // over more than that.
  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    ByteRange first;
    first.length = max_size < ZARR_STORE_TO_END - 1 ? max_size + 1 : ZARR_STORE_TO_END;
    std::optional<Bytes> value = read(key, first);
    if (value) check_value_size(describe(), key, value->size(), max_size);
    return value;
  }

  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    if (range.length || range.suffix) return read(key, range);
    // Open at the end: held to the store's limit, as a whole value is.
    ByteRange bounded = range;
    bounded.length = value_limit() < ZARR_STORE_TO_END - 1 ? value_limit() + 1 : ZARR_STORE_TO_END;
    std::optional<Bytes> value = read(key, bounded);
    if (value) check_value_size(describe(), key, value->size(), value_limit());
    return value;
  }

  bool exists(const std::string& key) const override { return get_range(key, ByteRange{0, 0, std::nullopt}).has_value(); }

  void set(const std::string& key, ByteView value) override {
    keys::check_key(key);
    if (!writable_) keys::fail_read_only(describe(), "set", key);
    PluginOutput output;
    call("set", key, output, [&](const zarr_store_output* out) {
      return vt_->table.set(handle_, key.c_str(), value.data, value.size, out);
    });
  }

  void erase(const std::string& key) override {
    keys::check_key(key);
    if (!writable_) keys::fail_read_only(describe(), "erase", key);
    PluginOutput output;
    call("erase", key, output, [&](const zarr_store_output* out) { return vt_->table.erase(handle_, key.c_str(), out); });
  }

  void erase_prefix(const std::string& prefix) override {
    keys::check_prefix(prefix);
    if (!writable_) keys::fail_read_only(describe(), "erase prefix", prefix);
    if (vt_->table.erase_prefix) {
      PluginOutput output;
      call("erase_prefix", prefix, output, [&](const zarr_store_output* out) {
        return vt_->table.erase_prefix(handle_, prefix.c_str(), out);
      });
      return;
    }
    for (const std::string& key : list_prefix(prefix)) erase(key);
  }

  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    keys::check_prefix(prefix);
    if (!listable()) {
      fail(ZARR_ERR_UNSUPPORTED, "cannot list '" + prefix + "' in " + describe() +
                                     ": the store has no list callback. Open the hierarchy through consolidated "
                                     "metadata, or open its arrays by path");
    }
    PluginOutput output;
    call("list", prefix, output, [&](const zarr_store_output* out) { return vt_->table.list(handle_, prefix.c_str(), out); });
    // The store may list in any order, repeat keys, or hold keys libzarr
    // could not have written: keep the valid keys under the prefix, sorted.
    std::vector<std::string> found;
    for (std::string& key : output.keys) {
      if (starts_with(key, prefix) && keys::is_valid_key(key)) found.push_back(std::move(key));
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return found;
  }

  DirListing list_dir(const std::string& prefix) const override {
    const std::string dir = keys::dir_prefix(prefix);
    std::map<std::string, bool> under;  // sorted_keys works on maps
    for (std::string& key : list_prefix(dir)) under.emplace(std::move(key), true);
    return sorted_keys::list_dir(under, dir);
  }

  void flush() override {
    if (!vt_->table.flush) return;
    PluginOutput output;
    call("flush", "", output, [&](const zarr_store_output* out) { return vt_->table.flush(handle_, out); });
  }

  bool writable() const override { return writable_; }
  bool listable() const override { return vt_->table.list != nullptr; }
  std::string describe() const override { return where_; }

 private:
  // The plugin's get: never more bytes than the range asks for.
  std::optional<Bytes> read(const std::string& key, const ByteRange& range) const {
    keys::check_key(key);
    const bool from_end = range.suffix.has_value();
    const uint64_t offset = from_end ? 0 : range.offset;
    const uint64_t length = from_end ? *range.suffix : range.length.value_or(ZARR_STORE_TO_END);
    PluginOutput output;
    if (length != ZARR_STORE_TO_END) output.limit = static_cast<size_t>(std::min<uint64_t>(length, SIZE_MAX));
    const int status = call("get", key, output, [&](const zarr_store_output* out) {
      return vt_->table.get(handle_, key.c_str(), offset, length, from_end ? 1 : 0, out);
    });
    if (status == ZARR_ERR_NOT_FOUND) return std::nullopt;
    return std::move(output.bytes);
  }

  // Run one callback; throw its failure (ZARR_ERR_NOT_FOUND is handed back:
  // only get gives it meaning, every other callback treats it as success).
  template <typename Call>
  int call(const char* operation, const std::string& key, PluginOutput& output, Call callback) const {
    const zarr_store_output out{&output, &PluginOutput::allocate, &PluginOutput::add_key, &PluginOutput::set_error};
    const int status = callback(&out);
    const std::string target = key.empty() ? "" : " " + keys::quote(key);
    // A store that answers more than was asked would put wrong bytes in a
    // shard's inner chunk, or hand over more than the read's limit: refuse
    // it rather than trust it (the memory was never allocated).
    if (output.over_limit) {
      fail(ZARR_ERR_IO, "store '" + where_ + "': " + operation + target + " answered with " +
                            std::to_string(output.refused_bytes) + " bytes for a range of at most " +
                            std::to_string(output.limit));
    }
    if (output.out_of_memory) {
      fail(ZARR_ERR_NO_MEMORY, "store '" + where_ + "': " + operation + target + ": " + output.out_of_memory_text());
    }
    if (status == ZARR_OK || status == ZARR_ERR_NOT_FOUND) return status;
    const std::string why = output.error.empty() ? "failed" : "failed: " + output.error;
    fail(plugin_status(status, ZARR_ERR_IO), "store '" + where_ + "': " + operation + target + " " + why +
                                                 " (status " + std::to_string(status) + ")");
  }

  std::shared_ptr<const StoreVtable> vt_;
  void* handle_;
  std::string where_;
  bool writable_;
};

std::mutex registry_mutex;
std::map<std::string, std::shared_ptr<const StoreVtable>>& registry() {
  static std::map<std::string, std::shared_ptr<const StoreVtable>> stores;
  return stores;
}

std::shared_ptr<const StoreVtable> find(const std::string& scheme) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto it = registry().find(scheme);
  return it == registry().end() ? nullptr : it->second;
}

bool valid_scheme(const std::string& s) {
  if (s.empty() || s.size() > 32 || s[0] < 'a' || s[0] > 'z') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
  });
}

void check_vtable(const zarr_store_vtable* vt, const std::vector<std::string>& reserved) {
  if (!vt) fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_store_register: argument 'vtable' is NULL");
  if (vt->struct_size < kVtableV1Size) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_store_register: field 'struct_size' is " + std::to_string(vt->struct_size) +
                                        ", less than the " + std::to_string(kVtableV1Size) + " bytes of ABI version 1");
  }
  if (vt->abi_version < 1 || vt->abi_version > ZARR_PLUGIN_ABI_VERSION) {
    fail(ZARR_ERR_UNSUPPORTED, "zarr_store_register: field 'abi_version' is " + std::to_string(vt->abi_version) +
                                   "; this libzarr knows versions 1 to " + std::to_string(ZARR_PLUGIN_ABI_VERSION));
  }
  const std::string scheme = vt->scheme ? vt->scheme : "";
  if (!valid_scheme(scheme)) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_store_register: field 'scheme' must be 1 to 32 lower-case letters, digits, "
                                    "'+', '-' or '.' starting with a letter, got " +
                                        (vt->scheme ? json::quote(scheme) : std::string("NULL")));
  }
  if (std::find(reserved.begin(), reserved.end(), scheme) != reserved.end()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_store_register: scheme '" + scheme + "' is built into libzarr");
  }
  const std::pair<const char*, bool> required[] = {
      {"open", vt->open != nullptr}, {"get", vt->get != nullptr}, {"close", vt->close != nullptr}};
  for (const auto& [field, present] : required) {
    if (!present) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_store_register: store '" + scheme + "': field '" + field + "' is NULL");
    }
  }
}

// The options the plugin parses: all but libzarr's own ("max_value_bytes").
std::string plugin_options_json(const StoreRequest& request) {
  if (!request.options) return "{}";
  rapidjson::Document own;
  own.CopyFrom(*request.options, own.GetAllocator());
  own.RemoveMember(StoreRequest::kMaxValueBytes);
  return json::to_string(own);
}

}  // namespace

void register_plugin_store(const zarr_store_vtable* vtable, const std::vector<std::string>& reserved) {
  check_vtable(vtable, reserved);
  auto vt = std::make_shared<StoreVtable>();
  // Only the fields the program's struct covers; later fields stay NULL.
  std::memcpy(&vt->table, vtable, std::min<size_t>(vtable->struct_size, sizeof vt->table));
  vt->scheme = vtable->scheme;
  vt->table.scheme = vt->scheme.c_str();
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry()[vt->scheme] = std::move(vt);
}

std::vector<std::string> plugin_store_schemes() {
  std::lock_guard<std::mutex> lock(registry_mutex);
  std::vector<std::string> schemes;
  for (const auto& entry : registry()) schemes.push_back(entry.first);
  return schemes;
}

bool plugin_store_registered(const std::string& scheme) { return find(scheme) != nullptr; }

NodeLocation open_plugin_store(const StoreRequest& request) {
  std::shared_ptr<const StoreVtable> vt = find(request.scheme);
  if (!vt) request.fail_url("no store is registered under the scheme '" + request.scheme + "'");
  const std::string& rest = request.location;
  if (rest.empty() || rest[0] == '/') {
    request.fail_url(request.scheme + " URLs need a store name (" + request.scheme + "://NAME[/path])");
  }
  const size_t slash = rest.find('/');
  const std::string name = rest.substr(0, slash);
  const std::string node = path::normalize(slash == std::string::npos ? "" : rest.substr(slash + 1));
  const std::string options = plugin_options_json(request);

  PluginOutput output;
  const zarr_store_output out{&output, &PluginOutput::allocate, &PluginOutput::add_key, &PluginOutput::set_error};
  void* handle = nullptr;
  const int status = vt->table.open(vt->table.user_data, name.c_str(), options.c_str(), request.writes() ? 1 : 0,
                                    &handle, &out);
  if (output.out_of_memory) {
    if (status == ZARR_OK && handle) vt->table.close(handle);  // opened, then ran out
    fail(ZARR_ERR_NO_MEMORY, request.shown("store '" + request.scheme + "://" + name + "': open: " +
                                           output.out_of_memory_text()));
  }
  if (status != ZARR_OK || !handle) {
    const std::string why = output.error.empty() ? "its open callback failed" : output.error;
    fail(plugin_status(status, ZARR_ERR_IO), request.shown("store '" + request.scheme + "://" + name + "': " + why +
                                                           " (status " + std::to_string(status) + ")"));
  }
  try {
    return {std::make_shared<PluginStore>(vt, handle, name, request.writes()), node};
  } catch (...) {
    vt->table.close(handle);  // the store owns the handle only once made
    throw;
  }
}

}  // namespace zarr
