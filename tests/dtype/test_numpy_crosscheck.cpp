// Table-driven checks against numpy 1.24 / zarr-python 2.13. The tables in
// numpy_expectations.inc come from gen_numpy_expectations.py; python is not
// needed to run these tests.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "dtype/float_text.h"
#include "dtype_test_util.h"

namespace zarr::test {
namespace {

#include "numpy_expectations.inc"

// The tables were made on a little-endian host, where native = '<'.
bool host_little() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

TEST(NumpyCrossCheck, Typestrs) {
  for (const auto& c : kNumpyTypestrs) {
    SCOPED_TRACE(c.in);
    const DataType t = dtype(json::quote(c.in));
    EXPECT_EQ(t.to_v2_json(), json::quote(c.str));
    EXPECT_EQ(t.item_size(), c.itemsize);
  }
}

TEST(NumpyCrossCheck, StructuredLayouts) {
  for (const auto& c : kNumpyStructs) {
    SCOPED_TRACE(c.descr);
    const DataType t = dtype(c.descr);
    EXPECT_EQ(t.item_size(), c.itemsize);
    ASSERT_EQ(t.fields().size(), c.offsets.size());
    for (size_t i = 0; i < c.offsets.size(); ++i) EXPECT_EQ(t.fields()[i].offset, c.offsets[i]) << i;
    EXPECT_EQ(t.to_v2_json(), c.out);  // what zarr-python writes, compacted
  }
}

TEST(NumpyCrossCheck, ByteSwaps) {
  if (!host_little()) GTEST_SKIP() << "tables assume a little-endian host";
  for (const auto& c : kNumpySwaps) {
    SCOPED_TRACE(c.dtype);
    const DataType t = dtype(c.dtype);
    Bytes data = unhex(c.stored);
    ASSERT_EQ(data.size(), t.item_size() * c.count);
    t.swap_in_place(data.data(), c.count);
    EXPECT_EQ(hex(data), c.native);
    t.swap_in_place(data.data(), c.count);
    EXPECT_EQ(hex(data), c.stored);
  }
}

TEST(NumpyCrossCheck, FillValuesDecode) {
  if (!host_little()) GTEST_SKIP() << "tables assume a little-endian host";
  for (const auto& c : kNumpyFills) {
    SCOPED_TRACE(std::string(c.dtype) + " " + c.fill);
    const auto bytes = fill(dtype(c.dtype), c.fill);
    ASSERT_TRUE(bytes.has_value());
    EXPECT_EQ(hex(*bytes), c.native);
  }
}

TEST(NumpyCrossCheck, FillValuesEncode) {
  if (!host_little()) GTEST_SKIP() << "tables assume a little-endian host";
  for (const auto& c : kNumpyEncodes) {
    SCOPED_TRACE(std::string(c.dtype) + " " + c.native);
    EXPECT_EQ(dtype(c.dtype).fill_value_to_v2_json(unhex(c.native)), c.json);
  }
}

TEST(NumpyCrossCheck, PythonFloatRepr) {
  for (const auto& c : kPythonReprs) {
    double d;
    std::memcpy(&d, &c.bits, 8);
    EXPECT_EQ(dtype_detail::python_float_repr(d), c.repr);
  }
}

}  // namespace
}  // namespace zarr::test
