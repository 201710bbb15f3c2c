// zarrs' experimental "optional" data type and codec through the C API:
// the two zarrs fixtures read to the grids their descriptions give, writes
// refused unless ZARR_EXPERIMENTAL_OPTIONAL=1, round trips (byte-identical to
// zarrs' chunks), fill values, and hostile chunk bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "capi_helpers.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

namespace zarr::test {
namespace {

namespace fs = std::filesystem;

const char* const kFlag = "ZARR_EXPERIMENTAL_OPTIONAL";
const char* const kFlat = "zarrs-data/v3/array_optional.zarr/array";
const char* const kNested = "zarrs-data/v3/array_optional_nested.zarr/array";

// One element of optional<uint8> or optional<optional<uint8>> as the
// caller's buffer holds it: flag byte(s), then the value.
using Element = std::vector<uint8_t>;

// A description's grid cell: "N" (missing), "SN" (Some(None)) or a number,
// for `depth` levels of optional around uint8.
Element element_of(const std::string& cell, int depth) {
  Element e(static_cast<size_t>(depth) + 1, 0);
  if (cell == "N") return e;
  if (cell == "SN") {
    e[0] = 1;
    return e;
  }
  for (int i = 0; i < depth; ++i) e[static_cast<size_t>(i)] = 1;
  e.back() = static_cast<uint8_t>(std::stoi(cell));
  return e;
}

bool is_cell(const std::string& token) {
  if (token == "N" || token == "SN") return true;
  return !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
}

// The rows of the grid in attributes.description: the lines made only of
// cells, `width` of them.
std::vector<Element> description_grid(const std::string& description, size_t width, int depth) {
  std::vector<Element> out;
  std::istringstream lines(description);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::vector<std::string> cells;
    std::string word;
    bool grid_line = true;
    while (words >> word) {
      grid_line = grid_line && is_cell(word);
      cells.push_back(word);
    }
    if (!grid_line || cells.size() != width) continue;
    for (const std::string& cell : cells) out.push_back(element_of(cell, depth));
  }
  return out;
}

std::string description_of(zarr_array* a) {
  char* json = nullptr;
  EXPECT_EQ(zarr_get_attributes(a, &json), ZARR_OK);
  rapidjson::Document doc;
  doc.Parse(json);
  zarr_free(json);
  return doc["description"].GetString();
}

std::vector<Element> read_elements(zarr_array* a, std::vector<uint64_t> start, std::vector<uint64_t> count) {
  const size_t item = zarr_item_size(a);
  size_t n = 1;
  for (uint64_t c : count) n *= c;
  std::vector<uint8_t> bytes(n * item);
  const int status = zarr_read_region(a, start.size(), start.data(), count.data(), bytes.data(), bytes.size());
  EXPECT_EQ(status, ZARR_OK) << status_text(status);
  std::vector<Element> out;
  for (size_t i = 0; i < n; ++i) out.emplace_back(bytes.begin() + i * item, bytes.begin() + (i + 1) * item);
  return out;
}

std::vector<uint8_t> flatten(const std::vector<Element>& elements) {
  std::vector<uint8_t> out;
  for (const Element& e : elements) out.insert(out.end(), e.begin(), e.end());
  return out;
}

// A writable copy of a fixture in `tmp` (the corpus is read-only).
std::string copy_fixture(const TempDir& tmp, const char* fixture) {
  const std::string to = tmp / "copy.zarr";
  fs::copy(peer_data_dir() + "/" + fixture, to, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(to)) {
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  return to;
}

#define SKIP_WITHOUT_PEER_DATA() \
  if (peer_data_dir().empty()) GTEST_SKIP() << "no peer data: expected " << peer_data_expected_location()

TEST(Optional, FixturesReadAsTheirDescriptionsSay) {
  SKIP_WITHOUT_PEER_DATA();
  for (const auto& [fixture, depth] : {std::pair{kFlat, 1}, std::pair{kNested, 2}}) {
    SCOPED_TRACE(fixture);
    ArrayPtr a = open_array(peer_data_dir() + "/" + fixture);
    ASSERT_EQ(zarr_item_size(a), static_cast<size_t>(depth) + 1);
    const std::vector<Element> expected = description_grid(description_of(a), 4, depth);
    ASSERT_EQ(expected.size(), 16u);
    EXPECT_EQ(read_elements(a, {0, 0}, {4, 4}), expected);
    // A region inside one chunk and one across all four.
    EXPECT_EQ(read_elements(a, {1, 1}, {1, 1}), std::vector<Element>{expected[5]});
    const std::vector<Element> middle = read_elements(a, {1, 1}, {2, 2});
    EXPECT_EQ(middle, (std::vector<Element>{expected[5], expected[6], expected[9], expected[10]}));
  }
}

TEST(Optional, DataTypeIsReportedAsZarrsWritesIt) {
  SKIP_WITHOUT_PEER_DATA();
  ArrayPtr a = open_array(peer_data_dir() + "/" + kNested);
  EXPECT_STREQ(zarr_data_type(a), R"({"name":"optional","configuration":{"name":"optional","configuration":)"
                                  R"({"name":"uint8","configuration":{}}}})");
}

// The flat fixture's metadata with another data type, fill value and codecs.
std::string metadata(const std::string& data_type, const std::string& fill, const std::string& data_codecs,
                     const std::string& mask_codecs = R"([{"name":"packbits"}])") {
  return R"({"zarr_format":3,"node_type":"array","shape":[4,4],"data_type":)" + data_type +
         R"(,"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[2,2]}},)"
         R"("chunk_key_encoding":{"name":"default","configuration":{"separator":"/"}},"fill_value":)" + fill +
         R"(,"codecs":[{"name":"optional","configuration":{"mask_codecs":)" + mask_codecs +
         R"(,"data_codecs":)" + data_codecs + "}}]}";
}

