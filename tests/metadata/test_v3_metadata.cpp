// Zarr v3 zarr.json: arrays and groups as zarr-python 3 writes them, every
// zarr.json in ../shared/peer-data, the spec's edge cases and every error path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>

#include "base/error.h"
#include "base/json.h"
#include "codecs/v3_chain.h"
#include "metadata/v3_metadata.h"
#include "support/test_support.h"
#include "zarr_config.h"

using namespace zarr;
namespace fs = std::filesystem;

namespace {

// Runs fn, expecting a zarr::Error with `code` whose message contains every
// piece of `parts`.
void expect_error(int code, const std::function<void()>& fn, std::initializer_list<std::string> parts = {}) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
    return;
  }
  ADD_FAILURE() << "no zarr::Error thrown";
}

// What zarr-python 3 wrote for zarr.create_array(shape=(4,), chunks=(2,),
// dtype='int16', compressors=None, dimension_names=['x']) (key order and
// layout of the files in ../shared/peer-data).
const char* kInt16 = R"({
  "shape": [
    4
  ],
  "data_type": "int16",
  "chunk_grid": {
    "name": "regular",
    "configuration": {
      "chunk_shape": [
        2
      ]
    }
  },
  "chunk_key_encoding": {
    "name": "default",
    "configuration": {
      "separator": "/"
    }
  },
  "fill_value": 0,
  "codecs": [
    {
      "name": "bytes",
      "configuration": {
        "endian": "little"
      }
    }
  ],
  "attributes": {
    "answer": 42
  },
  "dimension_names": [
    "x"
  ],
  "zarr_format": 3,
  "node_type": "array",
  "storage_transformers": []
})";

const char* kGroup = R"({
  "attributes": {},
  "zarr_format": 3,
  "consolidated_metadata": null,
  "node_type": "group"
})";

// A compact document to edit in the error tests: every member present.
const char* kCompact =
    R"({"zarr_format":3,"node_type":"array","shape":[10,6],"data_type":"float32",)"
    R"("chunk_grid":{"name":"regular","configuration":{"chunk_shape":[5,3]}},)"
    R"("chunk_key_encoding":{"name":"default","configuration":{"separator":"/"}},)"
    R"("fill_value":"NaN","codecs":[{"name":"bytes","configuration":{"endian":"little"}}],)"
    R"("attributes":{"a":1},"dimension_names":["y",null],"storage_transformers":[]})";

// kCompact with one member replaced (or removed when value is empty).
std::string with(const std::string& member, const std::string& value, const char* base = kCompact) {
  rapidjson::Document doc = json::parse(base, "base");
  doc.RemoveMember(member.c_str());
  if (!value.empty()) {
    rapidjson::Document v = json::parse(value, "value");
    rapidjson::Value name(member.c_str(), doc.GetAllocator());
    rapidjson::Value copy(v, doc.GetAllocator());
    doc.AddMember(name, copy, doc.GetAllocator());
  }
  return json::to_string(doc);
}

ArrayMetadata parse(const std::string& text) { return parse_v3_array_metadata(text, "a/zarr.json"); }

// The model as text, for "same model" comparisons.
std::string describe(const ArrayMetadata& m) {
  std::string s = "format=" + std::to_string(m.zarr_format) + " shape=";
  for (auto v : m.shape) s += std::to_string(v) + ",";
  s += " chunks=";
  for (auto v : m.chunks) s += std::to_string(v) + ",";
  s += " dtype=" + m.dtype.to_v3_json() + " fill=";
  for (uint8_t b : m.fill_item()) s += std::to_string(b) + ".";
  s += std::string(" keys=") + (m.key_encoding.kind == ChunkKeyEncoding::Kind::V2 ? "v2" : "default") +
       m.key_encoding.separator + " order=" + m.order + " codecs=" + v3_codecs_json(m.codecs) + " attrs=" +
       m.attributes_json + " dims=";
  for (const auto& d : m.dimension_names) s += (d ? *d : std::string("<null>")) + ",";
  return s;
}

void expect_same_model(const ArrayMetadata& a, const ArrayMetadata& b) {
  EXPECT_EQ(describe(a), describe(b));
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.fill_value, b.fill_value);
}

}  // namespace

// ---- arrays as zarr-python 3 writes them ------------------------------------------

TEST(V3Metadata, ParsesEveryField) {
  const ArrayMetadata m = parse(kInt16);
  EXPECT_EQ(m.zarr_format, 3);
  EXPECT_EQ(m.shape, (std::vector<uint64_t>{4}));
  EXPECT_EQ(m.chunks, (std::vector<uint64_t>{2}));
  EXPECT_EQ(m.dtype.kind(), DTypeKind::Int);
  EXPECT_EQ(m.dtype.item_size(), 2u);
  EXPECT_FALSE(m.dtype.needs_byte_swap());
  EXPECT_EQ(m.fill_value, Bytes(2, 0));
  EXPECT_EQ(m.key_encoding.kind, ChunkKeyEncoding::Kind::Default);
  EXPECT_EQ(m.key_encoding.separator, '/');
  EXPECT_EQ(m.order, 'C');
  EXPECT_EQ(m.attributes_json, R"({"answer":42})");
  ASSERT_EQ(m.dimension_names.size(), 1u);
  EXPECT_EQ(m.dimension_names[0], std::optional<std::string>("x"));
  ASSERT_TRUE(m.codecs.array_to_bytes());
  EXPECT_EQ(m.codecs.array_to_bytes()->name(), "bytes");
  EXPECT_TRUE(m.v2_filters.empty());
  EXPECT_FALSE(m.v2_compressor);
  EXPECT_EQ(m.chunk_bytes(), 4u);
}

