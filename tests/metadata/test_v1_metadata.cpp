#include <gtest/gtest.h>

#include <cstring>

#include "base/error.h"
#include "metadata/v1_metadata.h"

using namespace zarr;

TEST(V1Metadata, ParsesTheDocumentedExample) {
  // The example of the v1 persistence spec.
  const char* meta =
      "{\"chunks\": [10000, 100], \"compression\": \"blosc\", \"compression_opts\": {\"clevel\": 3, \"cname\": "
      "\"lz4\", \"shuffle\": 1}, \"dtype\": \"<i4\", \"fill_value\": 42, \"order\": \"C\", \"shape\": [1000000, "
      "1000], \"zarr_format\": 1}";
  ArrayMetadata m = parse_v1_array_metadata(meta, "meta");
  EXPECT_EQ(m.zarr_format, 1);
  EXPECT_EQ(m.shape, (std::vector<uint64_t>{1000000, 1000}));
  EXPECT_EQ(m.key_encoding.separator, '.');
  int32_t fill;
  std::memcpy(&fill, m.fill_value->data(), 4);
  EXPECT_EQ(fill, 42);
  EXPECT_EQ(v1_compressor_as_v2_json(meta, "meta"),
            "{\"id\":\"blosc\",\"clevel\":3,\"cname\":\"lz4\",\"shuffle\":1}");
}

TEST(V1Metadata, CompressionSpellings) {
  auto conv = [](const char* fields) {
    return v1_compressor_as_v2_json(std::string("{") + fields + "}", "meta");
  };
  EXPECT_EQ(conv("\"compression\": \"none\""), "null");
  EXPECT_EQ(conv("\"compression\": null"), "null");
  EXPECT_EQ(conv(""), "null");
  EXPECT_EQ(conv("\"compression\": \"zlib\", \"compression_opts\": 1"), "{\"id\":\"zlib\",\"level\":1}");
  EXPECT_EQ(conv("\"compression\": \"bz2\", \"compression_opts\": 9"), "{\"id\":\"bz2\",\"level\":9}");
  EXPECT_EQ(conv("\"compression\": \"zlib\", \"compression_opts\": null"), "{\"id\":\"zlib\"}");
}

TEST(V1Metadata, ErrorsNameTheField) {
  auto code_and_message = [](const std::string& doc) -> std::pair<int, std::string> {
    try {
      parse_v1_array_metadata(doc, "a/meta");
    } catch (const Error& e) {
      return {e.code(), e.what()};
    }
    return {ZARR_OK, ""};
  };
  auto [c1, m1] = code_and_message("{\"zarr_format\": 2, \"shape\": [1], \"chunks\": [1], \"dtype\": \"<i4\", \"fill_value\": 0}");
  EXPECT_EQ(c1, ZARR_ERR_INVALID_METADATA);
  EXPECT_NE(m1.find("'zarr_format' must be 1"), std::string::npos) << m1;
  auto [c2, m2] = code_and_message("{\"zarr_format\": 1, \"shape\": [1], \"dtype\": \"<i4\", \"fill_value\": 0}");
  EXPECT_EQ(c2, ZARR_ERR_INVALID_METADATA);
  EXPECT_NE(m2.find("'chunks'"), std::string::npos) << m2;
  EXPECT_NE(m2.find("a/meta"), std::string::npos) << m2;
  auto [c3, m3] = code_and_message(
      "{\"zarr_format\": 1, \"shape\": [1], \"chunks\": [1], \"dtype\": \"<i4\", \"fill_value\": 0, "
      "\"compression\": \"snappy\"}");
  EXPECT_EQ(c3, ZARR_ERR_UNSUPPORTED);
  EXPECT_NE(m3.find("snappy"), std::string::npos) << m3;
}