const std::string kOptionalUint8 = R"({"name":"optional","configuration":{"name":"uint8","configuration":{}}})";
const std::string kBytes = R"([{"name":"bytes","configuration":{"endian":"little"}}])";

TEST(Optional, WritingIsRefusedUnlessTheFlagIsSet) {
  SKIP_WITHOUT_PEER_DATA();
  EnvironmentGuard env;
  env.unset(kFlag);
  TempDir tmp;
  zarr_array* created = nullptr;
  EXPECT_STATUS(zarr_create(&created, (tmp / "new").c_str(), metadata(kOptionalUint8, "null", kBytes).c_str()),
                ZARR_ERR_UNSUPPORTED, "set ZARR_EXPERIMENTAL_OPTIONAL=1");
  EXPECT_FALSE(fs::exists(tmp / "new"));
  env.set(kFlag, "yes");  // only "1" enables it
  EXPECT_STATUS(zarr_create(&created, (tmp / "new").c_str(), metadata(kOptionalUint8, "null", kBytes).c_str()),
                ZARR_ERR_UNSUPPORTED, "experimental \"optional\"");
  zarr_close(created);

  // An existing array opens for writing, but no chunk is written.
  env.unset(kFlag);
  const std::string copy = copy_fixture(tmp, kFlat);
  ArrayPtr a = open_array(copy, "r+");
  const std::vector<uint8_t> one = {1, 9};
  const uint64_t start[] = {0, 0}, count[] = {1, 1};
  EXPECT_STATUS(zarr_write_region(a, 2, start, count, one.data(), one.size()), ZARR_ERR_UNSUPPORTED,
                "ZARR_EXPERIMENTAL_OPTIONAL");
  EXPECT_EQ(read_file(copy + "/c/0/0"), read_file(peer_data_dir() + "/" + kFlat + "/c/0/0"));
}