TEST(V3Metadata, SerialisesByteIdenticallyToZarrPython) {
  EXPECT_EQ(serialize_v3_array_metadata(parse(kInt16)), kInt16);
}

TEST(V3Metadata, RoundTripsEveryMember) {
  const ArrayMetadata m = parse(kCompact);
  EXPECT_EQ(m.dimension_names, (std::vector<std::optional<std::string>>{std::string("y"), std::nullopt}));
  const std::string text = serialize_v3_array_metadata(m);
  EXPECT_NE(text.find("\"dimension_names\": [\n    \"y\",\n    null\n  ],\n  \"zarr_format\": 3"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\"fill_value\": \"NaN\""), std::string::npos) << text;
  expect_same_model(parse(text), m);
}

TEST(V3Metadata, DimensionNamesNullOrAbsentMeanNone) {
  EXPECT_TRUE(parse(with("dimension_names", "null")).dimension_names.empty());
  EXPECT_TRUE(parse(with("dimension_names", "")).dimension_names.empty());
  const std::string text = serialize_v3_array_metadata(parse(with("dimension_names", "")));
  EXPECT_EQ(text.find("dimension_names"), std::string::npos);
}

TEST(V3Metadata, KeyEncodings) {
  struct Case {
    const char* json;
    ChunkKeyEncoding::Kind kind;
    char separator;
  } cases[] = {
      {R"({"name":"default","configuration":{"separator":"/"}})", ChunkKeyEncoding::Kind::Default, '/'},
      {R"({"name":"default","configuration":{"separator":"."}})", ChunkKeyEncoding::Kind::Default, '.'},
      {R"({"name":"default","configuration":{}})", ChunkKeyEncoding::Kind::Default, '/'},
      {R"({"name":"default"})", ChunkKeyEncoding::Kind::Default, '/'},
      {R"("default")", ChunkKeyEncoding::Kind::Default, '/'},
      {R"({"name":"v2","configuration":{"separator":"."}})", ChunkKeyEncoding::Kind::V2, '.'},
      {R"({"name":"v2","configuration":{"separator":"/"}})", ChunkKeyEncoding::Kind::V2, '/'},
      {R"({"name":"v2"})", ChunkKeyEncoding::Kind::V2, '.'},
      {R"("v2")", ChunkKeyEncoding::Kind::V2, '.'},
      {R"({"name":"v2","must_understand":true})", ChunkKeyEncoding::Kind::V2, '.'},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    const ArrayMetadata m = parse(with("chunk_key_encoding", c.json));
    EXPECT_EQ(m.key_encoding.kind, c.kind);
    EXPECT_EQ(m.key_encoding.separator, c.separator);
    const std::string text = serialize_v3_array_metadata(m);
    const std::string name = c.kind == ChunkKeyEncoding::Kind::V2 ? "v2" : "default";
    EXPECT_NE(text.find("\"name\": \"" + name + "\",\n    \"configuration\": {\n      \"separator\": \"" +
                        std::string(1, c.separator) + "\""),
              std::string::npos)
        << text;
    const ArrayMetadata again = parse(text);
    EXPECT_EQ(again.key_encoding.kind, c.kind);
    EXPECT_EQ(again.key_encoding.separator, c.separator);
  }
}

TEST(V3Metadata, ZeroChunkExtentOnAnEmptyAxis) {
  // The spec requires non-zero chunk extents only where the axis is non-empty.
  const ArrayMetadata m = parse(with("shape", "[0,6]", with("chunk_grid",
                                     R"({"name":"regular","configuration":{"chunk_shape":[0,3]}})").c_str()));
  EXPECT_EQ(m.chunks, (std::vector<uint64_t>{1, 3}));
  expect_same_model(parse(serialize_v3_array_metadata(m)), m);
  // Zero-dimensional arrays: shape [], chunk_shape [].
  const ArrayMetadata scalar =
      parse(with("dimension_names", "", with("shape", "[]", with("chunk_grid",
            R"({"name":"regular","configuration":{"chunk_shape":[]}})").c_str()).c_str()));
  EXPECT_EQ(scalar.ndim(), 0u);
  EXPECT_EQ(scalar.chunk_bytes(), 4u);
  expect_same_model(parse(serialize_v3_array_metadata(scalar)), scalar);
}

TEST(V3Metadata, ExtensionMembers) {
  // must_understand false: ignored (and not written back).
  const std::string ignorable = with("x_ext", R"({"must_understand":false,"anything":[1,2]})");
  const ArrayMetadata m = parse(ignorable);
  EXPECT_EQ(m.shape, (std::vector<uint64_t>{10, 6}));
  EXPECT_EQ(serialize_v3_array_metadata(m).find("x_ext"), std::string::npos);
  // Anything else fails the open, naming the member.
  for (const char* value : {R"({"must_understand":true})", R"({"name":"x"})", "{}", "1", "\"x\"", "[]", "null",
                            R"({"must_understand":"false"})", R"({"must_understand":0})"}) {
    SCOPED_TRACE(value);
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { parse(with("x_ext", value)); }, {"a/zarr.json", "\"x_ext\""});
  }
}

