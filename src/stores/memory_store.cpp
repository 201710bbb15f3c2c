// In-process store: an ordered map key -> bytes behind a shared_mutex, shared
// by every handle opened on the same name while any of them is alive.
#include <cstring>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "stores/memory_store.h"

#include "base/error.h"
#include "base/path.h"
#include "stores/key_rules.h"
#include "stores/sorted_keys.h"

namespace zarr {
namespace {

constexpr const char kScheme[] = "memory://";

// The data behind a name. std::map keeps keys in byte order, so listings come
// out sorted and every prefix is one contiguous run of keys.
struct MemoryData {
  mutable std::shared_mutex mutex;
  std::map<std::string, Bytes> values;
};

class MemoryStore final : public Store {
 public:
  MemoryStore(std::shared_ptr<MemoryData> data, std::string name, bool read_only)
      : data_(std::move(data)), name_(std::move(name)), read_only_(read_only) {}

  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    return read(key, ByteRange{}, max_size);
  }

  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    return read(key, range, range_limit(range, value_limit()));
  }

  std::optional<size_t> get_into(const std::string& key, uint64_t max_size,
                                 const Destination& destination) const override {
    keys::check_key(key);
    std::shared_lock lock(data_->mutex);
    auto it = data_->values.find(key);
    if (it == data_->values.end()) return std::nullopt;
    const Bytes& value = it->second;
    check_value_size(describe(), key, value.size(), max_size);
    if (!value.empty()) std::memcpy(destination(value.size()), value.data(), value.size());
    return value.size();
  }

  std::optional<size_t> get_scattered(const std::string& key, size_t expected_size,
                                      const std::vector<Piece>& pieces) const override {
    keys::check_key(key);
    std::shared_lock lock(data_->mutex);
    auto it = data_->values.find(key);
    if (it == data_->values.end()) return std::nullopt;
    check_value_size(describe(), key, it->second.size(), expected_size);
    if (it->second.size() == expected_size) copy_pieces(it->second.data(), pieces);
    return it->second.size();
  }

  bool exists(const std::string& key) const override {
    keys::check_key(key);
    std::shared_lock lock(data_->mutex);
    return data_->values.count(key) != 0;
  }

  std::optional<uint64_t> value_size(const std::string& key) const override {
    keys::check_key(key);
    std::shared_lock lock(data_->mutex);
    auto it = data_->values.find(key);
    if (it == data_->values.end()) return std::nullopt;
    return it->second.size();
  }

  void set(const std::string& key, ByteView value) override {
    keys::check_key(key);
    if (read_only_) keys::fail_read_only(describe(), "set", key);
    Bytes copy = value.to_bytes();  // copied before locking: writers hold the lock briefly
    std::unique_lock lock(data_->mutex);
    data_->values[key] = std::move(copy);
  }

  void erase(const std::string& key) override {
    keys::check_key(key);
    if (read_only_) keys::fail_read_only(describe(), "erase", key);
    std::unique_lock lock(data_->mutex);
    data_->values.erase(key);
  }

  void erase_prefix(const std::string& prefix) override {
    keys::check_prefix(prefix);
    if (read_only_) keys::fail_read_only(describe(), "erase prefix", prefix);
    std::unique_lock lock(data_->mutex);
    sorted_keys::erase_prefix(data_->values, prefix);
  }

  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    keys::check_prefix(prefix);
    std::shared_lock lock(data_->mutex);
    return sorted_keys::list_prefix(data_->values, prefix);
  }

  DirListing list_dir(const std::string& prefix) const override {
    std::string dir = keys::dir_prefix(prefix);
    std::shared_lock lock(data_->mutex);
    return sorted_keys::list_dir(data_->values, dir);
  }

  bool writable() const override { return !read_only_; }
  std::string describe() const override { return kScheme + name_; }

 private:
  std::optional<Bytes> read(const std::string& key, const ByteRange& range, uint64_t limit) const {
    keys::check_key(key);
    std::shared_lock lock(data_->mutex);
    auto it = data_->values.find(key);
    if (it == data_->values.end()) return std::nullopt;
    keys::Span span = keys::clip(it->second.size(), range);
    check_value_size(describe(), key, span.end - span.begin, limit);
    return Bytes(it->second.begin() + static_cast<std::ptrdiff_t>(span.begin),
                 it->second.begin() + static_cast<std::ptrdiff_t>(span.end));
  }

  std::shared_ptr<MemoryData> data_;
  std::string name_;
  bool read_only_;
};

// Live data by name. Entries are weak so that the data goes when the last
// handle does; expired entries are swept on the next open.
struct Registry {
  std::mutex mutex;
  std::map<std::string, std::weak_ptr<MemoryData>> by_name;
};

Registry& registry() {
  // Handles never touch the registry after opening, so its destruction at
  // exit cannot race with handles that outlive it.
  static Registry instance;
  return instance;
}

std::shared_ptr<MemoryData> open_data(const std::string& name) {
  if (name.empty()) return std::make_shared<MemoryData>();  // anonymous: never shared
  Registry& reg = registry();
  std::lock_guard lock(reg.mutex);
  for (auto it = reg.by_name.begin(); it != reg.by_name.end();) {
    it = it->second.expired() ? reg.by_name.erase(it) : std::next(it);
  }
  std::weak_ptr<MemoryData>& slot = reg.by_name[name];
  std::shared_ptr<MemoryData> data = slot.lock();
  if (!data) {
    data = std::make_shared<MemoryData>();
    slot = data;
  }
  return data;
}

}  // namespace

std::shared_ptr<Store> make_memory_store(const std::string& name, bool read_only) {
  std::string bare = name.rfind(kScheme, 0) == 0 ? name.substr(sizeof(kScheme) - 1) : name;
  return std::make_shared<MemoryStore>(open_data(bare), bare, read_only);
}

std::shared_ptr<Store> make_memory_store(const std::string& name) {
  return make_memory_store(name, false);
}

NodeLocation open_memory_url(const StoreRequest& request) {
  request.allow_only("memory", {});
  const std::string& rest = request.location;
  if (rest.empty() || rest[0] == '/') request.fail_url("memory URLs need a name (memory://NAME)");
  size_t slash = rest.find('/');
  std::string name = rest.substr(0, slash);
  std::string node = slash == std::string::npos ? "" : rest.substr(slash + 1);
  return {make_memory_store(name, !request.writes()), path::normalize(node)};
}

}  // namespace zarr
