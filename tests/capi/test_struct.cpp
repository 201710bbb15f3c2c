// The v3 "struct" data type through the C API: the registry README's array
// opens, round-trips and is written back as zarr-python 3.2+ writes it;
// fields through zarr_open_spec's "field"; the legacy "structured" form
// (tuple fields, no "endian", base64 fill value); the bytes codec's byte
// order; and v2 structured arrays migrated to v3.
#include <cstring>
#include <filesystem>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

std::string text_of(const std::string& path) {
  zarr::Bytes b = read_file(path);
  return std::string(b.begin(), b.end());
}

// write_file into a folder made first.
void put(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  write_file(path, zarr::ByteView(bytes.data(), bytes.size()));
}

void write_text(const std::string& path, const std::string& text) { put(path, std::vector<uint8_t>(text.begin(), text.end())); }

// The registry README's example array, as it gives it.
const char* kReadmeArray = R"({
  "zarr_format": 3,
  "node_type": "array",
  "shape": [100],
  "data_type": {
    "name": "struct",
    "configuration": {
      "fields": [
        {"name": "x", "data_type": "float32"},
        {"name": "y", "data_type": "float32"}
      ]
    }
  },
  "chunk_grid": {
    "name": "regular",
    "configuration": {"chunk_shape": [100]}
  },
  "chunk_key_encoding": {"name": "default"},
  "fill_value": {"x": 0.0, "y": 0.0},
  "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]
})";

// What zarr-python 3.2+ writes for it (json.dumps(indent=2) of its to_dict()).
const char* kReadmeAsZarrPython = R"({
  "shape": [
    100
  ],
  "data_type": {
    "name": "struct",
    "configuration": {
      "fields": [
        {
          "name": "x",
          "data_type": "float32"
        },
        {
          "name": "y",
          "data_type": "float32"
        }
      ]
    }
  },
  "chunk_grid": {
    "name": "regular",
    "configuration": {
      "chunk_shape": [
        100
      ]
    }
  },
  "chunk_key_encoding": {
    "name": "default",
    "configuration": {
      "separator": "/"
    }
  },
  "fill_value": {
    "x": 0.0,
    "y": 0.0
  },
  "codecs": [
    {
      "name": "bytes",
      "configuration": {
        "endian": "little"
      }
    }
  ],
  "attributes": {},
  "zarr_format": 3,
  "node_type": "array",
  "storage_transformers": []
})";

struct Point {
  float x, y;
};

TEST(StructV3Array, ReadmeExampleOpensAndRoundTrips) {
  TempDir dir;
  write_text(dir / "a/zarr.json", kReadmeArray);
  ArrayPtr a = open_array(dir / "a", "r+");
  EXPECT_EQ(zarr_format(a), 3);
  EXPECT_EQ(zarr_item_size(a), 8u);
  EXPECT_STREQ(zarr_data_type(a), R"([["x","<f4"],["y","<f4"]])");
  // Not written yet: every record is the fill value.
  EXPECT_EQ(read_region<float>(a, {98}, {2}), (std::vector<float>{0, 0, 0, 0}));
  std::vector<Point> points(100);
  for (int i = 0; i < 100; ++i) points[i] = {float(i), float(-i)};
  ASSERT_OK(zarr_write_region(a, 1, std::vector<uint64_t>{0}.data(), std::vector<uint64_t>{100}.data(), points.data(),
                              sizeof(Point) * 100));
  // The chunk is the packed records, x then y, little-endian.
  const zarr::Bytes chunk = read_file(dir / "a/c/0");
  ASSERT_EQ(chunk.size(), 800u);
  EXPECT_EQ(std::memcmp(chunk.data(), points.data(), 800), 0);
  EXPECT_EQ(read_region<float>(open_array(dir / "a"), {7}, {1}), (std::vector<float>{7, -7}));
  // zarr_info and the metadata show the struct.
  const rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["data_type"].GetString(), std::string(R"([["x","<f4"],["y","<f4"]])"));
}

TEST(StructV3Array, WrittenAsZarrPythonWritesIt) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", kReadmeArray);
  EXPECT_EQ(text_of(dir / "a/zarr.json"), kReadmeAsZarrPython);
  EXPECT_EQ(metadata_of(a), kReadmeAsZarrPython);
}