TEST(V3Metadata, StorageTransformers) {
  EXPECT_NO_THROW(parse(with("storage_transformers", "[]")));
  EXPECT_NO_THROW(parse(with("storage_transformers", "null")));
  EXPECT_NO_THROW(parse(with("storage_transformers", "")));
  EXPECT_NO_THROW(parse(with("storage_transformers", R"([{"name":"cache","must_understand":false}])")));
  expect_error(ZARR_ERR_UNSUPPORTED, [] { parse(with("storage_transformers", R"([{"name":"sharding"}])")); },
               {"field 'storage_transformers'", "\"sharding\""});
  expect_error(ZARR_ERR_UNSUPPORTED, [] { parse(with("storage_transformers", R"(["t1"])")); }, {"\"t1\""});
  expect_error(ZARR_ERR_UNSUPPORTED,
               [] { parse(with("storage_transformers", R"([{"name":"t","configuration":{},"must_understand":true}])")); },
               {"\"t\""});
  for (const char* bad : {"{}", "\"x\"", "[5]", "[{}]", "[{\"name\":5}]"}) {
    SCOPED_TRACE(bad);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with("storage_transformers", bad)); },
                 {"field 'storage_transformers'"});
  }
}

// ---- every error path -------------------------------------------------------------

TEST(V3Metadata, MalformedDocuments) {
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse("{"); }, {"a/zarr.json", "malformed JSON"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse("[1]"); }, {"a/zarr.json", "object"});
}

TEST(V3Metadata, StoredDocumentsNeedEveryRequiredField) {
  for (const char* field : {"zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding",
                            "fill_value", "codecs"}) {
    SCOPED_TRACE(field);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with(field, "")); },
                 {"a/zarr.json", std::string("missing required field '") + field + "'"});
  }
  // The optional ones may go.
  for (const char* field : {"attributes", "dimension_names", "storage_transformers"}) {
    SCOPED_TRACE(field);
    EXPECT_NO_THROW(parse(with(field, "")));
  }
}

TEST(V3Metadata, FormatAndNodeType) {
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("zarr_format", "2")); }, {"'zarr_format' must be 3, got 2"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("zarr_format", "\"3\"")); }, {"'zarr_format'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("zarr_format", "3.0")); }, {"'zarr_format'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("node_type", "\"group\"")); },
               {"'node_type' must be \"array\", got \"group\""});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("node_type", "5")); }, {"'node_type'"});
}

TEST(V3Metadata, ShapeErrors) {
  for (const char* bad : {"5", "[-1]", "[1.5]", "[\"1\"]", "null"}) {
    SCOPED_TRACE(bad);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with("shape", bad)); }, {"'shape'"});
  }
  // Rank mismatch with the chunk grid.
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("shape", "[10]")); },
               {"field 'chunk_grid'", "chunk_shape has 2 dimensions but 'shape' has 1"});
  // Element counts past 64 bits.
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("shape", "[4294967296,4294967296]")); }, {"'shape'"});
}

TEST(V3Metadata, ChunkGridErrors) {
  const struct {
    const char* grid;
    int code;
    const char* says;
  } cases[] = {
      {R"({"name":"rectilinear","configuration":{"chunk_shapes":[[5,5],[3,3]]}})", ZARR_ERR_INVALID_METADATA, "\"kind\""},
      {R"("rectilinear")", ZARR_ERR_INVALID_METADATA, "\"chunk_shapes\""},
      {R"({"name":"rectilinear","configuration":{"kind":"inline","chunk_shapes":[[5],[3]]}})", ZARR_ERR_INVALID_METADATA,
       "chunk_shapes[0]: the edge lengths sum to 5, less than the extent 10"},
      {R"({"name":"rectilinear","configuration":{"kind":"inline","chunk_shapes":[5,3],"x":1}})", ZARR_ERR_INVALID_METADATA,
       "\"x\""},
      {R"("regular")", ZARR_ERR_INVALID_METADATA, "chunk_shape"},
      {R"({"name":"regular"})", ZARR_ERR_INVALID_METADATA, "chunk_shape"},
      {R"({"name":"regular","configuration":{}})", ZARR_ERR_INVALID_METADATA, "chunk_shape"},
      {R"({"name":"regular","configuration":{"chunk_shape":[5,3],"x":1}})", ZARR_ERR_INVALID_METADATA, "\"x\""},
      {R"({"name":"regular","configuration":{"chunk_shape":[5]}})", ZARR_ERR_INVALID_METADATA, "1 dimensions but 'shape' has 2"},
      {R"({"name":"regular","configuration":{"chunk_shape":[5,3,1]}})", ZARR_ERR_INVALID_METADATA, "3 dimensions"},
      {R"({"name":"regular","configuration":{"chunk_shape":[5,0]}})", ZARR_ERR_INVALID_METADATA, "item 1 must be positive"},
      {R"({"name":"regular","configuration":{"chunk_shape":[5,-3]}})", ZARR_ERR_INVALID_METADATA, "chunk_shape"},
      {R"({"name":"regular","configuration":{"chunk_shape":"5,3"}})", ZARR_ERR_INVALID_METADATA, "chunk_shape"},
      {R"({"name":"regular","configuration":[5,3]})", ZARR_ERR_INVALID_METADATA, "configuration"},
      {R"({"name":"regular","configuration":{"chunk_shape":[5,3]},"must_understand":false})", ZARR_ERR_INVALID_METADATA,
       "must_understand"},
      {R"({"name":"regular","configuration":{"chunk_shape":[5,3]},"must_understand":1})", ZARR_ERR_INVALID_METADATA,
       "must_understand"},
      {R"({"name":"regular","configuration":{"chunk_shape":[5,3]},"extra":1})", ZARR_ERR_INVALID_METADATA, "\"extra\""},
      {R"({"name":5})", ZARR_ERR_INVALID_METADATA, "name"},
      {R"({"configuration":{"chunk_shape":[5,3]}})", ZARR_ERR_INVALID_METADATA, "name"},
      {"[5,3]", ZARR_ERR_INVALID_METADATA, "name"},
      {R"({"name":"regular","configuration":{"chunk_shape":[4294967296,4294967296]}})", ZARR_ERR_INVALID_METADATA,
       "field 'chunk_grid': element count overflows 64 bits"},
      {R"({"name":"regular","configuration":{"chunk_shape":[2147483648,2147483648]}})", ZARR_ERR_INVALID_METADATA,
       "field 'chunk_grid': one chunk's byte size overflows"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.grid);
    expect_error(c.code, [&] { parse(with("chunk_grid", c.grid)); }, {"a/zarr.json: field 'chunk_grid'", c.says});
  }
  // A must_understand: true grid is what the spec assumes anyway.
  EXPECT_NO_THROW(parse(with("chunk_grid", R"({"name":"regular","configuration":{"chunk_shape":[5,3]},"must_understand":true})")));
}