// Written with the flag, the fixtures' grids give zarrs' chunks byte for byte.
TEST(Optional, WritesZarrsChunksByteForByte) {
  SKIP_WITHOUT_PEER_DATA();
  EnvironmentGuard env;
  env.set(kFlag, "1");
  for (const auto& [fixture, depth] : {std::pair{kFlat, 1}, std::pair{kNested, 2}}) {
    SCOPED_TRACE(fixture);
    const std::string source = peer_data_dir() + "/" + fixture;
    ArrayPtr original = open_array(source);
    const std::vector<Element> grid = description_grid(description_of(original), 4, depth);
    const Bytes meta = read_file(source + "/zarr.json");
    TempDir tmp;
    ArrayPtr a = create_array(tmp / "a", std::string(meta.begin(), meta.end()));
    const std::vector<uint8_t> data = flatten(grid);
    const uint64_t start[] = {0, 0}, count[] = {4, 4};
    ASSERT_OK(zarr_write_region(a, 2, start, count, data.data(), data.size()));
    EXPECT_EQ(read_elements(a, {0, 0}, {4, 4}), grid);
    for (const char* chunk : {"c/0/0", "c/0/1", "c/1/0", "c/1/1"}) {
      SCOPED_TRACE(chunk);
      const std::string written = tmp / ("a/" + std::string(chunk));
      EXPECT_EQ(fs::exists(written), fs::exists(source + "/" + chunk));
      if (fs::exists(source + "/" + chunk)) {
        EXPECT_EQ(read_file(written), read_file(source + "/" + chunk));
      }
    }
  }
}

// optional<int32> with compressed mask and data, a fill value that is
// present, and a partial write over it.
TEST(Optional, RoundTripsWithCompressorsAndAPresentFillValue) {
  EnvironmentGuard env;
  env.set(kFlag, "1");
  TempDir tmp;
  const std::string type = R"({"name":"optional","configuration":{"name":"int32","configuration":{}}})";
  ArrayPtr a = create_array(tmp / "a", metadata(type, "[-7]", R"([{"name":"bytes","configuration":{"endian":"big"}},)"
                                                             R"({"name":"gzip","configuration":{"level":1}}])",
                                               R"([{"name":"packbits"},{"name":"zstd","configuration":{"level":3}}])"));
  const auto element = [](bool present, int32_t v) {
    Element e(5, 0);
    e[0] = present ? 1 : 0;
    if (present) std::memcpy(e.data() + 1, &v, 4);
    return e;
  };
  // Untouched elements read as the fill value: present, -7.
  EXPECT_EQ(read_elements(a, {3, 3}, {1, 1}), std::vector<Element>{element(true, -7)});
  std::vector<Element> region;
  for (int i = 0; i < 9; ++i) region.push_back(element(i % 3 != 0, i * 100000 - 3));
  const std::vector<uint8_t> data = flatten(region);
  const uint64_t start[] = {1, 1}, count[] = {3, 3};
  ASSERT_OK(zarr_write_region(a, 2, start, count, data.data(), data.size()));
  EXPECT_EQ(read_elements(a, {1, 1}, {3, 3}), region);
  EXPECT_EQ(read_elements(a, {0, 0}, {1, 1}), std::vector<Element>{element(true, -7)});
  ArrayPtr again = open_array(tmp / "a");
  EXPECT_EQ(read_elements(again, {1, 1}, {3, 3}), region);
  // A chunk where every element is missing is stored with empty data.
  std::vector<uint8_t> missing(4 * 5, 0);
  const uint64_t corner[] = {0, 0}, two[] = {2, 2};
  ASSERT_OK(zarr_write_region(a, 2, corner, two, missing.data(), missing.size()));
  EXPECT_EQ(read_elements(a, {0, 0}, {2, 2}), std::vector<Element>(4, element(false, 0)));
}

