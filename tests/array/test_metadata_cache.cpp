// Metadata documents are read once per open handle: reading and writing
// regions, asking for the shape, attributes or metadata never fetch zarr.json,
// .zarray, .zattrs or .zgroup again. Changes made through another handle show
// after reopening (docs/stores.md, "Caching and consistency").
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <numeric>

#include "array/array.h"
#include "stores/store.h"
#include "support/key_counting_store.h"

namespace zarr {
namespace {

using testing_support::KeyCountingStore;

const char* const kV2Array = R"({"shape": [20, 20], "chunks": [5, 5], "dtype": "<i4", "compressor": null,
  "fill_value": 0, "filters": null, "order": "C", "zarr_format": 2})";
const char* const kV3Array = R"({"zarr_format": 3, "node_type": "array", "shape": [20, 20], "data_type": "int32",
  "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [5, 5]}},
  "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
  "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}], "attributes": {"x": 1}})";

class MetadataCache : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    std::unique_ptr<Array> created = Array::create(store_, "arr", GetParam(), ArrayOptions{});
    created->set_attributes(R"({"x": 1})");
  }
  std::unique_ptr<Array> open(bool writable = false) { return Array::open(store_, "arr", writable, ArrayOptions{}); }

  std::shared_ptr<KeyCountingStore> store_ = std::make_shared<KeyCountingStore>();
};

TEST_P(MetadataCache, RegionIoNeverRereadsMetadata) {
  std::unique_ptr<Array> array = open(true);
  store_->reset();
  std::vector<int32_t> data(20 * 20);
  std::iota(data.begin(), data.end(), 0);
  for (int i = 0; i < 5; ++i) {
    array->write_region({0, 0}, {20, 20}, data.data(), data.size() * 4, nullptr);
    std::vector<int32_t> back(7 * 3);
    array->read_region({3, 4}, {7, 3}, back.data(), back.size() * 4, nullptr);
    EXPECT_EQ(back[0], 3 * 20 + 4);
    EXPECT_EQ(array->shape(), (std::vector<uint64_t>{20, 20}));
    EXPECT_FALSE(array->metadata_json().empty());
  }
  EXPECT_EQ(store_->metadata_reads(), 0);
}

TEST_P(MetadataCache, AttributesAreReadAtMostOnce) {
  std::unique_ptr<Array> array = open();
  store_->reset();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(array->attributes_json(), R"({"x":1})");
  EXPECT_LE(store_->metadata_reads(), 1);  // v2: .zattrs on first use; v3: none (zarr.json held them)
}

TEST_P(MetadataCache, AHandleKeepsWhatItReadUntilReopened) {
  std::unique_ptr<Array> reader = open();
  EXPECT_EQ(reader->attributes_json(), R"({"x":1})");
  std::unique_ptr<Array> writer = open(true);
  writer->resize({30, 20});
  writer->set_attributes(R"({"x": 2})");
  EXPECT_EQ(writer->shape(), (std::vector<uint64_t>{30, 20}));
  EXPECT_EQ(writer->attributes_json(), R"({"x":2})");  // the writing handle sees its own changes
  EXPECT_EQ(reader->shape(), (std::vector<uint64_t>{20, 20}));
  EXPECT_EQ(reader->attributes_json(), R"({"x":1})");
  std::unique_ptr<Array> reopened = open();
  EXPECT_EQ(reopened->shape(), (std::vector<uint64_t>{30, 20}));
  EXPECT_EQ(reopened->attributes_json(), R"({"x":2})");
}

INSTANTIATE_TEST_SUITE_P(Formats, MetadataCache, ::testing::Values(kV2Array, kV3Array),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return info.index == 0 ? std::string("v2") : std::string("v3");
                         });

}  // namespace
}  // namespace zarr