// An unknown chunk grid or key encoding the zarr-extensions registry holds
// says it is registered but not implemented; other names only that they are unknown.
TEST(V3Metadata, UnknownGridsAndEncodingsSayWhetherTheRegistryHasThem) {
  // rectilinear, the registry's other grid, is implemented (test_rectilinear.cpp).
  EXPECT_NO_THROW(parse(with("chunk_grid", R"({"name":"rectilinear","configuration":{"kind":"inline","chunk_shapes":[5,3]}})")));
  const zarr::test::Caught hexagonal = zarr::test::catch_error([] { parse(with("chunk_grid", R"({"name":"hexagonal"})")); });
  EXPECT_EQ(hexagonal.code, ZARR_ERR_UNSUPPORTED) << hexagonal.message;
  EXPECT_NE(hexagonal.message.find("chunk grid \"hexagonal\" is not supported"), std::string::npos) << hexagonal.message;
  EXPECT_EQ(hexagonal.message.find("registry"), std::string::npos) << hexagonal.message;
  const zarr::test::Caught encoding = zarr::test::catch_error([] { parse(with("chunk_key_encoding", R"({"name":"morton"})")); });
  EXPECT_EQ(encoding.code, ZARR_ERR_UNSUPPORTED) << encoding.message;
  EXPECT_EQ(encoding.message.find("registry"), std::string::npos) << encoding.message;
}

TEST(V3Metadata, KeyEncodingErrors) {
  const struct {
    const char* encoding;
    int code;
    const char* says;
  } cases[] = {
      {R"({"name":"fancy"})", ZARR_ERR_UNSUPPORTED, "\"fancy\""},
      {R"("fancy")", ZARR_ERR_UNSUPPORTED, "\"fancy\""},
      {R"({"name":"default","configuration":{"separator":"-"}})", ZARR_ERR_INVALID_METADATA, "separator"},
      {R"({"name":"v2","configuration":{"separator":""}})", ZARR_ERR_INVALID_METADATA, "separator"},
      {R"({"name":"default","configuration":{"separator":47}})", ZARR_ERR_INVALID_METADATA, "separator"},
      {R"({"name":"default","configuration":{"separator":"/","x":1}})", ZARR_ERR_INVALID_METADATA, "\"x\""},
      {R"({"name":"default","configuration":"/"})", ZARR_ERR_INVALID_METADATA, "configuration"},
      {R"({"name":"default","must_understand":false})", ZARR_ERR_INVALID_METADATA, "must_understand"},
      {"5", ZARR_ERR_INVALID_METADATA, "name"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.encoding);
    expect_error(c.code, [&] { parse(with("chunk_key_encoding", c.encoding)); },
                 {"a/zarr.json: field 'chunk_key_encoding'", c.says});
  }
}

TEST(V3Metadata, DataTypeErrors) {
  expect_error(ZARR_ERR_UNSUPPORTED, [] { parse(with("data_type", "\"float8_e6m1\"")); },
               {"a/zarr.json: field 'data_type'", "\"float8_e6m1\""});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("data_type", R"({"name":"optional","configuration":{}})")); },
               {"field 'data_type'", "\"optional\"", "the inner data type"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("data_type", "5")); }, {"field 'data_type'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("data_type", R"({"name":"int8","must_understand":false})")); },
               {"field 'data_type'", "must_understand"});
}

TEST(V3Metadata, NullFillValueIsTheTypesDefault) {
  // zarrita.js writes null when given no fill value and reads it as zero.
  const std::string int8 = with("data_type", "\"int8\"", with("codecs", R"([{"name":"bytes"}])").c_str());
  EXPECT_EQ(parse(with("fill_value", "null", int8.c_str())).fill_value, Bytes{0});
  const ArrayMetadata m = parse(with("fill_value", "null"));  // float32
  EXPECT_EQ(m.fill_value, Bytes(4, 0));
  // Written back, it is the v3 form.
  EXPECT_NE(serialize_v3_array_metadata(m).find("\"fill_value\": 0.0,"), std::string::npos);
}

TEST(V3Metadata, FillValueErrors) {
  for (const char* bad : {"\"nan\"", "[1, 2]", "true", "\"0x7fc0\"", "{}"}) {
    SCOPED_TRACE(bad);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with("fill_value", bad)); },
                 {"a/zarr.json: field 'fill_value'", "fill_value"});
  }
  const std::string int8 = with("data_type", "\"int8\"", with("codecs", R"([{"name":"bytes"}])").c_str());
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with("fill_value", "300", int8.c_str())); },
               {"field 'fill_value'", "out of range"});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with("fill_value", "1.5", int8.c_str())); }, {"field 'fill_value'"});
  EXPECT_EQ(parse(with("fill_value", "-5", int8.c_str())).fill_value, Bytes{0xfb});
}