TEST(StructV3Array, NestedFieldsAndFillValue) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", R"({"shape": [3], "data_type": {"name": "struct", "configuration": {"fields": [
      {"name": "point", "data_type": {"name": "struct", "configuration": {"fields": [
          {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}}},
      {"name": "value", "data_type": "float64"}]}},
      "fill_value": {"point": {"x": 1.0, "y": 2.0}, "value": 3.14}})");
  EXPECT_EQ(zarr_item_size(a), 16u);
  uint8_t fill[16];
  ASSERT_OK(zarr_fill_value(a, fill, sizeof fill, nullptr));
  float xy[2];
  double value;
  std::memcpy(xy, fill, 8);
  std::memcpy(&value, fill + 8, 8);
  EXPECT_EQ(xy[0], 1.0f);
  EXPECT_EQ(xy[1], 2.0f);
  EXPECT_EQ(value, 3.14);
  const std::string stored = text_of(dir / "a/zarr.json");
  EXPECT_NE(stored.find("\"fill_value\": {\n    \"point\": {\n      \"x\": 1.0,\n      \"y\": 2.0\n    },\n    \"value\": 3.14\n  }"),
            std::string::npos)
      << stored;
  // The field "point" is itself a struct; its fill value is the record's part.
  ArrayPtr point;
  const std::string spec = R"({"driver": "zarr3", "kvstore": {"driver": "file", "path": ")" + std::string(dir / "a") +
                           R"("}, "field": "point"})";
  ASSERT_OK(zarr_open_spec(point.out(), spec.c_str()));
  EXPECT_EQ(zarr_item_size(point), 8u);
  EXPECT_EQ(read_region<float>(point, {2}, {1}), (std::vector<float>{1, 2}));
}

// zarr_open_spec's "field" on a v3 struct array, as on a v2 structured one.
TEST(StructV3Array, FieldAccessThroughOpenSpec) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", kReadmeArray);
  const std::string spec = R"({"driver": "zarr3", "kvstore": {"driver": "file", "path": ")" + std::string(dir / "a") +
                           R"("}, "open": true, "field": "y"})";
  ArrayPtr y;
  ASSERT_OK(zarr_open_spec(y.out(), spec.c_str()));
  EXPECT_STREQ(zarr_data_type(y), "float32");
  ASSERT_OK(write_region<float>(y, {10}, {3}, {1.5f, 2.5f, 3.5f}));
  EXPECT_EQ(read_region<float>(a, {10}, {3}), (std::vector<float>{0, 1.5f, 0, 2.5f, 0, 3.5f}));
  ArrayPtr none;
  const std::string bad = R"({"driver": "zarr3", "kvstore": {"driver": "file", "path": ")" + std::string(dir / "a") +
                          R"("}, "field": "z"})";
  EXPECT_STATUS(zarr_open_spec(none.out(), bad.c_str()), ZARR_ERR_INVALID_ARGUMENT, "z");
  // Creating through a field needs the records' data_type in v3.
  const std::string create = R"({"driver": "zarr3", "kvstore": {"driver": "file", "path": ")" + std::string(dir / "b") +
                             R"("}, "create": true, "field": "x", "metadata": {"shape": [4]}})";
  EXPECT_STATUS(zarr_open_spec(none.out(), create.c_str()), ZARR_ERR_INVALID_ARGUMENT, "'metadata.data_type'");
}

// A legacy "structured" array: tuple fields, a bytes codec without "endian"
// (little-endian), and the fill value as base64 of the packed record.
TEST(StructV3Array, LegacyStructuredArrayOpens) {
  TempDir dir;
  // id = 7 (int32), value = 0.5 (float64) little-endian: "BwAAAAAAAAAAAOA/".
  write_text(dir / "a/zarr.json", R"({"zarr_format": 3, "node_type": "array", "shape": [2],
      "data_type": {"name": "structured", "configuration": {"fields": [["id", "int32"], ["value", "float64"]]}},
      "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
      "chunk_key_encoding": {"name": "default"}, "fill_value": "BwAAAAAAAAAAAOA/",
      "codecs": [{"name": "bytes"}]})");
  put(dir / "a/c/0", {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f});  // id 1, value 1.0
  ArrayPtr a = open_array(dir / "a");
  uint8_t fill[12];
  ASSERT_OK(zarr_fill_value(a, fill, sizeof fill, nullptr));
  int32_t id;
  double value;
  std::memcpy(&id, fill, 4);
  std::memcpy(&value, fill + 4, 8);
  EXPECT_EQ(id, 7);
  EXPECT_EQ(value, 0.5);
  // The short chunk (one record for two) is refused, not read past.
  std::vector<uint8_t> out(24);
  const uint64_t start = 0, count = 2;
  EXPECT_NE(zarr_read_region(a, 1, &start, &count, out.data(), out.size()), ZARR_OK);
  put(dir / "a/c/0", {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40});
  ASSERT_OK(zarr_read_region(open_array(dir / "a"), 1, &start, &count, out.data(), out.size()));
  std::memcpy(&id, out.data() + 12, 4);
  std::memcpy(&value, out.data() + 16, 8);
  EXPECT_EQ(id, 2);
  EXPECT_EQ(value, 2.0);
}

