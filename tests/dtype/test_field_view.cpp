// Field selection on structured data types: the TensorStore zarr driver
// page's example, nested and big-endian fields, extract/inject, and errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>

#include "dtype/field_view.h"
#include "dtype_test_util.h"

namespace zarr::test {
namespace {

// The example of the TensorStore zarr driver page.
const char* kSpecDType = R"([["x", "<u2", [2, 3]], ["y", "<f4", [5]]])";
const char* kSpecFill = R"("AQACAAMABAAFAAYAAAAgQQAAMEEAAEBBAABQQQAAYEE=")";

template <typename T>
std::vector<T> values_of(const Bytes& bytes) {
  EXPECT_EQ(bytes.size() % sizeof(T), 0u);
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

FieldView select(const char* dtype_json, const char* fill_json, const std::string& name) {
  const DataType record = dtype(dtype_json);
  return select_field(record, name, fill(record, fill_json));
}

TEST(FieldView, SpecExampleFieldX) {
  const FieldView x = select(kSpecDType, kSpecFill, "x");
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.type, dtype(R"("<u2")"));
  EXPECT_EQ(x.subshape, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(x.element_count, 6u);
  EXPECT_EQ(x.offset, 0u);
  EXPECT_EQ(x.size, 12u);
  EXPECT_EQ(x.record_size, 32u);
  ASSERT_TRUE(x.fill_value.has_value());
  // [[1, 2, 3], [4, 5, 6]] in C order.
  EXPECT_EQ(values_of<uint16_t>(*x.fill_value), (std::vector<uint16_t>{1, 2, 3, 4, 5, 6}));
}

TEST(FieldView, SpecExampleFieldY) {
  const FieldView y = select(kSpecDType, kSpecFill, "y");
  EXPECT_EQ(y.type, dtype(R"("<f4")"));
  EXPECT_EQ(y.subshape, (std::vector<uint64_t>{5}));
  EXPECT_EQ(y.offset, 12u);
  EXPECT_EQ(y.size, 20u);
  ASSERT_TRUE(y.fill_value.has_value());
  EXPECT_EQ(values_of<float>(*y.fill_value), (std::vector<float>{10, 11, 12, 13, 14}));
}

TEST(FieldView, ScalarFieldHasNoSubshape) {
  const FieldView b = select(R"([["a", "<i8"], ["b", "|u1"]])", "null", "b");
  EXPECT_TRUE(b.subshape.empty());
  EXPECT_EQ(b.element_count, 1u);
  EXPECT_EQ(b.offset, 8u);
  EXPECT_EQ(b.size, 1u);
  EXPECT_EQ(b.record_size, 9u);
}

TEST(FieldView, NullRecordFillGivesNullFieldFill) {
  EXPECT_EQ(select(kSpecDType, "null", "y").fill_value, std::nullopt);
}

TEST(FieldView, BigEndianFieldFillIsNative) {
  // a = 0x0102, b = [1.5, -2.0], all stored big-endian.
  const char* dt = R"([["a", ">u2"], ["b", ">f8", [2]]])";
  const FieldView a = select(dt, R"("AQI/+AAAAAAAAMAAAAAAAAAA")", "a");
  EXPECT_TRUE(a.type.big_endian());
  EXPECT_EQ(values_of<uint16_t>(*a.fill_value), (std::vector<uint16_t>{0x0102}));
  const FieldView b = select(dt, R"("AQI/+AAAAAAAAMAAAAAAAAAA")", "b");
  EXPECT_EQ(b.offset, 2u);
  EXPECT_EQ(values_of<double>(*b.fill_value), (std::vector<double>{1.5, -2.0}));
}

// p: 3 records of {q: 2 x int16, r: float64}; s: uint8. Fill: q = [10k+1,
// 10k+2], r = k + 0.5 for element k; s = 7.
const char* kNestedDType = R"([["p", [["q", "<i2", [2]], ["r", "<f8"]], [3]], ["s", "|u1"]])";
const char* kNestedFill = R"("AQACAAAAAAAAAOA/CwAMAAAAAAAAAPg/FQAWAAAAAAAAAARABw==")";

TEST(FieldView, NestedStructuredSubarrayField) {
  const FieldView p = select(kNestedDType, kNestedFill, "p");
  EXPECT_EQ(p.type.kind(), DTypeKind::Structured);
  EXPECT_EQ(p.type.item_size(), 12u);
  EXPECT_EQ(p.subshape, (std::vector<uint64_t>{3}));
  EXPECT_EQ(p.size, 36u);
  EXPECT_EQ(p.record_size, 37u);
  ASSERT_EQ(p.fill_value->size(), 36u);

  // A field of the field: select again on one element of the field array.
  const Bytes second_element(p.fill_value->begin() + 12, p.fill_value->begin() + 24);
  const FieldView q = select_field(p.type, "q", second_element);
  EXPECT_EQ(q.subshape, (std::vector<uint64_t>{2}));
  EXPECT_EQ(values_of<int16_t>(*q.fill_value), (std::vector<int16_t>{11, 12}));
  const FieldView r = select_field(p.type, "r", second_element);
  EXPECT_EQ(r.offset, 4u);
  EXPECT_EQ(values_of<double>(*r.fill_value), (std::vector<double>{1.5}));

  const FieldView s = select(kNestedDType, kNestedFill, "s");
  EXPECT_EQ(s.offset, 36u);
  EXPECT_EQ(*s.fill_value, Bytes{7});
}

// --- extract / inject ---

// `count` records of the spec dtype, every byte distinct-ish.
Bytes numbered_records(size_t count) {
  Bytes records(count * 32);
  std::iota(records.begin(), records.end(), uint8_t{0});
  return records;
}

TEST(FieldView, ExtractCopiesTheFieldOfEachRecord) {
  const FieldView y = select(kSpecDType, "null", "y");
  const Bytes records = numbered_records(3);
  Bytes values(3 * y.size);
  extract_field(y, records.data(), 3, values.data());
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(Bytes(values.begin() + i * 20, values.begin() + (i + 1) * 20),
              Bytes(records.begin() + i * 32 + 12, records.begin() + i * 32 + 32))
        << "record " << i;
  }
}

TEST(FieldView, InjectTouchesOnlyTheField) {
  const FieldView x = select(kSpecDType, "null", "x");
  const Bytes before = numbered_records(4);
  Bytes records = before;
  const Bytes values(4 * x.size, 0xEE);
  inject_field(x, values.data(), 4, records.data());
  for (size_t i = 0; i < records.size(); ++i) {
    const bool in_x = i % 32 < 12;
    EXPECT_EQ(records[i], in_x ? 0xEE : before[i]) << "byte " << i;
  }
}

TEST(FieldView, ExtractInjectRoundTrip) {
  const DataType record = dtype(kSpecDType);
  const Bytes original = numbered_records(5);
  Bytes rebuilt(original.size(), 0);
  for (const char* name : {"x", "y"}) {
    const FieldView f = select_field(record, name, std::nullopt);
    Bytes values(5 * f.size);
    extract_field(f, original.data(), 5, values.data());
    inject_field(f, values.data(), 5, rebuilt.data());
  }
  EXPECT_EQ(rebuilt, original);
}

TEST(FieldView, ZeroRecordsTouchNothing) {
  const FieldView x = select(kSpecDType, "null", "x");
  extract_field(x, nullptr, 0, nullptr);
  inject_field(x, nullptr, 0, nullptr);
}

// --- errors ---

TEST(FieldViewErrors, UnknownFieldListsTheAvailableOnes) {
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [] { select(kSpecDType, "null", "z"); },
               {"field \"z\"", "available fields: \"x\", \"y\""});
}

TEST(FieldViewErrors, FieldOfAnUnstructuredType) {
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [] { select(R"("<u2")", "0", "x"); },
               {"field \"x\"", "<u2", "not structured"});
}

TEST(FieldViewErrors, RecordFillOfTheWrongSize) {
  const DataType record = dtype(kSpecDType);
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { select_field(record, "x", Bytes(31)); },
               {"field \"x\"", "31 bytes", "32"});
}

}  // namespace
}  // namespace zarr::test