TEST(V3Metadata, CodecErrors) {
  expect_error(ZARR_ERR_UNSUPPORTED, [] { parse(with("codecs", R"([{"name":"bytes","configuration":{"endian":"little"}},{"name":"lz9"}])")); },
               {"a/zarr.json: field 'codecs'", "lz9"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("codecs", "{}")); }, {"a/zarr.json: field 'codecs'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { parse(with("codecs", "[]")); }, {"a/zarr.json: field 'codecs'"});
  // A variable-length type needs its vlen codec: the bytes codec would store pointers.
  const std::string strings = with("data_type", "\"string\"", with("fill_value", "\"\"").c_str());
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with("codecs", R"([{"name":"bytes"}])", strings.c_str())); },
               {"field 'codecs'", "vlen-utf8"});
}

TEST(V3Metadata, AttributeAndDimensionNameErrors) {
  for (const char* bad : {"[]", "5", "\"x\"", "null"}) {
    SCOPED_TRACE(bad);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with("attributes", bad)); }, {"field 'attributes'"});
  }
  const struct {
    const char* names;
    const char* says;
  } cases[] = {
      {R"(["y"])", "has 1 entries but 'shape' has 2 dimensions"},
      {R"(["y","x","z"])", "has 3 entries"},
      {R"(["y",5])", "item 1 must be a string or null"},
      {R"(["y",["x"]])", "item 1"},
      {R"("yx")", "must be a list"},
      {"{}", "must be a list"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.names);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { parse(with("dimension_names", c.names)); },
                 {"a/zarr.json: field 'dimension_names'", c.says});
  }
}

// ---- create ------------------------------------------------------------------------

TEST(V3Metadata, CreateFillsZarrPythonDefaults) {
  const ArrayMetadata m = parse_v3_array_metadata_for_create(R"({"shape":[4],"data_type":"int16"})", "create");
  EXPECT_EQ(m.zarr_format, 3);
  EXPECT_EQ(m.chunks, (std::vector<uint64_t>{4}));
  EXPECT_EQ(m.key_encoding.kind, ChunkKeyEncoding::Kind::Default);
  EXPECT_EQ(m.key_encoding.separator, '/');
  EXPECT_EQ(m.fill_value, Bytes(2, 0));
  EXPECT_EQ(m.attributes_json, "{}");
  EXPECT_TRUE(m.dimension_names.empty());
  EXPECT_EQ(v3_codecs_json(m.codecs), R"([{"name":"bytes","configuration":{"endian":"little"}}])");
  // What zarr-python 3 writes for the same array without a compressor.
  std::string expected = kInt16;
  for (auto [from, to] : {std::pair<std::string, std::string>{"        2\n", "        4\n"},
                          {"{\n    \"answer\": 42\n  }", "{}"},
                          {"  \"dimension_names\": [\n    \"x\"\n  ],\n", ""}}) {
    expected.replace(expected.find(from), from.size(), to);
  }
  EXPECT_EQ(serialize_v3_array_metadata(m), expected);
}

TEST(V3Metadata, CreateDefaultsPerType) {
  const struct {
    const char* data_type;
    const char* fill;
    const char* codecs;
  } cases[] = {
      {"\"bool\"", "false", R"([{"name":"bytes"}])"},
      {"\"uint8\"", "0", R"([{"name":"bytes"}])"},
      {"\"r16\"", "[0,0]", R"([{"name":"bytes"}])"},
      {"\"float32\"", "0.0", R"([{"name":"bytes","configuration":{"endian":"little"}}])"},
      {"\"bfloat16\"", "0.0", R"([{"name":"bytes","configuration":{"endian":"little"}}])"},
      {"\"complex64\"", "[0.0,0.0]", R"([{"name":"bytes","configuration":{"endian":"little"}}])"},
      {R"({"name":"numpy.datetime64","configuration":{"unit":"ns","scale_factor":1}})", "-9223372036854775808",
       R"([{"name":"bytes","configuration":{"endian":"little"}}])"},
      {R"({"name":"fixed_length_utf32","configuration":{"length_bytes":8}})", "\"\"",
       R"([{"name":"bytes","configuration":{"endian":"little"}}])"},
      {R"({"name":"null_terminated_bytes","configuration":{"length_bytes":3}})", "\"\"", R"([{"name":"bytes"}])"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.data_type);
    const ArrayMetadata m = parse_v3_array_metadata_for_create(
        std::string(R"({"shape":[3,0],"data_type":)") + c.data_type + "}", "create");
    EXPECT_EQ(m.chunks, (std::vector<uint64_t>{3, 1}));  // a zero-length axis still needs a positive chunk
    EXPECT_EQ(m.dtype.fill_value_to_v3_json(m.fill_item()), c.fill);
    EXPECT_EQ(v3_codecs_json(m.codecs), c.codecs);
    expect_same_model(parse(serialize_v3_array_metadata(m)), m);
  }
  // The variable-length types default to their vlen codec, which the chain
  // may not have yet: either it works or it is reported unsupported by name.
  for (const auto& [type, codec] : {std::pair<const char*, const char*>{"\"string\"", "vlen-utf8"},
                                    {"\"variable_length_bytes\"", "vlen-bytes"}}) {
    SCOPED_TRACE(type);
    try {
      const ArrayMetadata m =
          parse_v3_array_metadata_for_create(std::string(R"({"shape":[3],"data_type":)") + type + "}", "create");
      EXPECT_EQ(m.codecs.array_to_bytes()->name(), codec);
      EXPECT_EQ(m.fill_value, Bytes{});
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ZARR_ERR_UNSUPPORTED) << e.what();
      EXPECT_NE(std::string(e.what()).find(codec), std::string::npos) << e.what();
    }
  }
}