TEST(Optional, FillValueForms) {
  EnvironmentGuard env;
  env.set(kFlag, "1");
  const std::string nested =
      R"({"name":"optional","configuration":{"name":"optional","configuration":{"name":"uint8","configuration":{}}}})";
  const std::string nested_codecs =
      R"([{"name":"optional","configuration":{"mask_codecs":[{"name":"packbits"}],"data_codecs":)" + kBytes + "}}]";
  struct Case {
    std::string type, fill, codecs;
    Element element;
  };
  const Case cases[] = {
      {kOptionalUint8, "null", kBytes, {0, 0}},
      {kOptionalUint8, "[42]", kBytes, {1, 42}},
      {nested, "null", nested_codecs, {0, 0, 0}},
      {nested, "[null]", nested_codecs, {1, 0, 0}},
      {nested, "[[42]]", nested_codecs, {1, 1, 42}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fill);
    TempDir tmp;
    ArrayPtr a = create_array(tmp / "a", metadata(c.type, c.fill, c.codecs));
    EXPECT_EQ(read_elements(a, {2, 3}, {1, 1}), std::vector<Element>{c.element});
    char* json = nullptr;
    ASSERT_OK(zarr_get_metadata(a, &json));
    std::string compact(json);  // pretty-printed: compare without the layout
    compact.erase(std::remove_if(compact.begin(), compact.end(), [](char ch) { return std::isspace(ch) != 0; }),
                  compact.end());
    EXPECT_NE(compact.find("\"fill_value\":" + c.fill + ","), std::string::npos) << json;
    zarr_free(json);
  }
  for (const char* bad : {"42", "[]", "[1,2]", "[300]", "\"x\""}) {
    SCOPED_TRACE(bad);
    TempDir tmp;
    zarr_array* a = nullptr;
    EXPECT_STATUS(zarr_create(&a, (tmp / "a").c_str(), metadata(kOptionalUint8, bad, kBytes).c_str()),
                  ZARR_ERR_INVALID_METADATA, "fill_value");
    zarr_close(a);
  }
}

TEST(Optional, MetadataErrorsNameTheField) {
  EnvironmentGuard env;
  env.set(kFlag, "1");
  struct Case {
    std::string type, codecs;
    int code;
    const char* says;
  };
  const std::string with_bytes = R"([{"name":"bytes","configuration":{"endian":"little"}}])";
  const Case cases[] = {
      {R"({"name":"optional"})", with_bytes, ZARR_ERR_INVALID_METADATA, "needs a \"configuration\""},
      {R"({"name":"optional","configuration":{}})", with_bytes, ZARR_ERR_INVALID_METADATA, "\"name\" (the inner data type)"},
      {R"({"name":"optional","configuration":{"name":"float9"}})", with_bytes, ZARR_ERR_UNSUPPORTED, "\"float9\""},
      {R"({"name":"optional","configuration":{"name":"string"}})", with_bytes, ZARR_ERR_UNSUPPORTED, "no fixed size"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.type);
    TempDir tmp;
    zarr_array* a = nullptr;
    EXPECT_STATUS(zarr_create(&a, (tmp / "a").c_str(), metadata(c.type, "null", c.codecs).c_str()), c.code, c.says);
    zarr_close(a);
  }
  // The codec's own errors.
  const std::string bad_codecs[][2] = {
      {R"({"mask_codecs":[{"name":"packbits"}]})", "data_codecs"},
      {R"({"mask_codecs":[],"data_codecs":[{"name":"bytes"}]})", "mask_codecs"},
      {R"({"mask_codecs":[{"name":"packbits"}],"data_codecs":[{"name":"bytes"}],"x":1})", "\"x\""},
  };
  for (const auto& [configuration, says] : bad_codecs) {
    SCOPED_TRACE(configuration);
    TempDir tmp;
    const std::string meta = R"({"zarr_format":3,"node_type":"array","shape":[4],"data_type":)" + kOptionalUint8 +
                             R"(,"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[2]}},)"
                             R"("chunk_key_encoding":{"name":"default"},"fill_value":null,)"
                             R"("codecs":[{"name":"optional","configuration":)" + configuration + "}]}";
    zarr_array* a = nullptr;
    EXPECT_STATUS(zarr_create(&a, (tmp / "a").c_str(), meta.c_str()), ZARR_ERR_INVALID_METADATA, says);
    zarr_close(a);
  }
  // The codec on a type that is not optional, and the type without its codec.
  TempDir tmp;
  zarr_array* a = nullptr;
  const std::string plain = metadata("\"uint8\"", "0", with_bytes);
  EXPECT_STATUS(zarr_create(&a, (tmp / "p").c_str(), plain.c_str()), ZARR_ERR_INVALID_METADATA,
                "codec 'optional' needs an \"optional\" data type");
  zarr_close(a);
  // The type stored by another array->bytes codec than optional.
  const std::string raw = R"({"zarr_format":3,"node_type":"array","shape":[4],"data_type":)" + kOptionalUint8 +
                          R"(,"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[2]}},)"
                          R"("chunk_key_encoding":{"name":"default"},"fill_value":null,"codecs":[{"name":"bytes"}]})";
  EXPECT_STATUS(zarr_create(&a, (tmp / "raw").c_str(), raw.c_str()), ZARR_ERR_INVALID_METADATA,
                "is stored by the \"optional\" codec, not 'bytes'");
  zarr_close(a);
  // Flags other than 0 and 1 in the caller's buffer.
  ArrayPtr ok = create_array(tmp / "ok", metadata(kOptionalUint8, "null", kBytes));
  const std::vector<uint8_t> two = {2, 5};
  const uint64_t start[] = {0, 0}, count[] = {1, 1};
  EXPECT_STATUS(zarr_write_region(ok, 2, start, count, two.data(), two.size()), ZARR_ERR_INVALID_ARGUMENT,
                "flag byte 2");
}

