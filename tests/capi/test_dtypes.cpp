// Data types through the C API: native buffers in, stored byte order on disk.
#include <cstring>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {
// Raw bytes of the single chunk "0" of an uncompressed array.
zarr::Bytes chunk0(const TempDir& dir, const std::string& name) { return read_file(dir / (name + "/0")); }
}  // namespace

TEST(DTypes, BigEndianIntegersAreSwappedBothWays) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "be", array_meta("[2]", "[2]", ">i4"));
  EXPECT_STREQ(zarr_data_type(a), "int32");
  ASSERT_OK(write_region<int32_t>(a, {0}, {2}, {1, 0x01020304}));
  EXPECT_EQ(chunk0(dir, "be"), (zarr::Bytes{0, 0, 0, 1, 1, 2, 3, 4}));
  EXPECT_EQ(read_all<int32_t>(open_array(dir / "be")), (std::vector<int32_t>{1, 0x01020304}));
}

TEST(DTypes, BigEndianFloatsAndComplex) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "c", array_meta("[1]", "[1]", ">c8", {{"fill_value", "[0.0, \"NaN\"]"}}));
  EXPECT_STREQ(zarr_data_type(a), "complex64");
  std::vector<float> v = {1.0f, -2.0f};  // one complex64 = two floats
  uint64_t start = 0, count = 1;
  ASSERT_OK(zarr_write_region(a, 1, &start, &count, v.data(), 8));
  EXPECT_EQ(chunk0(dir, "c"), (zarr::Bytes{0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0}));
  std::vector<float> back(2);
  ASSERT_OK(zarr_read_region(a, 1, &start, &count, back.data(), 8));
  EXPECT_EQ(back, v);
}

TEST(DTypes, FixedUnicodeIsUtf32InNativeOrder) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "u", array_meta("[2]", "[2]", ">U2", {{"fill_value", "\"\""}}));
  EXPECT_EQ(zarr_item_size(a), 8u);
  std::vector<char32_t> text = {U'h', U'\u00e9', U'x', 0};
  uint64_t start = 0, count = 2;
  ASSERT_OK(zarr_write_region(a, 1, &start, &count, text.data(), 16));
  zarr::Bytes raw = chunk0(dir, "u");
  EXPECT_EQ(raw[3], 'h');      // big-endian UTF-32 on disk
  EXPECT_EQ(raw[7], 0xe9);
  std::vector<char32_t> back(4);
  ASSERT_OK(zarr_read_region(a, 1, &start, &count, back.data(), 16));
  EXPECT_EQ(back, text);
}

TEST(DTypes, BytesAndVoidHaveNoByteOrder) {
  TempDir dir;
  ArrayPtr s = create_array(dir / "s", array_meta("[2]", "[2]", "|S3", {{"fill_value", "\"\""}}));
  ASSERT_OK(write_region<char>(s, {0}, {2}, {'a', 'b', 'c', 'd', 0, 0}));
  EXPECT_EQ(chunk0(dir, "s"), (zarr::Bytes{'a', 'b', 'c', 'd', 0, 0}));
  EXPECT_STREQ(zarr_data_type(s), "\"|S3\"");
  ArrayPtr v = create_array(dir / "v", array_meta("[1]", "[1]", "|V2", {{"fill_value", "\"AQI=\""}}));
  EXPECT_EQ(read_all<uint8_t>(v), (std::vector<uint8_t>{1, 2})) << "base64 fill value of a void type";
}

TEST(DTypes, DatetimeIsInt64AndBoolIsOneByte) {
  TempDir dir;
  ArrayPtr m = create_array(dir / "m", array_meta("[2]", "[2]", ">M8[ns]", {{"fill_value", "-9223372036854775808"}}));
  EXPECT_EQ(zarr_item_size(m), 8u);
  EXPECT_EQ(read_all<int64_t>(m), (std::vector<int64_t>{INT64_MIN, INT64_MIN})) << "NaT fill";
  ASSERT_OK(write_region<int64_t>(m, {0}, {2}, {1, 1600000000000000000}));
  EXPECT_EQ(read_all<int64_t>(open_array(dir / "m")), (std::vector<int64_t>{1, 1600000000000000000}));
  ArrayPtr b = create_array(dir / "b", array_meta("[3]", "[3]", "|b1", {{"fill_value", "true"}}));
  EXPECT_STREQ(zarr_data_type(b), "bool");
  EXPECT_EQ(read_all<uint8_t>(b), (std::vector<uint8_t>{1, 1, 1}));
}

TEST(DTypes, StructuredTypesAreSwappedFieldByField) {
  TempDir dir;
  // A record: big-endian int16, a 2-element big-endian float32 subarray, one byte.
  ArrayPtr a = create_array(dir / "r", array_meta("[1]", "[1]", "X",
                                                   {{"dtype", "[[\"a\", \">i2\"], [\"b\", \">f4\", [2]], [\"c\", \"|u1\"]]"},
                                                    {"fill_value", "null"}}));
  ASSERT_EQ(zarr_item_size(a), 11u);
  uint8_t rec[11];
  int16_t i = 0x0102;
  float f[2] = {1.0f, 2.0f};
  std::memcpy(rec, &i, 2);
  std::memcpy(rec + 2, f, 8);
  rec[10] = 9;
  uint64_t start = 0, count = 1;
  ASSERT_OK(zarr_write_region(a, 1, &start, &count, rec, 11));
  EXPECT_EQ(chunk0(dir, "r"), (zarr::Bytes{1, 2, 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0, 9}));
  uint8_t back[11];
  ASSERT_OK(zarr_read_region(a, 1, &start, &count, back, 11));
  EXPECT_EQ(std::memcmp(back, rec, 11), 0);
  std::string m = metadata_of(a);
  EXPECT_NE(m.find("\">f4\""), std::string::npos) << m;
}