TEST(V3Metadata, CreateKeepsWhatIsGiven) {
  const ArrayMetadata m = parse_v3_array_metadata_for_create(kCompact, "create");
  expect_same_model(m, parse(kCompact));
  const ArrayMetadata partial = parse_v3_array_metadata_for_create(
      R"({"shape":[10],"data_type":"uint16","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[3]}},)"
      R"("chunk_key_encoding":{"name":"v2"},"fill_value":7,"attributes":{"k":"v"},"dimension_names":["t"]})",
      "create");
  EXPECT_EQ(partial.chunks, (std::vector<uint64_t>{3}));
  EXPECT_EQ(partial.key_encoding.kind, ChunkKeyEncoding::Kind::V2);
  EXPECT_EQ(partial.fill_value, (Bytes{7, 0}));
  EXPECT_EQ(partial.attributes_json, R"({"k":"v"})");
  EXPECT_EQ(partial.dimension_names.size(), 1u);
}

TEST(V3Metadata, CreateErrors) {
  auto create = [](const std::string& text) { parse_v3_array_metadata_for_create(text, "create"); };
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { create(R"({"data_type":"int8"})"); }, {"missing required field 'shape'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { create(R"({"shape":[1]})"); }, {"missing required field 'data_type'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { create(R"({"shape":[1],"data_type":"int8","zarr_format":2})"); },
               {"'zarr_format' must be 3"});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { create(R"({"shape":[1],"data_type":"int8","node_type":"group"})"); },
               {"'node_type' must be \"array\""});
  expect_error(ZARR_ERR_UNSUPPORTED, [&] { create(R"({"shape":[1],"data_type":"int8","chunks":[1]})"); },
               {"\"chunks\""});
  expect_error(ZARR_ERR_UNSUPPORTED, [&] { create(R"({"shape":[1],"data_type":"int9"})"); }, {"\"int9\""});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { create(R"({"shape":[1],"data_type":"int8","fill_value":1000})"); },
               {"fill_value"});
}

// ---- groups --------------------------------------------------------------------------

TEST(V3Group, ParsesAndSerialisesAsZarrPython) {
  const GroupMetadataV3 g = parse_v3_group_metadata(kGroup, "g/zarr.json");
  EXPECT_EQ(g.attributes_json, "{}");
  EXPECT_EQ(g.consolidated_json, "");
  EXPECT_EQ(serialize_v3_group_metadata(g), kGroup);
  // Minimal and attribute-carrying groups.
  const GroupMetadataV3 minimal = parse_v3_group_metadata(R"({"zarr_format":3,"node_type":"group"})", "g");
  EXPECT_EQ(minimal.attributes_json, "{}");
  EXPECT_EQ(minimal.consolidated_json, "");
  GroupMetadataV3 with_attrs;
  with_attrs.attributes_json = R"({"spam":"ham","eggs":42,"nested":{"a":[1.5,null,true]},"e":[],"o":{}})";
  const std::string text = serialize_v3_group_metadata(with_attrs);
  EXPECT_EQ(text,
            "{\n  \"attributes\": {\n    \"spam\": \"ham\",\n    \"eggs\": 42,\n    \"nested\": {\n      \"a\": [\n"
            "        1.5,\n        null,\n        true\n      ]\n    },\n    \"e\": [],\n    \"o\": {}\n  },\n"
            "  \"zarr_format\": 3,\n  \"consolidated_metadata\": null,\n  \"node_type\": \"group\"\n}");
  EXPECT_EQ(parse_v3_group_metadata(text, "g").attributes_json, with_attrs.attributes_json);
}

TEST(V3Group, ConsolidatedMetadataIsKept) {
  const std::string doc =
      R"({"attributes":{},"zarr_format":3,"consolidated_metadata":{"kind":"inline","must_understand":false,"metadata":{}},"node_type":"group"})";
  const GroupMetadataV3 g = parse_v3_group_metadata(doc, "g");
  EXPECT_EQ(g.consolidated_json, R"({"kind":"inline","must_understand":false,"metadata":{}})");
  const std::string text = serialize_v3_group_metadata(g);
  EXPECT_NE(text.find("\"consolidated_metadata\": {\n    \"kind\": \"inline\",\n    \"must_understand\": false,\n"
                      "    \"metadata\": {}\n  },"),
            std::string::npos)
      << text;
  EXPECT_EQ(parse_v3_group_metadata(text, "g").consolidated_json, g.consolidated_json);
}

TEST(V3Group, Errors) {
  auto group = [](const std::string& text) { parse_v3_group_metadata(text, "g/zarr.json"); };
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { group(R"({"zarr_format":3,"node_type":"array"})"); },
               {"g/zarr.json", "'node_type' must be \"group\", got \"array\""});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { group(R"({"zarr_format":2,"node_type":"group"})"); }, {"must be 3"});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { group(R"({"node_type":"group"})"); }, {"'zarr_format'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { group(R"({"zarr_format":3})"); }, {"'node_type'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { group(R"({"zarr_format":3,"node_type":"group","attributes":[]})"); },
               {"'attributes'"});
  expect_error(ZARR_ERR_INVALID_METADATA,
               [&] { group(R"({"zarr_format":3,"node_type":"group","consolidated_metadata":5})"); },
               {"'consolidated_metadata'"});
  expect_error(ZARR_ERR_UNSUPPORTED, [&] { group(R"({"zarr_format":3,"node_type":"group","x_ext":{}})"); },
               {"\"x_ext\""});
  EXPECT_NO_THROW(group(R"({"zarr_format":3,"node_type":"group","x_ext":{"must_understand":false}})"));
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { group("nope"); }, {"malformed JSON"});
  // An array's zarr.json is not a group.
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { group(kInt16); }, {"'node_type'"});
}

