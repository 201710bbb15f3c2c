// Parsing, serialisation, layout and byte swapping of v2 data types.
#include <gtest/gtest.h>

#include <cstring>

#include "dtype_test_util.h"

namespace zarr::test {
namespace {

// ---- simple types ----------------------------------------------------------

struct SimpleCase {
  const char* typestr;
  DTypeKind kind;
  size_t size;
  bool big;
  const char* v3;  // "" when there is none
};

const SimpleCase kSimple[] = {
    {"|b1", DTypeKind::Bool, 1, false, "bool"},
    {"|i1", DTypeKind::Int, 1, false, "int8"},
    {"<i2", DTypeKind::Int, 2, false, "int16"},
    {">i4", DTypeKind::Int, 4, true, "int32"},
    {"<i8", DTypeKind::Int, 8, false, "int64"},
    {"|u1", DTypeKind::UInt, 1, false, "uint8"},
    {">u2", DTypeKind::UInt, 2, true, "uint16"},
    {"<u4", DTypeKind::UInt, 4, false, "uint32"},
    {">u8", DTypeKind::UInt, 8, true, "uint64"},
    {"<f2", DTypeKind::Float, 2, false, "float16"},
    {">f4", DTypeKind::Float, 4, true, "float32"},
    {"<f8", DTypeKind::Float, 8, false, "float64"},
    {"<c8", DTypeKind::Complex, 8, false, "complex64"},
    {">c16", DTypeKind::Complex, 16, true, "complex128"},
    {"<M8[ns]", DTypeKind::DateTime, 8, false, ""},
    {">m8[D]", DTypeKind::TimeDelta, 8, true, ""},
    {"|S3", DTypeKind::Bytes, 3, false, ""},
    {">U5", DTypeKind::Unicode, 20, true, ""},
    {"<U1", DTypeKind::Unicode, 4, false, ""},
    {"|V4", DTypeKind::Void, 4, false, ""},
    {"|O", DTypeKind::Object, 8, false, ""},
};

TEST(DataTypeParse, SimpleTypes) {
  for (const auto& c : kSimple) {
    SCOPED_TRACE(c.typestr);
    const DataType t = dtype(json::quote(c.typestr));
    EXPECT_EQ(t.kind(), c.kind);
    EXPECT_EQ(t.item_size(), c.size);
    EXPECT_EQ(t.big_endian(), c.big);
    EXPECT_TRUE(t.fields().empty());
    EXPECT_EQ(t.to_v2_json(), json::quote(c.typestr));
    if (*c.v3) {
      EXPECT_EQ(t.v3_name(), std::optional<std::string>(c.v3));
    } else {
      EXPECT_EQ(t.v3_name(), std::nullopt);
    }
  }
}

TEST(DataTypeParse, V3NameIgnoresByteOrder) {
  EXPECT_EQ(dtype("\"<i2\"").v3_name(), dtype("\">i2\"").v3_name());
  EXPECT_EQ(dtype("\">c8\"").v3_name(), std::optional<std::string>("complex64"));
  EXPECT_EQ(dtype("\">f2\"").v3_name(), std::optional<std::string>("float16"));
  EXPECT_EQ(dtype("[[\"a\",\"<i4\"]]").v3_name(), std::nullopt);
}

// Every kind, size, byte order and time unit survives parse -> to_v2_json -> parse.
TEST(DataTypeParse, RoundTripEveryForm) {
  std::vector<std::string> forms;
  for (const char* order : {"<", ">", "|"}) {
    for (const char* k : {"b1", "i1", "u1", "S1", "S12", "V1", "V100", "O"}) forms.push_back(std::string(order) + k);
  }
  for (const char* order : {"<", ">"}) {
    for (const char* k : {"i2", "i4", "i8", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16", "U1", "U9"}) {
      forms.push_back(std::string(order) + k);
    }
    for (const char* kind : {"M8", "m8"}) {
      forms.push_back(std::string(order) + kind);
      for (const char* unit : {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"}) {
        forms.push_back(std::string(order) + kind + "[" + unit + "]");
        forms.push_back(std::string(order) + kind + "[250" + unit + "]");
      }
    }
  }
  for (const std::string& form : forms) {
    SCOPED_TRACE(form);
    const DataType t = dtype(json::quote(form));
    const DataType again = dtype(t.to_v2_json());
    EXPECT_EQ(again.to_v2_json(), t.to_v2_json());
    EXPECT_EQ(again.kind(), t.kind());
    EXPECT_EQ(again.item_size(), t.item_size());
    EXPECT_EQ(again.big_endian(), t.big_endian());
    EXPECT_EQ(again.time_unit(), t.time_unit());
    EXPECT_TRUE(again == t);
  }
}

TEST(DataTypeParse, NormalisesAsNumpyPrints) {
  // Byte order is irrelevant to one-byte and byte-string types: numpy prints '|'.
  EXPECT_EQ(dtype("\"<b1\"").to_v2_json(), "\"|b1\"");
  EXPECT_EQ(dtype("\">u1\"").to_v2_json(), "\"|u1\"");
  EXPECT_EQ(dtype("\"<i1\"").to_v2_json(), "\"|i1\"");
  EXPECT_EQ(dtype("\">S5\"").to_v2_json(), "\"|S5\"");
  EXPECT_EQ(dtype("\"<V2\"").to_v2_json(), "\"|V2\"");
  EXPECT_EQ(dtype("\">O\"").to_v2_json(), "\"|O\"");
  EXPECT_EQ(dtype("\"|O8\"").to_v2_json(), "\"|O\"");
  EXPECT_EQ(dtype("\"<i04\"").to_v2_json(), "\"<i4\"");
  // A multiplier of one is dropped, leading zeros too; "μs" is numpy's alias of "us".
  EXPECT_EQ(dtype("\"<M8[1ns]\"").to_v2_json(), "\"<M8[ns]\"");
  EXPECT_EQ(dtype("\">m8[010ms]\"").to_v2_json(), "\">m8[10ms]\"");
  EXPECT_EQ(dtype("\"<M8[\xce\xbcs]\"").to_v2_json(), "\"<M8[us]\"");
}

TEST(DataTypeParse, TimeUnits) {
  EXPECT_EQ(dtype("\"<M8[ns]\"").time_unit(), "ns");
  EXPECT_EQ(dtype("\"<M8[10ms]\"").time_unit(), "10ms");
  EXPECT_EQ(dtype("\">m8[7D]\"").time_unit(), "7D");
  EXPECT_EQ(dtype("\"<M8\"").time_unit(), "");
  EXPECT_EQ(dtype("\"<M8\"").to_v2_json(), "\"<M8\"");
  EXPECT_EQ(dtype("\"<i4\"").time_unit(), "");
  EXPECT_EQ(dtype("\"<M8[2147483647as]\"").time_unit(), "2147483647as");
}

TEST(DataTypeParse, FromTypestrAndV3Name) {
  EXPECT_EQ(DataType::from_typestr("<f8", "delta filter").to_v2_json(), "\"<f8\"");
  for (const char* name : {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                           "float16", "float32", "float64", "complex64", "complex128"}) {
    SCOPED_TRACE(name);
    const auto t = DataType::from_v3_name(name);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->v3_name(), std::optional<std::string>(name));
    EXPECT_FALSE(t->needs_byte_swap());  // host order
  }
  EXPECT_FALSE(DataType::from_v3_name("r16").has_value());
  EXPECT_FALSE(DataType::from_v3_name("<i4").has_value());
  EXPECT_FALSE(DataType::from_v3_name("").has_value());
}

TEST(DataTypeParse, ObjectKind) {
  const DataType t = dtype("\"|O\"");
  EXPECT_EQ(t.kind(), DTypeKind::Object);
  EXPECT_TRUE(t.contains_object());
  EXPECT_FALSE(t.needs_byte_swap());
  EXPECT_TRUE(dtype("[[\"a\",\"<i4\"],[\"b\",[[\"c\",\"|O\"]]]]").contains_object());
  EXPECT_FALSE(dtype("[[\"a\",\"<i4\"]]").contains_object());
  EXPECT_FALSE(dtype("\"<i4\"").contains_object());
}

// ---- structured types --------------------------------------------------------

TEST(DataTypeStructured, PackedOffsetsAndSubarrays) {
  const DataType t = dtype("[[\"x\",\"<f4\"],[\"y\",\">i2\",[2,3]],[\"z\",\"|S5\"],[\"w\",\"<c16\",[1]]]");
  EXPECT_EQ(t.kind(), DTypeKind::Structured);
  ASSERT_EQ(t.fields().size(), 4u);
  EXPECT_EQ(t.item_size(), 4u + 12u + 5u + 16u);
  const auto& f = t.fields();
  EXPECT_EQ(f[0].name, "x");
  EXPECT_EQ(f[0].offset, 0u);
  EXPECT_TRUE(f[0].subshape.empty());
  EXPECT_EQ(f[0].element_count, 1u);
  EXPECT_EQ(f[1].offset, 4u);
  EXPECT_EQ(f[1].subshape, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(f[1].element_count, 6u);
  EXPECT_EQ(f[1].type->item_size(), 2u);
  EXPECT_TRUE(f[1].type->big_endian());
  EXPECT_EQ(f[2].offset, 16u);
  EXPECT_EQ(f[3].offset, 21u);  // no alignment padding
  EXPECT_EQ(f[3].subshape, (std::vector<uint64_t>{1}));
  EXPECT_EQ(t.to_v2_json(), "[[\"x\",\"<f4\"],[\"y\",\">i2\",[2,3]],[\"z\",\"|S5\"],[\"w\",\"<c16\",[1]]]");
  EXPECT_EQ(t.v3_name(), std::nullopt);
  EXPECT_FALSE(t.big_endian());
  EXPECT_EQ(t.time_unit(), "");
}

TEST(DataTypeStructured, NestedWithSubarrays) {
  const DataType t = dtype(
      "[[\"a\",\"|u1\"],[\"b\",[[\"c\",\">f8\",[3]],[\"d\",[[\"e\",\"<U2\"],[\"f\",\"|b1\",[2]]]]],[2,2]],"
      "[\"g\",\"<M8[ms]\"]]");
  // b's record: c 24 + d (e 8 + f 2) = 34 bytes, four of them.
  ASSERT_EQ(t.fields().size(), 3u);
  const Field& b = t.fields()[1];
  EXPECT_EQ(b.offset, 1u);
  EXPECT_EQ(b.type->kind(), DTypeKind::Structured);
  EXPECT_EQ(b.type->item_size(), 34u);
  EXPECT_EQ(b.element_count, 4u);
  const Field& d = b.type->fields()[1];
  EXPECT_EQ(d.offset, 24u);
  EXPECT_EQ(d.type->item_size(), 10u);
  EXPECT_EQ(d.type->fields()[1].offset, 8u);
  EXPECT_EQ(t.fields()[2].offset, 1u + 4u * 34u);
  EXPECT_EQ(t.item_size(), 1u + 136u + 8u);
  EXPECT_EQ(dtype(t.to_v2_json()).to_v2_json(), t.to_v2_json());
}

TEST(DataTypeStructured, NumpyConventions) {
  // numpy names unnamed fields f<index>; an empty shape is a scalar field and
  // a bare integer a one-dimensional subarray.
  const DataType t = dtype("[[\"\",\"<i4\"],[\"b\",\"<i4\",[]],[\"\",\"|u1\",3]]");
  EXPECT_EQ(t.fields()[0].name, "f0");
  EXPECT_TRUE(t.fields()[1].subshape.empty());
  EXPECT_EQ(t.fields()[2].name, "f2");
  EXPECT_EQ(t.fields()[2].subshape, (std::vector<uint64_t>{3}));
  EXPECT_EQ(t.item_size(), 11u);
  EXPECT_EQ(t.to_v2_json(), "[[\"f0\",\"<i4\"],[\"b\",\"<i4\"],[\"f2\",\"|u1\",[3]]]");
}

TEST(DataTypeStructured, FieldNamesAreEscaped) {
  const DataType t = dtype("[[\"q\\\"uote\",\"<i4\"],[\"caf\xc3\xa9\",\"|u1\"]]");
  EXPECT_EQ(t.fields()[0].name, "q\"uote");
  EXPECT_EQ(t.fields()[1].name, "caf\xc3\xa9");
  EXPECT_EQ(dtype(t.to_v2_json()).fields()[0].name, "q\"uote");
}

TEST(DataTypeStructured, Equality) {
  EXPECT_TRUE(dtype("[[\"a\",\"<i4\"]]") == dtype("[[\"a\",\"<i4\",[]]]"));
  EXPECT_TRUE(dtype("[[\"a\",\"<i4\"]]") != dtype("[[\"a\",\">i4\"]]"));
  EXPECT_TRUE(dtype("\"<i4\"") != dtype("\"<u4\""));
}

// ---- byte order ---------------------------------------------------------------

bool host_big() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 0;
}

TEST(DataTypeSwap, NeedsByteSwap) {
  // The stored order differs from the host's only for one of '<' / '>'.
  const char* foreign = host_big() ? "<" : ">";
  const char* own = host_big() ? ">" : "<";
  for (const char* k : {"i2", "i4", "i8", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16", "M8[ns]", "m8", "U1"}) {
    SCOPED_TRACE(k);
    EXPECT_TRUE(dtype(json::quote(std::string(foreign) + k)).needs_byte_swap());
    EXPECT_FALSE(dtype(json::quote(std::string(own) + k)).needs_byte_swap());
  }
  for (const char* t : {"|b1", "|i1", "|u1", ">i1", "|S8", "|V8", "|O"}) {
    SCOPED_TRACE(t);
    EXPECT_FALSE(dtype(json::quote(t)).needs_byte_swap());
  }
  const std::string f = foreign;
  EXPECT_TRUE(dtype("[[\"a\",\"|u1\"],[\"b\",[[\"c\",\"" + f + "i2\"]]]]").needs_byte_swap());
  EXPECT_FALSE(dtype("[[\"a\",\"|u1\"],[\"b\",\"|S4\",[3]]]").needs_byte_swap());
}

// Stored big-endian bytes become the native value (checked through memcpy so
// the test holds on either host).
template <typename T>
T swapped_value(const char* typestr, Bytes bytes) {
  const DataType t = dtype(json::quote(typestr));
  t.swap_in_place(bytes.data(), 1);
  T value;
  std::memcpy(&value, bytes.data(), sizeof value);
  return value;
}

TEST(DataTypeSwap, BigEndianBecomesNative) {
  EXPECT_EQ(swapped_value<int16_t>(">i2", {0xff, 0xfe}), -2);
  EXPECT_EQ(swapped_value<uint16_t>(">u2", {0x01, 0x02}), 0x0102);
  EXPECT_EQ(swapped_value<int32_t>(">i4", {0x00, 0x01, 0x02, 0x03}), 0x00010203);
  EXPECT_EQ(swapped_value<uint32_t>(">u4", {0xee, 0x6b, 0x28, 0x00}), 4000000000u);
  EXPECT_EQ(swapped_value<int64_t>(">i8", {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}), -2);
  EXPECT_EQ(swapped_value<uint64_t>(">u8", {1, 2, 3, 4, 5, 6, 7, 8}), 0x0102030405060708u);
  EXPECT_EQ(swapped_value<uint16_t>(">f2", {0x3e, 0x00}), 0x3e00);  // 1.5 as a half
  EXPECT_EQ(swapped_value<float>(">f4", {0x40, 0x50, 0x00, 0x00}), 3.25f);
  EXPECT_EQ(swapped_value<double>(">f8", {0x3f, 0xf0, 0, 0, 0, 0, 0, 0}), 1.0);
  EXPECT_EQ(swapped_value<int64_t>(">M8[ns]", {0, 0, 0, 0, 0, 0, 1, 0}), 256);
  EXPECT_EQ(swapped_value<int64_t>(">m8[s]", {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb}), -5);
}

TEST(DataTypeSwap, ComplexSwapsEachHalf) {
  Bytes b = {0x3f, 0x80, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00};  // 1 + 2j as >c8
  dtype("\">c8\"").swap_in_place(b.data(), 1);
  float parts[2];
  std::memcpy(parts, b.data(), 8);
  EXPECT_EQ(parts[0], 1.0f);
  EXPECT_EQ(parts[1], 2.0f);
}

TEST(DataTypeSwap, UnicodeSwapsEachCodeUnit) {
  Bytes b = {0, 0, 0, 'h', 0, 0, 0, 'i', 0, 1, 0xf6, 0};  // "hi😀" as >U3
  dtype("\">U3\"").swap_in_place(b.data(), 1);
  uint32_t units[3];
  std::memcpy(units, b.data(), 12);
  EXPECT_EQ(units[0], uint32_t{'h'});
  EXPECT_EQ(units[1], uint32_t{'i'});
  EXPECT_EQ(units[2], 0x1f600u);
}

TEST(DataTypeSwap, ManyItemsAndSelfInverse) {
  const DataType t = dtype("\">i4\"");
  Bytes b;
  for (uint32_t i = 0; i < 1000; ++i) {
    for (int k = 3; k >= 0; --k) b.push_back(static_cast<uint8_t>(i >> (8 * k)));
  }
  const Bytes original = b;
  t.swap_in_place(b.data(), 1000);
  for (uint32_t i = 0; i < 1000; ++i) {
    uint32_t v;
    std::memcpy(&v, b.data() + 4 * i, 4);
    ASSERT_EQ(v, i);
  }
  t.swap_in_place(b.data(), 1000);
  EXPECT_EQ(b, original);
}

TEST(DataTypeSwap, ByteTypesAreUntouched) {
  for (const char* t : {"|S4", "|V4", "|b1", "|i1", "|u1"}) {
    Bytes b = {1, 2, 3, 4};
    dtype(json::quote(t)).swap_in_place(b.data(), 4 / dtype(json::quote(t)).item_size());
    EXPECT_EQ(b, (Bytes{1, 2, 3, 4})) << t;
  }
}

TEST(DataTypeSwap, NativeOrderIsUntouched) {
  const char* own = host_big() ? ">" : "<";
  Bytes b = {1, 2, 3, 4, 5, 6, 7, 8};
  dtype(json::quote(std::string(own) + "f8")).swap_in_place(b.data(), 1);
  dtype(json::quote(std::string(own) + "c8")).swap_in_place(b.data(), 1);
  EXPECT_EQ(b, (Bytes{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(DataTypeSwap, StructuredFieldByField) {
  // a: >i2, b: |S2, c: >u4 x2, d: { e: >f4, f: <i2 (left alone) }, 2 records.
  const DataType t = dtype("[[\"a\",\">i2\"],[\"b\",\"|S2\"],[\"c\",\">u4\",[2]],[\"d\",[[\"e\",\">f4\"],[\"f\",\"<i2\"]]]]");
  ASSERT_EQ(t.item_size(), 2u + 2u + 8u + 6u);
  Bytes rec = {0x00, 0x07, 'x', 'y', 0, 0, 0, 1, 0, 0, 1, 0, 0x40, 0x50, 0x00, 0x00, 0x05, 0x00};
  Bytes data = rec;
  data.insert(data.end(), rec.begin(), rec.end());
  t.swap_in_place(data.data(), 2);
  for (size_t r = 0; r < 2; ++r) {
    const uint8_t* p = data.data() + r * 18;
    int16_t a;
    uint32_t c[2];
    float e;
    std::memcpy(&a, p, 2);
    std::memcpy(c, p + 4, 8);
    std::memcpy(&e, p + 12, 4);
    EXPECT_EQ(a, 7);
    EXPECT_EQ(p[2], 'x');
    EXPECT_EQ(p[3], 'y');
    EXPECT_EQ(c[0], 1u);
    EXPECT_EQ(c[1], 256u);
    EXPECT_EQ(e, 3.25f);
    if (!host_big()) {
      EXPECT_EQ(p[16], 0x05);  // already little-endian: unchanged
      EXPECT_EQ(p[17], 0x00);
    }
  }
}

// ---- errors -------------------------------------------------------------------

void parse_text(const std::string& json_text) { (void)dtype(json_text); }

TEST(DataTypeErrors, WrongJsonType) {
  for (const char* text : {"42", "null", "true", "{\"a\":1}", "1.5"}) {
    SCOPED_TRACE(text);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse_text(text); }, {kWhere, text});
  }
}

TEST(DataTypeErrors, MalformedTypestrs) {
  // Each is malformed: ZARR_ERR_INVALID_METADATA naming where and the value.
  const char* bad[] = {
      "",         "<",          "i4",         "=i4",        " <i4",      "<i4 ",      "<4",        "<?4",
      "<i",       "<i4x",       "<i+4",       "|S-1",       "<i3",       "<i16",      "<u16",      "|b2",
      "<f1",      "<f3",        "<c4",        "<M4[ns]",    "<m4",       "|O4",       "|S0",       "<U0",
      "|V0",      "|S00",       "|S2147483648", "<U1073741824", "|S99999999999999999999", "<i4[ns]",
      "|S5[s]",   "<M8[B]",     "<M8[]",      "<M8[0ns]",   "<M8[-1ms]", "<M8[ns",    "<M8[ ns]",  "<M8[ns/2]",
      "<M8[generic]", "<M8ns",  "|i4",        "|U3",        "|M8[ns]",   "|c8",       "|f2",       "<M8[10]",
  };
  for (const char* s : bad) {
    SCOPED_TRACE(s);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse_text(json::quote(s)); }, {kWhere, json::quote(s)});
  }
}

TEST(DataTypeErrors, UnknownButWellFormedIsUnsupported) {
  for (const char* s : {"<x4", "<q8", "|a5", "<f16", "<c32", ">f16", "bfloat16", "float8_e6m1", "float8_e3m5", "complex_float16"}) {
    SCOPED_TRACE(s);
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { parse_text(json::quote(s)); }, {kWhere, s});
  }
}

TEST(DataTypeErrors, MalformedFieldLists) {
  struct Case {
    const char* json;
    const char* names;  // a piece the message must contain
  };
  const Case cases[] = {
      {"[]", "at least one field"},
      {"[\"a\"]", "[name, type]"},
      {"[[\"a\"]]", "[\"a\"]"},
      {"[[\"a\",\"<i4\",[1],4]]", "[\"a\",\"<i4\",[1],4]"},
      {"[[1,\"<i4\"]]", "field name"},
      {"[[null,\"<i4\"]]", "null"},
      {"[[\"a\",\"<i4\"],[\"a\",\"<f8\"]]", "duplicate field name \"a\""},
      {"[[\"f1\",\"<i4\"],[\"\",\"<f8\"]]", "duplicate field name \"f1\""},
      {"[[\"a\",\"<i3\"]]", "field \"a\""},
      {"[[\"a\",5]]", "field \"a\""},
      {"[[\"a\",[]]]", "at least one field"},
      {"[[\"a\",\"<i4\",\"x\"]]", "shape \"x\""},
      {"[[\"a\",\"<i4\",[-1]]]", "shape [-1]"},
      {"[[\"a\",\"<i4\",[1.5]]]", "shape [1.5]"},
      {"[[\"a\",\"<i4\",[2,0]]]", "zero dimension"},
      {"[[\"a\",\"<i4\",-2]]", "shape -2"},
      {"[[\"a\",\"<i4\",[65536,65536]]]", "too large"},
      {"[[\"a\",\"|S2147483647\"],[\"b\",\"|u1\"]]", "too large"},
      {"[[\"a\",[[\"b\",[[\"c\",\"|S0\"]]]]]]", "field \"c\""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.json);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse_text(c.json); }, {kWhere, c.names});
  }
}

TEST(DataTypeErrors, UnsupportedFieldForms) {
  // numpy's (title, name) pairs and unknown kinds inside fields.
  expect_error(ZARR_ERR_UNSUPPORTED, [] { parse_text("[[[\"title\",\"a\"],\"<i4\"]]"); }, {kWhere, "titles"});
  expect_error(ZARR_ERR_UNSUPPORTED, [] { parse_text("[[\"a\",\"<f16\"]]"); }, {kWhere, "field \"a\""});
}

}  // namespace
}  // namespace zarr::test

TEST(DataTypeByteOrder, WithByteOrderChangesOrderedComponentsOnly) {
  rapidjson::Document d;
  d.Parse("[[\"a\", \"<i2\"], [\"b\", \"|S2\"], [\"c\", \">f4\", [2]]]");
  zarr::DataType rec = zarr::DataType::parse_v2(d, "t");
  zarr::DataType big = rec.with_byte_order(true);
  EXPECT_EQ(big.to_v2_json(), "[[\"a\",\">i2\"],[\"b\",\"|S2\"],[\"c\",\">f4\",[2]]]");
  EXPECT_TRUE(big.needs_byte_swap());
  EXPECT_FALSE(rec.with_byte_order(false).needs_byte_swap());
  EXPECT_EQ(zarr::DataType::from_typestr("|u1", "t").with_byte_order(true).to_v2_json(), "\"|u1\"");
  EXPECT_EQ(zarr::DataType::from_typestr("<M8[ns]", "t").with_byte_order(true).to_v2_json(), "\">M8[ns]\"");
}