// The bytes codec's "endian" orders every field, nested ones too; the
// legacy base64 fill value follows it.
TEST(StructV3Array, BigEndianBytesCodec) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", R"({"shape": [1], "data_type": {"name": "struct", "configuration": {"fields": [
      {"name": "a", "data_type": "uint16"}, {"name": "p", "data_type": {"name": "struct", "configuration": {"fields": [
          {"name": "b", "data_type": "uint32"}]}}}]}}, "fill_value": {"a": 1, "p": {"b": 2}},
      "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}]})");
  ASSERT_OK(write_region<uint8_t>(a, {0}, {1}, {0x01, 0x02, 0x03, 0x04, 0x05, 0x06}));
  EXPECT_EQ(read_file(dir / "a/c/0"), (zarr::Bytes{0x02, 0x01, 0x06, 0x05, 0x04, 0x03}));
  // "AAEAAAAC": a = 1, b = 2 big-endian.
  write_text(dir / "b/zarr.json", R"({"zarr_format": 3, "node_type": "array", "shape": [1],
      "data_type": {"name": "structured", "configuration": {"fields": [["a", "uint16"], ["b", "uint32"]]}},
      "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1]}},
      "chunk_key_encoding": {"name": "default"}, "fill_value": "AAEAAAAC",
      "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}]})");
  EXPECT_EQ(read_region<uint8_t>(open_array(dir / "b"), {0}, {1}), (std::vector<uint8_t>{1, 0, 2, 0, 0, 0}));
}

TEST(StructV3Array, BadMetadataNamesTheField) {
  TempDir dir;
  zarr_array* out = nullptr;
  const std::string base = R"({"zarr_format": 3, "node_type": "array", "shape": [2],
      "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
      "chunk_key_encoding": {"name": "default"}, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}], )";
  write_text(dir / "dup/zarr.json", base + R"("data_type": {"name": "struct", "configuration": {"fields": [
      {"name": "a", "data_type": "int8"}, {"name": "a", "data_type": "int8"}]}}, "fill_value": {"a": 0}})");
  EXPECT_STATUS(zarr_open(&out, (dir / "dup").c_str(), "r"), ZARR_ERR_INVALID_METADATA, "duplicate field name \"a\"");
  write_text(dir / "unknown/zarr.json", base + R"("data_type": {"name": "struct", "configuration": {"fields": [
      {"name": "a", "data_type": "int8"}, {"name": "b", "data_type": "float128"}]}}, "fill_value": {"a": 0, "b": 0}})");
  EXPECT_STATUS(zarr_open(&out, (dir / "unknown").c_str(), "r"), ZARR_ERR_UNSUPPORTED, "field \"b\"");
  write_text(dir / "fill/zarr.json", base + R"("data_type": {"name": "struct", "configuration": {"fields": [
      {"name": "a", "data_type": "int8"}, {"name": "b", "data_type": "int8"}]}}, "fill_value": {"a": 0, "b": 300}})");
  EXPECT_STATUS(zarr_open(&out, (dir / "fill").c_str(), "r"), ZARR_ERR_INVALID_METADATA, "field \"b\"");
  write_text(dir / "missing/zarr.json", base + R"("data_type": {"name": "struct", "configuration": {"fields": [
      {"name": "a", "data_type": "int8"}, {"name": "b", "data_type": "int8"}]}}, "fill_value": {"a": 0}})");
  EXPECT_STATUS(zarr_open(&out, (dir / "missing").c_str(), "r"), ZARR_ERR_INVALID_METADATA, "no value for field \"b\"");
  EXPECT_EQ(out, nullptr);
}

}  // namespace

namespace {

// A v2 structured array becomes a v3 struct with its records and fill value.
TEST(StructV3Array, V2StructuredArrayMigrates) {
  TempDir dir;
  ArrayPtr v2 = create_array(dir / "rec", array_meta("[3]", "[2]", "X", {{"dtype", R"([["id", ">i2"], ["v", ">f4"]])"},
                                                                          {"fill_value", "\"AAfAAAAA\""}}));
  ASSERT_OK(write_region<uint8_t>(v2, {0}, {1}, {1, 0, 0, 0, 0x80, 0x3f}));  // id 1, v 1.0 (native order)
  const std::vector<uint8_t> before = read_all<uint8_t>(v2);
  v2 = ArrayPtr();
  ASSERT_OK(zarr_migrate_v2_to_v3((dir / "rec").c_str()));
  ArrayPtr v3 = open_array(dir / "rec");
  EXPECT_EQ(zarr_format(v3), 3);
  EXPECT_EQ(read_all<uint8_t>(v3), before);
  const std::string stored = text_of(dir / "rec/zarr.json");
  EXPECT_NE(stored.find("\"name\": \"struct\""), std::string::npos) << stored;
  EXPECT_NE(stored.find("\"endian\": \"big\""), std::string::npos) << stored;
  EXPECT_NE(stored.find("\"fill_value\": {\n    \"id\": 7,\n    \"v\": -2.0\n  }"), std::string::npos) << stored;
}

}  // namespace
