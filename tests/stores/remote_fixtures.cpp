#include "stores/remote_fixtures.h"

#include <numeric>

#include <gtest/gtest.h>

namespace zarr::remote_test {

namespace {

constexpr uint64_t kWrittenRows = 32;
constexpr int32_t kFill = 7;

thread_local std::string saved_message;

// Keeps the failing call's message: closing the handle may replace zarr_last_error().
int remember(int status) {
  saved_message = status == ZARR_OK ? "" : zarr_last_error();
  return status;
}

std::string v3_metadata(const std::string& codecs) {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [40, 30], "data_type": "int32",
             "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [16, 14]}},
             "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
             "fill_value": 7, "codecs": )" +
         codecs + "}";
}

std::string sharded_codecs(const std::string& index_location) {
  return R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [8, 7],
             "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
             "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
             "index_location": ")" +
         index_location + R"("}}])";
}

}  // namespace

const std::vector<ArrayCase>& array_cases() {
  static const std::vector<ArrayCase> cases = {
      {"v2", R"({"zarr_format": 2, "shape": [40, 30], "chunks": [16, 14], "dtype": "<i4", "compressor": null,
                 "fill_value": 7, "order": "C", "filters": null})"},
      {"v3", v3_metadata(R"([{"name": "bytes", "configuration": {"endian": "little"}}])")},
      {"v3_sharded_end", v3_metadata(sharded_codecs("end"))},
      {"v3_sharded_start", v3_metadata(sharded_codecs("start"))},
  };
  return cases;
}

std::vector<int32_t> pattern() {
  std::vector<int32_t> values(kRows * kCols);
  std::iota(values.begin(), values.end(), 1000);
  return values;
}

std::vector<int32_t> expected_contents() {
  std::vector<int32_t> values = pattern();
  std::fill(values.begin() + kWrittenRows * kCols, values.end(), kFill);
  return values;
}

void write_case(const std::string& url, const ArrayCase& c, const char* options_json) {
  zarr_array* array = nullptr;
  ASSERT_EQ(zarr_create_ex(&array, url.c_str(), c.metadata.c_str(), options_json), ZARR_OK)
      << url << ": " << zarr_last_error();
  write_contents(array);
  ASSERT_EQ(zarr_close(array), ZARR_OK) << url << ": " << zarr_last_error();
}

void write_contents(zarr_array* array) {
  std::vector<int32_t> values = pattern();
  values.resize(kWrittenRows * kCols);
  uint64_t start[2] = {0, 0}, count[2] = {kWrittenRows, kCols};
  EXPECT_EQ(zarr_write_region(array, 2, start, count, values.data(), values.size() * sizeof(int32_t)), ZARR_OK)
      << zarr_last_error();
}

std::vector<int32_t> read_region(const std::string& url, const char* options_json, uint64_t r0, uint64_t c0,
                                 uint64_t nr, uint64_t nc, int* status) {
  zarr_array* array = nullptr;
  *status = remember(zarr_open_ex(&array, url.c_str(), "r", options_json));
  if (*status != ZARR_OK) return {};
  std::vector<int32_t> values(nr * nc);
  uint64_t start[2] = {r0, c0}, count[2] = {nr, nc};
  *status = remember(zarr_read_region(array, 2, start, count, values.data(), values.size() * sizeof(int32_t)));
  zarr_close(array);
  return *status == ZARR_OK ? values : std::vector<int32_t>{};
}

std::vector<int32_t> read_all(const std::string& url, const char* options_json, int* status) {
  return read_region(url, options_json, 0, 0, kRows, kCols, status);
}

std::vector<uint8_t> read_any_array(const std::string& url, const char* options_json, int* status) {
  zarr_array* array = nullptr;
  *status = remember(zarr_open_ex(&array, url.c_str(), "r", options_json));
  if (*status != ZARR_OK) return {};
  const size_t ndim = zarr_ndim(array);
  std::vector<uint64_t> shape(ndim), start(ndim, 0);
  zarr_shape(array, shape.data());
  uint64_t elements = 1;
  for (uint64_t extent : shape) elements *= extent;
  std::vector<uint8_t> bytes(elements * zarr_item_size(array));
  *status = remember(zarr_read_region(array, ndim, start.data(), shape.data(), bytes.data(), bytes.size()));
  zarr_close(array);
  return *status == ZARR_OK ? bytes : std::vector<uint8_t>{};
}

const std::string& failure_message() { return saved_message; }

Outcome open_outcome(const std::string& url, const char* mode, const char* options_json) {
  zarr_array* array = nullptr;
  Outcome out;
  out.status = zarr_open_ex(&array, url.c_str(), mode, options_json);
  if (out.status != ZARR_OK) out.message = zarr_last_error();
  zarr_close(array);
  return out;
}

Outcome group_open_outcome(const std::string& url, const char* mode, const char* options_json) {
  zarr_group* group = nullptr;
  Outcome out;
  out.status = zarr_group_open_ex(&group, url.c_str(), mode, options_json);
  if (out.status != ZARR_OK) out.message = zarr_last_error();
  zarr_group_close(group);
  return out;
}


}  // namespace zarr::remote_test
