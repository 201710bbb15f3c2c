// zarr_info's nbytes_stored is a sum of the sizes a store reports for its
// keys; a store whose sizes add up past 2^64 - 1 (a hostile server's
// listing) makes it an error naming the store and the key, never a wrapped
// figure (docs/reliability.md, "Index arithmetic").
#include <gtest/gtest.h>

#include "array/array.h"
#include "base/error.h"
#include "stores/memory_store.h"

namespace zarr {
namespace {

// A memory store that says every value holds 2^63 bytes.
class HugeSizesStore final : public Store {
 public:
  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    return inner_->get(key, max_size);
  }
  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    return inner_->get_range(key, range);
  }
  bool exists(const std::string& key) const override { return inner_->exists(key); }
  std::optional<uint64_t> value_size(const std::string& key) const override {
    return inner_->exists(key) ? std::optional<uint64_t>(uint64_t{1} << 63) : std::nullopt;
  }
  void set(const std::string& key, ByteView value) override { inner_->set(key, value); }
  void erase(const std::string& key) override { inner_->erase(key); }
  void erase_prefix(const std::string& prefix) override { inner_->erase_prefix(prefix); }
  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    return inner_->list_prefix(prefix);
  }
  DirListing list_dir(const std::string& prefix) const override { return inner_->list_dir(prefix); }
  std::string describe() const override { return "huge-sizes://"; }

 private:
  std::shared_ptr<Store> inner_ = make_memory_store("");
};

TEST(StoredSizes, SizesAddingUpPast2To64AreAnIoErrorNotAWrappedFigure) {
  auto store = std::make_shared<HugeSizesStore>();
  std::unique_ptr<Array> a = Array::create(store, "a", R"({"zarr_format": 2, "shape": [4], "chunks": [2],
      "dtype": "|u1", "compressor": null, "fill_value": 0, "filters": null, "order": "C"})", ArrayOptions{});
  EXPECT_NE(a->info_json().find("\"nbytes_stored\":9223372036854775808"), std::string::npos) << "one key: 2^63";
  const uint8_t values[2] = {1, 2};
  a->write_region({0}, {2}, values, 2, nullptr);
  try {
    a->info_json();
    FAIL() << "2^63 + 2^63 bytes stored";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_IO);
    EXPECT_NE(std::string(e.what()).find("gives for its keys add up past 2^64 - 1 bytes (at key 'a/"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace zarr