// Inside a shard: the inner chunks' codec is optional.
TEST(Optional, RoundTripsInsideShards) {
  EnvironmentGuard env;
  env.set(kFlag, "1");
  TempDir tmp;
  const std::string meta =
      R"({"zarr_format":3,"node_type":"array","shape":[8],"data_type":)" + kOptionalUint8 +
      R"(,"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[8]}},"chunk_key_encoding":{"name":"default"},)"
      R"("fill_value":[3],"codecs":[{"name":"sharding_indexed","configuration":{"chunk_shape":[2],"codecs":[)"
      R"({"name":"optional","configuration":{"mask_codecs":[{"name":"packbits"}],"data_codecs":[{"name":"bytes"}]}}],)"
      R"("index_codecs":[{"name":"bytes","configuration":{"endian":"little"}},{"name":"crc32c"}]}}]})";
  ArrayPtr a = create_array(tmp / "a", meta);
  const std::vector<Element> region = {{1, 10}, {0, 0}, {1, 30}, {0, 0}, {1, 50}};
  const std::vector<uint8_t> data = flatten(region);
  const uint64_t start[] = {2}, count[] = {5};
  ASSERT_OK(zarr_write_region(a, 1, start, count, data.data(), data.size()));
  std::vector<Element> expected = {{1, 3}, {1, 3}};
  expected.insert(expected.end(), region.begin(), region.end());
  expected.push_back({1, 3});
  EXPECT_EQ(read_elements(open_array(tmp / "a"), {0}, {8}), expected);
}

// zarr_data_type_form: the serializer is the optional codec around the
// inner type's own (bytes with its byte order); Zarr v2 has no form.
TEST(Optional, DataTypeForm) {
  const std::string nested_int16 =
      R"({"name":"optional","configuration":{"name":"optional","configuration":{"name":"int16"}}})";
  char* json = nullptr;
  ASSERT_OK(zarr_data_type_form(nested_int16.c_str(), nullptr, 3, &json));
  const std::string inner_bytes = R"({"name":"bytes","configuration":{"endian":"little"}})";
  const auto optional_of = [](const std::string& data) {
    return R"({"name":"optional","configuration":{"mask_codecs":[{"name":"packbits","configuration":{}}],)"
           R"("data_codecs":[)" + data + "]}}";
  };
  rapidjson::Document doc;
  doc.Parse(json);
  zarr_free(json);
  ASSERT_TRUE(doc.IsObject());
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  doc["serializer"].Accept(writer);
  EXPECT_EQ(std::string(buffer.GetString()), optional_of(optional_of(inner_bytes)));
  EXPECT_STATUS(zarr_data_type_form(kOptionalUint8.c_str(), nullptr, 2, &json), ZARR_ERR_UNSUPPORTED,
                "has no Zarr v2 form");
}