TEST(V3NodeType, TellsArraysFromGroups) {
  EXPECT_EQ(v3_node_type(kInt16, "a"), "array");
  EXPECT_EQ(v3_node_type(kGroup, "g"), "group");
  expect_error(ZARR_ERR_INVALID_METADATA, [] { v3_node_type(R"({"zarr_format":3,"node_type":"link"})", "n"); },
               {"\"link\""});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { v3_node_type(R"({"zarr_format":2,"node_type":"array"})", "n"); },
               {"must be 3"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { v3_node_type(R"({"zarr_format":3})", "n"); }, {"'node_type'"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { v3_node_type("[]", "n"); }, {"object"});
}

// ---- node names ------------------------------------------------------------------------

TEST(V3NodeName, SpecRules) {
  for (const char* ok : {"a", "foo", "FOO", "my group with spaces", ".a", "a.", "..a", "a..b", "_a", "a__",
                         "1d.chunked.i2", "\xc3\xa9t\xc3\xa9", "-", "zarr.json"}) {
    SCOPED_TRACE(ok);
    EXPECT_NO_THROW(validate_v3_node_name(ok, "create"));
  }
  const struct {
    std::string name;
    const char* says;
  } bad[] = {
      {"", "must not be empty"},
      {"a/b", "\"/\""},
      {"/", "\"/\""},
      {"a/", "\"/\""},
      {".", "periods"},
      {"..", "periods"},
      {"....", "periods"},
      {"__a", "\"__\""},
      {"__zarr", "\"__\""},
      {"__", "\"__\""},
      {"\xff\xfe", "UTF-8"},
      {"a\xc3", "UTF-8"},
  };
  for (const auto& c : bad) {
    SCOPED_TRACE(c.name);
    expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { validate_v3_node_name(c.name, "create 'x'"); },
                 {"create 'x': node name", c.says});
  }
}

// ---- Python's json.dumps layout ---------------------------------------------------------

TEST(V3Metadata, WritesJsonAsPythonDoes) {
  ArrayMetadata m = parse(kInt16);
  m.attributes_json =
      R"({"text":"caf\u00e9 \ud83d\ude00 \"q\" \\ \n\t\r\b\f \u0001 \u007f /","small":1e-05,"big":1e16,)"
      R"("neg":-2.5,"int":-7,"u":18446744073709551615,"nan":NaN,"inf":-Infinity,"zero":0.0})";
  const std::string text = serialize_v3_array_metadata(m);
  const std::string expected_attrs =
      "  \"attributes\": {\n"
      "    \"text\": \"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\ \\n\\t\\r\\b\\f \\u0001 \\u007f /\",\n"
      "    \"small\": 1e-05,\n    \"big\": 1e+16,\n    \"neg\": -2.5,\n    \"int\": -7,\n"
      "    \"u\": 18446744073709551615,\n    \"nan\": \"NaN\",\n    \"inf\": \"-Infinity\",\n    \"zero\": 0.0\n  },\n";
  EXPECT_NE(text.find(expected_attrs), std::string::npos) << text;
}

// ---- every zarr.json in ../shared/peer-data ---------------------------------------------

namespace {

struct PeerFile {
  std::string path;  // relative to the peer-data folder
  std::string text;
};

std::vector<PeerFile> peer_zarr_json(const std::string& dir) {
  std::vector<PeerFile> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() != "zarr.json") continue;
    const Bytes b = test::read_file(entry.path().string());
    out.push_back({fs::relative(entry.path(), dir).string(), std::string(b.begin(), b.end())});
  }
  std::sort(out.begin(), out.end(), [](const PeerFile& a, const PeerFile& b) { return a.path < b.path; });
  return out;
}

// What the chain or the data type lacks in this build, by name: an array
// using one of these is expected to be reported unsupported, naming it.
// (Compressors are listed for builds without their library.)
const char* const kKnownGaps[] = {"'vlen-utf8'", "'vlen-bytes'", "'sharding_indexed'", "data type \"optional\"",
                                  "bz2", "zlib", "blosc", "gzip", "zstd",
                                  "libzfp", "unsupported codec 'numcodecs.pcodec'"};

// zarr-python 3's layout (other writers order keys differently).
bool written_by_zarr_python_3(const std::string& text) {
  return text.rfind("{\n  \"shape\": [", 0) == 0 || text.rfind("{\n  \"attributes\": {", 0) == 0;
}

}  // namespace

