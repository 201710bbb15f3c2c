#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "base/error.h"
#include "base/json.h"
#include "metadata/v2_metadata.h"
#include "zarr_config.h"

using namespace zarr;

namespace {

int code_of(const std::function<void()>& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.code();
  }
  return ZARR_OK;
}

// What zarr-python 2.13.6 wrote for
//   zarr.open(shape=(100, 50), chunks=(10, 7), dtype='>f8', fill_value=nan, order='F',
//             compressor=Zlib(level=3), dimension_separator='/')
const char* kZarrPythonF8 =
    "{\n    \"chunks\": [\n        10,\n        7\n    ],\n    \"compressor\": {\n        \"id\": \"zlib\",\n"
    "        \"level\": 3\n    },\n    \"dimension_separator\": \"/\",\n    \"dtype\": \">f8\",\n"
    "    \"fill_value\": \"NaN\",\n    \"filters\": null,\n    \"order\": \"F\",\n    \"shape\": [\n        100,\n"
    "        50\n    ],\n    \"zarr_format\": 2\n}";

// ... and for shape=(3,), chunks=(2,), dtype='<i2', compressor=Blosc('zstd', 2, shuffle=2).
const char* kZarrPythonBlosc =
    "{\n    \"chunks\": [\n        2\n    ],\n    \"compressor\": {\n        \"blocksize\": 0,\n        \"clevel\": 2,\n"
    "        \"cname\": \"zstd\",\n        \"id\": \"blosc\",\n        \"shuffle\": 2\n    },\n    \"dtype\": \"<i2\",\n"
    "    \"fill_value\": 0,\n    \"filters\": null,\n    \"order\": \"C\",\n    \"shape\": [\n        3\n    ],\n"
    "    \"zarr_format\": 2\n}";

}  // namespace

TEST(V2Metadata, ParsesEveryField) {
  ArrayMetadata m = parse_v2_array_metadata(kZarrPythonF8, ".zarray");
  EXPECT_EQ(m.shape, (std::vector<uint64_t>{100, 50}));
  EXPECT_EQ(m.chunks, (std::vector<uint64_t>{10, 7}));
  EXPECT_EQ(m.dtype.item_size(), 8u);
  EXPECT_TRUE(m.dtype.big_endian());
  EXPECT_EQ(m.order, 'F');
  EXPECT_EQ(m.key_encoding.separator, '/');
  ASSERT_TRUE(m.fill_value.has_value());
  double fill;
  std::memcpy(&fill, m.fill_value->data(), 8);
  EXPECT_TRUE(std::isnan(fill));
  ASSERT_TRUE(m.v2_compressor);
  EXPECT_EQ(m.v2_compressor->id(), "zlib");
  EXPECT_EQ(m.chunk_bytes(), 10u * 7u * 8u);
}

TEST(V2Metadata, SerialisesByteIdenticallyToZarrPython) {
  EXPECT_EQ(serialize_v2_array_metadata(parse_v2_array_metadata(kZarrPythonF8, "a")), kZarrPythonF8);
#if ZARR_HAVE_BLOSC
  EXPECT_EQ(serialize_v2_array_metadata(parse_v2_array_metadata(kZarrPythonBlosc, "b")), kZarrPythonBlosc);
#endif
}

TEST(V2Metadata, UnknownKeysAreIgnored) {
  std::string doc = std::string(kZarrPythonF8);
  doc.insert(1, "\"x_extension\": {\"anything\": [1]}, ");
  EXPECT_EQ(parse_v2_array_metadata(doc, "a").shape[0], 100u);
}

