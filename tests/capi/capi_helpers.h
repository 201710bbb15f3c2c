// Helpers shared by the C API tests: RAII handles, status assertions, and
// round-trip helpers (write a region, read it back).
#pragma once

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "zarr/zarr.h"

namespace zarr::test {

// Owns a zarr_array* and closes it.
class ArrayPtr {
 public:
  ArrayPtr() = default;
  explicit ArrayPtr(zarr_array* a) : a_(a) {}
  ~ArrayPtr() { zarr_close(a_); }
  ArrayPtr(const ArrayPtr&) = delete;
  ArrayPtr& operator=(const ArrayPtr&) = delete;
  ArrayPtr(ArrayPtr&& o) noexcept : a_(o.a_) { o.a_ = nullptr; }
  ArrayPtr& operator=(ArrayPtr&& o) noexcept {
    if (this != &o) {
      zarr_close(a_);
      a_ = o.a_;
      o.a_ = nullptr;
    }
    return *this;
  }
  zarr_array* get() const { return a_; }
  zarr_array** out() { zarr_close(a_); a_ = nullptr; return &a_; }
  operator zarr_array*() const { return a_; }  // NOLINT: convenience for C calls
 private:
  zarr_array* a_ = nullptr;
};

class GroupPtr {
 public:
  GroupPtr() = default;
  ~GroupPtr() { zarr_group_close(g_); }
  GroupPtr(const GroupPtr&) = delete;
  GroupPtr& operator=(const GroupPtr&) = delete;
  zarr_group* get() const { return g_; }
  zarr_group** out() { zarr_group_close(g_); g_ = nullptr; return &g_; }
  operator zarr_group*() const { return g_; }  // NOLINT
 private:
  zarr_group* g_ = nullptr;
};

// "ZARR_ERR_X: <last error>" for assertion messages.
std::string status_text(int status);

// Expect `status` to equal `expected`, and zarr_last_error() to contain
// `fragment` (when non-empty).
#define EXPECT_STATUS(call, expected, fragment)                                               \
  do {                                                                                        \
    int status_ = (call);                                                                     \
    EXPECT_EQ(status_, (expected)) << zarr::test::status_text(status_);                       \
    if (status_ != ZARR_OK && std::string(fragment).size()) {                                 \
      EXPECT_NE(std::string(zarr_last_error()).find(fragment), std::string::npos)             \
          << "message: " << zarr_last_error() << "\nexpected to contain: " << (fragment);     \
    }                                                                                         \
  } while (0)

#define ASSERT_OK(call)                                                       \
  do {                                                                        \
    int status_ = (call);                                                     \
    ASSERT_EQ(status_, ZARR_OK) << zarr::test::status_text(status_);          \
  } while (0)

// Members of a JSON object as raw JSON values: {{"fill_value", "\"NaN\""}}.
using Fields = std::map<std::string, std::string>;

// A v2 .zarray document: `fields` over zarr_format 2, compressor null,
// fill_value 0, filters null, order "C".
std::string v2_metadata(Fields fields);

// v2_metadata with shape, chunks and dtype given: array_meta("[10]", "[5]", "<f8").
std::string array_meta(const std::string& shape, const std::string& chunks, const std::string& dtype = "<i4",
                       Fields fields = {});

// zarr_group_create_ex's options for a Zarr v2 group: a new root is v3, and a
// v2 array below a v3 group is refused (one hierarchy, one format).
inline constexpr const char* kV2Group = "{\"zarr_format\": 2}";

// A v3 zarr.json document of an int32 array with the bytes codec.
std::string v3_array_meta(const std::string& shape, const std::string& chunks);

// A v3 zarr.json document of `shape` in one chunk: data_type `type` (a
// name), `codecs` and `fill` as JSON text.
std::string v3_one_chunk_meta(const std::string& type, const std::string& shape, const std::string& codecs,
                              const std::string& fill = "0");

// Create an array (asserting success).
ArrayPtr create_array(const std::string& url, const std::string& metadata_json, const char* options = nullptr);
ArrayPtr open_array(const std::string& url, const char* mode = "r");
// A v2 record array [4] of {x: <i4, y: <f4} created at folder, opened "r+" as
// its field x through zarr_open_spec (expecting success).
ArrayPtr open_record_field_x(const std::string& folder);

// Region helpers for typed data.
template <typename T>
int write_region(zarr_array* a, std::vector<uint64_t> start, std::vector<uint64_t> count, const std::vector<T>& data) {
  return zarr_write_region(a, start.size(), start.data(), count.data(), data.data(), data.size() * sizeof(T));
}

template <typename T>
std::vector<T> read_region(zarr_array* a, std::vector<uint64_t> start, std::vector<uint64_t> count) {
  // T may be smaller than an item (bytes of a record): size by the item size.
  size_t n = zarr_item_size(a) / sizeof(T);
  for (uint64_t c : count) n *= c;
  std::vector<T> out(n);
  int status = zarr_read_region(a, start.size(), start.data(), count.data(), out.data(), n * sizeof(T));
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  return out;
}

// Every element of an array, C order.
template <typename T>
std::vector<T> read_all(zarr_array* a) {
  std::vector<uint64_t> shape(zarr_ndim(a));
  zarr_shape(a, shape.data());
  return read_region<T>(a, std::vector<uint64_t>(shape.size(), 0), shape);
}

// Write `data` to a region and read the whole array back: the shared
// round-trip of most tests.
template <typename T>
std::vector<T> write_then_read_all(zarr_array* a, std::vector<uint64_t> start, std::vector<uint64_t> count,
                                   const std::vector<T>& data) {
  int status = write_region(a, start, count, data);
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  return read_all<T>(a);
}

// Variable-length elements (strings, bytes) of a region, and writing them.
std::vector<std::string> read_strings(zarr_array* a, std::vector<uint64_t> start, std::vector<uint64_t> count);
int write_strings(zarr_array* a, std::vector<uint64_t> start, std::vector<uint64_t> count,
                  const std::vector<std::string>& items);

// Metadata / attributes as strings (freed here).
std::string metadata_of(const zarr_array* a);
// zarr_info as a parsed document (a failure is a test failure).
rapidjson::Document info_of(const zarr_array* a);
std::string attributes_of(const zarr_array* a);

// A group's attributes; the names zarr_group_list gives for its children, or
// one "<error: ...>" entry when it fails.
std::string group_attributes_of(const zarr_group* g);
std::vector<std::string> child_names(zarr_group* group);

// Sorted names of files under dir (recursive, '/'-separated, relative).
std::vector<std::string> list_files(const std::string& dir);

}  // namespace zarr::test