TEST(V3PeerData, EveryZarrJsonParsesAndRoundTrips) {
  const std::string dir = test::peer_data_dir();
  if (dir.empty()) GTEST_SKIP() << "peer data not found at " << test::peer_data_expected_location();
  const std::vector<PeerFile> files = peer_zarr_json(dir);
  ASSERT_FALSE(files.empty());
  size_t arrays = 0, groups = 0, identical = 0;
  std::map<std::string, std::vector<std::string>> unsupported;  // reason -> files
  for (const PeerFile& f : files) {
    SCOPED_TRACE(f.path);
    const std::string type = v3_node_type(f.text, f.path);
    if (type == "group") {
      ++groups;
      const GroupMetadataV3 g = parse_v3_group_metadata(f.text, f.path);
      const GroupMetadataV3 again = parse_v3_group_metadata(serialize_v3_group_metadata(g), f.path);
      EXPECT_EQ(again.attributes_json, g.attributes_json);
      EXPECT_EQ(again.consolidated_json, g.consolidated_json);
      if (serialize_v3_group_metadata(g) == f.text) ++identical;
      if (written_by_zarr_python_3(f.text)) {
        EXPECT_EQ(serialize_v3_group_metadata(g), f.text);
      }
      continue;
    }
    ++arrays;
    ArrayMetadata m;
    try {
      m = parse_v3_array_metadata(f.text, f.path);
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.code(), ZARR_ERR_UNSUPPORTED) << what;
      const char* gap = nullptr;
      for (const char* g : kKnownGaps) {
        if (!gap && what.find(g) != std::string::npos) gap = g;
      }
      EXPECT_NE(gap, nullptr) << "unexpected failure: " << what;
      unsupported[gap ? gap : what].push_back(f.path);
      continue;
    }
    const std::string text = serialize_v3_array_metadata(m);
    expect_same_model(parse_v3_array_metadata(text, f.path), m);
    if (text == f.text) ++identical;
    // Byte-identical to zarr-python 3, except that libzarr's blosc writes
    // "typesize" after "shuffle" (zarr-python puts it first).
    if (written_by_zarr_python_3(f.text) && f.text.find("\"blosc\"") == std::string::npos) {
      EXPECT_EQ(text, f.text);
    }
  }
  std::cout << "[ v3 peer ] " << files.size() << " zarr.json: " << groups << " groups, " << arrays << " arrays, "
            << identical << " re-serialised byte-identically\n";
  for (const auto& [reason, paths] : unsupported) {
    std::cout << "[ v3 peer ] unsupported (" << reason << "): " << paths.size() << "\n";
    for (const auto& p : paths) std::cout << "[ v3 peer ]     " << p << "\n";
  }
  EXPECT_GT(groups, 0u);
  EXPECT_GT(arrays, 0u);
}

TEST(V3PeerData, ExtensionDataTypesOfZarrPython3) {
  const std::string dir = test::peer_data_dir();
  if (dir.empty()) GTEST_SKIP() << "peer data not found at " << test::peer_data_expected_location();
  const std::string compat = dir + "/zarrs-data/zarr_python_compat/";
  if (!test::file_exists(compat + "fixed_length_utf32_v3_le.zarr/zarr.json")) {
    GTEST_SKIP() << "zarr_python_compat fixtures not found in " << compat;
  }
  auto data_type = [&](const std::string& name) {
    const Bytes b = test::read_file(compat + name + "/zarr.json");
    rapidjson::Document doc = json::parse(std::string(b.begin(), b.end()), name);
    return std::make_pair(DataType::parse_v3(doc["data_type"], name), std::string(json::to_string(doc["fill_value"])));
  };
  {
    const auto [t, fill] = data_type("datetime64[10ms].zarr");
    EXPECT_EQ(t.kind(), DTypeKind::DateTime);
    EXPECT_EQ(t.time_unit(), "10ms");
    rapidjson::Document f = json::parse(fill, "fill");
    EXPECT_EQ(t.fill_value_to_v3_json(t.parse_fill_value_v3(f, "fill")), fill);
  }
  {
    const auto [t, fill] = data_type("timedelta64[ps].zarr");
    EXPECT_EQ(t.kind(), DTypeKind::TimeDelta);
    EXPECT_EQ(t.time_unit(), "ps");
  }
  {
    const auto [t, fill] = data_type("fixed_length_utf32_v3_le.zarr");
    EXPECT_EQ(t.kind(), DTypeKind::Unicode);
    EXPECT_EQ(t.item_size(), 16u);
    rapidjson::Document f = json::parse(fill, "fill");
    EXPECT_EQ(t.parse_fill_value_v3(f, "fill"), Bytes(16, 0));
  }
  {
    const auto [t, fill] = data_type("v3_bytes.zarr");
    EXPECT_EQ(t.kind(), DTypeKind::VarBytes);
    rapidjson::Document f = json::parse(fill, "fill");
    EXPECT_EQ(t.parse_fill_value_v3(f, "fill"), Bytes{});
  }
  {
    const auto [t, fill] = data_type("cities_v3.zarr");
    EXPECT_EQ(t.kind(), DTypeKind::VarString);
  }
}

TEST(V3PeerData, ConsolidatedMetadataEntriesParse) {
  const std::string dir = test::peer_data_dir();
  if (dir.empty()) GTEST_SKIP() << "peer data not found at " << test::peer_data_expected_location();
  const std::string path = dir + "/zarrita-fixtures/v3/data.zarr/consolidated/zarr.json";
  if (!test::file_exists(path)) GTEST_SKIP() << "no consolidated fixture at " << path;
  const Bytes b = test::read_file(path);
  const GroupMetadataV3 g = parse_v3_group_metadata(std::string(b.begin(), b.end()), path);
  ASSERT_FALSE(g.consolidated_json.empty());
  rapidjson::Document c = json::parse(g.consolidated_json, "consolidated");
  EXPECT_EQ(std::string(c["kind"].GetString()), "inline");
  size_t entries = 0;
  for (auto it = c["metadata"].MemberBegin(); it != c["metadata"].MemberEnd(); ++it, ++entries) {
    const std::string key = it->name.GetString();
    SCOPED_TRACE(key);
    for (const std::string& segment : {key.substr(0, key.find('/')), key.substr(key.rfind('/') + 1)}) {
      EXPECT_NO_THROW(validate_v3_node_name(segment, key));
    }
    const std::string entry = json::to_string(it->value);
    const std::string type = v3_node_type(entry, key);
    if (type == "group") {
      EXPECT_NO_THROW(parse_v3_group_metadata(entry, key));
      continue;
    }
    // The entry must describe the same array as the array's own zarr.json.
    const ArrayMetadata m = parse_v3_array_metadata(entry, key);
    const Bytes own = test::read_file(dir + "/zarrita-fixtures/v3/data.zarr/consolidated/" + key + "/zarr.json");
    expect_same_model(parse_v3_array_metadata(std::string(own.begin(), own.end()), key), m);
  }
  EXPECT_EQ(entries, 4u);
}
