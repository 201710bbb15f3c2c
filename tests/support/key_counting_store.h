// A store for tests below the C API: forwards to a private memory store and
// counts the reads (and sets) of each key (tests/array, tests/hierarchy).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/error.h"
#include "stores/memory_store.h"

namespace zarr::testing_support {

// Forwards to a private memory store and counts the reads of each key.
class KeyCountingStore final : public Store {
 public:
  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    count(key);
    return inner_->get(key, max_size);
  }
  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    count(key);
    return inner_->get_range(key, range);
  }
  bool exists(const std::string& key) const override {
    count(key);
    return inner_->exists(key);
  }
  void set(const std::string& key, ByteView value) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++writes_[key];
    }
    inner_->set(key, value);
  }
  void erase(const std::string& key) override {
    if (key == refused_erase) fail(ZARR_ERR_IO, "counting store: erase of '" + key + "' refused (test)");
    inner_->erase(key);
  }
  void erase_prefix(const std::string& prefix) override { inner_->erase_prefix(prefix); }
  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    return inner_->list_prefix(prefix);
  }
  DirListing list_dir(const std::string& prefix) const override { return inner_->list_dir(prefix); }
  std::string describe() const override { return "counting"; }
  // As a remote store: the engine then fetches chunks through get_each.
  bool fetches_concurrently() const override { return concurrent; }
  bool concurrent = false;
  // An erase of this key fails with ZARR_ERR_IO (a store that changed under a resize).
  std::string refused_erase;

  // Reads (get, get_range, exists) of keys whose last segment is a metadata
  // document's name.
  int metadata_reads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    int n = 0;
    for (const auto& [key, reads] : reads_) {
      std::string name = key.substr(key.rfind('/') + 1);
      if (name == "zarr.json" || name == ".zarray" || name == ".zattrs" || name == ".zgroup") n += reads;
    }
    return n;
  }
  // Every read (get, get_range, exists) and every set, per key.
  std::map<std::string, int> reads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return reads_;
  }
  std::map<std::string, int> writes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return writes_;
  }
  void reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    reads_.clear();
    writes_.clear();
  }

 private:
  void count(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    ++reads_[key];
  }

  std::shared_ptr<Store> inner_ = make_memory_store("");
  mutable std::mutex mutex_;
  mutable std::map<std::string, int> reads_;
  std::map<std::string, int> writes_;
};

}  // namespace zarr::testing_support