TEST(V2Metadata, StoredDocumentsNeedEveryField) {
  for (const char* field : {"zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters"}) {
    SCOPED_TRACE(field);
    rapidjson::Document doc;
    doc.Parse(kZarrPythonF8);
    doc.RemoveMember(field);
    std::string message;
    EXPECT_EQ(code_of([&] { parse_v2_array_metadata(json::to_string(doc), "x/.zarray"); }, &message),
              ZARR_ERR_INVALID_METADATA);
    EXPECT_NE(message.find(std::string("'") + field + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("x/.zarray"), std::string::npos) << message;
  }
}

TEST(V2Metadata, CreateFormFillsZarrPythonDefaults) {
  ArrayMetadata m = parse_v2_array_metadata_for_create("{\"shape\": [7, 0], \"dtype\": \"<u2\"}", "new");
  EXPECT_EQ(m.chunks, (std::vector<uint64_t>{7, 1}));
  EXPECT_EQ(m.order, 'C');
  EXPECT_EQ(m.key_encoding.separator, '.');
  EXPECT_EQ(*m.fill_value, (Bytes{0, 0}));
  EXPECT_TRUE(m.v2_filters.empty());
#if ZARR_HAVE_BLOSC
  ASSERT_TRUE(m.v2_compressor);
  EXPECT_NE(m.v2_compressor->config_json().find("lz4"), std::string::npos);
#else
  EXPECT_FALSE(m.v2_compressor);
#endif
}

TEST(V2Metadata, BadValuesNameTheField) {
  struct Case {
    const char* doc;
    int code;
    const char* fragment;
  } cases[] = {
      {"{\"shape\": [2], \"dtype\": \"<i4\", \"order\": \"K\"}", ZARR_ERR_INVALID_METADATA, "'order'"},
      {"{\"shape\": [2], \"dtype\": \"<i4\", \"dimension_separator\": \"-\"}", ZARR_ERR_INVALID_METADATA,
       "'dimension_separator'"},
      {"{\"shape\": [2], \"dtype\": \"<i4\", \"zarr_format\": \"2\"}", ZARR_ERR_INVALID_METADATA, "'zarr_format'"},
      {"{\"shape\": [2], \"dtype\": \"<i4\", \"chunks\": [1.5]}", ZARR_ERR_INVALID_METADATA, "'chunks' item 0"},
      {"{\"shape\": [2], \"dtype\": \"<i4\", \"filters\": [3]}", ZARR_ERR_INVALID_METADATA, "'filters' item 0"},
      {"{\"shape\": [2], \"dtype\": \"<i4\", \"compressor\": []}", ZARR_ERR_INVALID_METADATA, "'compressor'"},
      {"{\"shape\": [2], \"dtype\": \"<i4\", \"compressor\": {\"id\": \"zlib\", \"level\": 42}}",
       ZARR_ERR_INVALID_METADATA, "'compressor'"},
      {"{\"shape\": [2], \"dtype\": [[\"a\", \"|O\"]]}", ZARR_ERR_UNSUPPORTED, "object"},
      {"{\"shape\": [18446744073709551615, 2], \"dtype\": \"<i4\", \"chunks\": [1, 1]}", ZARR_ERR_INVALID_METADATA,
       "overflows"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.doc);
    std::string message;
    EXPECT_EQ(code_of([&] { parse_v2_array_metadata_for_create(c.doc, "doc"); }, &message), c.code);
    EXPECT_NE(message.find(c.fragment), std::string::npos) << message;
  }
}

TEST(V2Metadata, GroupDocuments) {
  EXPECT_EQ(code_of([] { validate_v2_group_metadata(v2_group_document(), ".zgroup"); }), ZARR_OK);
  EXPECT_EQ(code_of([] { validate_v2_group_metadata("{}", ".zgroup"); }), ZARR_ERR_INVALID_METADATA);
  EXPECT_EQ(code_of([] { validate_v2_group_metadata("{\"zarr_format\": 3}", ".zgroup"); }), ZARR_ERR_INVALID_METADATA);
}

TEST(CodecChain, RejectsChunksThatDecodeToTheWrongSize) {
  ArrayMetadata m = parse_v2_array_metadata_for_create("{\"shape\": [4], \"dtype\": \"|u1\", \"compressor\": null}", "m");
  EXPECT_EQ(m.codecs.decode(ByteView(std::string("abcd")), "k").size(), 4u);
  std::string message;
  EXPECT_EQ(code_of([&] { m.codecs.decode(ByteView(std::string("abc")), "a/0.0"); }, &message), ZARR_ERR_CODEC);
  EXPECT_NE(message.find("'a/0.0'"), std::string::npos) << message;
  EXPECT_NE(message.find("expected 4"), std::string::npos) << message;
}

TEST(CodecChain, FortranOrderAndBigEndianAreCodecs) {
  ArrayMetadata m = parse_v2_array_metadata_for_create(
      "{\"shape\": [2, 3], \"dtype\": \">u2\", \"order\": \"F\", \"compressor\": null}", "m");
  ASSERT_EQ(m.codecs.array_to_array().size(), 1u);
  EXPECT_EQ(m.codecs.array_to_array()[0]->v3_config_json(), "{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}}");
  std::vector<uint16_t> c_order = {1, 2, 3, 4, 5, 6};
  Bytes native(reinterpret_cast<uint8_t*>(c_order.data()), reinterpret_cast<uint8_t*>(c_order.data()) + 12);
  Bytes stored = m.codecs.encode_bytes(native);
  EXPECT_EQ(stored, (Bytes{0, 1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6}));  // column-major, big-endian
  EXPECT_EQ(m.codecs.decode(stored, "k"), native);
}