Bytes le64(uint64_t v) {
  Bytes out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  return out;
}

Bytes chunk_of(uint64_t mask_length, uint64_t data_length, const Bytes& rest) {
  Bytes out = le64(mask_length);
  const Bytes d = le64(data_length);
  out.insert(out.end(), d.begin(), d.end());
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

// Hostile chunk bytes in place of the flat fixture's chunk c/0/0 (mask 0x09,
// data 00 05): each read fails with ZARR_ERR_CODEC naming what is wrong.
TEST(Optional, CorruptChunksAreCodecErrors) {
  SKIP_WITHOUT_PEER_DATA();
  struct Case {
    const char* what;
    Bytes chunk;
    const char* says;
  };
  const uint64_t kMax = UINT64_MAX;
  const Case cases[] = {
      {"empty", {}, "shorter than its 16-byte header"},
      {"truncated header", Bytes{1, 0, 0, 0, 0, 0, 0, 0, 2}, "shorter than its 16-byte header"},
      {"truncated data", chunk_of(1, 2, {0x09, 0}), "data length 2 does not match the 1 bytes"},
      {"data longer than said", chunk_of(1, 2, {0x09, 0, 5, 7}), "data length 2 does not match the 3 bytes"},
      {"mask length past the end", chunk_of(5, 2, {0x09, 0, 5}), "mask length 5 is more than the 3 bytes"},
      {"mask length near 2^64", chunk_of(kMax, 2, {0x09, 0, 5}), "mask length 18446744073709551615"},
      {"data length near 2^64", chunk_of(1, kMax, {0x09, 0, 5}), "data length 18446744073709551615"},
      {"lengths summing past 2^64", chunk_of(kMax - 1, 3, {0x09, 0, 5}), "mask length"},
      {"mask of the wrong size", chunk_of(2, 2, {0x09, 0, 0, 5}), "mask of an 'optional' chunk"},
      {"empty mask", chunk_of(0, 3, {0x09, 0, 5}), "mask of an 'optional' chunk"},
      {"data short of the present count", chunk_of(1, 1, {0x09, 0}), "data of an 'optional' chunk"},
      {"data for no present element", chunk_of(1, 1, {0x00, 0}), "without present elements"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TempDir tmp;
    const std::string copy = copy_fixture(tmp, kFlat);
    write_file(copy + "/c/0/0", c.chunk);
    ArrayPtr a = open_array(copy);
    std::vector<uint8_t> out(2 * 16);
    const uint64_t start[] = {0, 0}, count[] = {4, 4};
    EXPECT_STATUS(zarr_read_region(a, 2, start, count, out.data(), out.size()), ZARR_ERR_CODEC, c.says);
    // The other chunks still read.
    const uint64_t other[] = {2, 0}, two[] = {2, 2};
    std::vector<uint8_t> part(2 * 4);
    EXPECT_EQ(zarr_read_region(a, 2, other, two, part.data(), part.size()), ZARR_OK);
  }
}

// A nested chunk whose inner optional chunk lies about its lengths.
TEST(Optional, CorruptNestedChunksAreCodecErrors) {
  SKIP_WITHOUT_PEER_DATA();
  TempDir tmp;
  const std::string copy = copy_fixture(tmp, kNested);
  // Outer: mask 0x0a (elements 1 and 3 present); inner: mask length 1, data
  // length 9 where 1 byte follows.
  Bytes inner = chunk_of(1, 9, {0x02, 5});
  Bytes outer = chunk_of(1, inner.size(), {0x0a});
  outer.insert(outer.end(), inner.begin(), inner.end());
  write_file(copy + "/c/0/0", outer);
  ArrayPtr a = open_array(copy);
  std::vector<uint8_t> out(3 * 4);
  const uint64_t start[] = {0, 0}, count[] = {2, 2};
  EXPECT_STATUS(zarr_read_region(a, 2, start, count, out.data(), out.size()), ZARR_ERR_CODEC,
                "data length 9 does not match the 1 bytes");
}

}  // namespace
}  // namespace zarr::test
