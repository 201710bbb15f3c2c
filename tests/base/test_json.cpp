#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "base/error.h"
#include "base/json.h"

using namespace zarr;

namespace {
int code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return ZARR_OK;
}
}  // namespace

TEST(Json, ParseErrorNamesDocumentAndOffset) {
  try {
    json::parse("{\"a\": }", "x/.zarray");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_INVALID_METADATA);
    std::string msg = e.what();
    EXPECT_NE(msg.find("x/.zarray"), std::string::npos);
    EXPECT_NE(msg.find("offset 6"), std::string::npos);
  }
}

TEST(Json, ParseObjectRejectsNonObjects) {
  EXPECT_EQ(code_of([] { json::parse_object("[1]", "attrs"); }), ZARR_ERR_INVALID_METADATA);
  EXPECT_EQ(code_of([] { json::parse_object("{}", "attrs"); }), ZARR_OK);
}

TEST(Json, TypedAccessNamesField) {
  auto doc = json::parse("{\"shape\": [1, -2], \"n\": \"x\", \"b\": true}", "m");
  try {
    json::get_uint_list(doc["shape"], "shape", "m");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'shape' item 1"), std::string::npos);
  }
  EXPECT_EQ(code_of([&] { json::get_int(doc["n"], "n", "m"); }), ZARR_ERR_INVALID_METADATA);
  EXPECT_EQ(json::get_bool(doc["b"], "b", "m"), true);
  EXPECT_EQ(json::opt_int(doc, "missing", "m"), std::nullopt);
  EXPECT_EQ(code_of([&] { json::require(doc, "missing", "m"); }), ZARR_ERR_INVALID_METADATA);
  EXPECT_EQ(code_of([&] { json::opt_bool(doc, "n", "m"); }), ZARR_ERR_INVALID_METADATA);
}

TEST(Json, SerialiseRoundTripsAndQuotes) {
  auto doc = json::parse("{\"a\":[1,2.5,\"NaN\",null],\"b\":{\"c\":true}}", "m");
  EXPECT_EQ(json::to_string(doc), "{\"a\":[1,2.5,\"NaN\",null],\"b\":{\"c\":true}}");
  EXPECT_EQ(json::quote("a\"b\n"), "\"a\\\"b\\n\"");
  std::string pretty = json::to_pretty_string(doc);
  EXPECT_NE(pretty.find("\n    \"a\""), std::string::npos);
}

TEST(Json, LargeIntegersKeepPrecision) {
  auto doc = json::parse("{\"v\": 18446744073709551615, \"w\": -9223372036854775808}", "m");
  EXPECT_EQ(json::get_uint(doc["v"], "v", "m"), UINT64_MAX);
  EXPECT_EQ(json::get_int(doc["w"], "w", "m"), INT64_MIN);
}

// Numbers are converted from their text by libzarr (RapidJSON's own
// full-precision conversion has undefined behaviour on "0e80"): the values
// and the integer/double kinds are those of a correctly rounded parse.
TEST(Json, NumbersAreConvertedExactly) {
  auto doc = json::parse(
      "[0e80, -0.0e-400, 1e-400, -1e-400, 0.1, 2.2250738585072011e-308, 1.7976931348623157e308, "
      "9007199254740993, 18446744073709551616, -9223372036854775809, 5, -5, NaN, -Infinity, 1E2, 4.9e-324]",
      "m");
  const auto& a = doc.GetArray();
  ASSERT_EQ(a.Size(), 16u);
  EXPECT_TRUE(a[0].IsDouble());
  EXPECT_EQ(a[0].GetDouble(), 0.0);
  EXPECT_TRUE(std::signbit(a[1].GetDouble()));
  EXPECT_EQ(a[2].GetDouble(), 0.0) << "underflow is zero, as Python's json gives";
  EXPECT_TRUE(a[3].GetDouble() == 0.0 && std::signbit(a[3].GetDouble()));
  EXPECT_EQ(a[4].GetDouble(), 0.1);
  EXPECT_EQ(a[5].GetDouble(), 2.2250738585072011e-308);
  EXPECT_EQ(a[6].GetDouble(), 1.7976931348623157e308);
  ASSERT_TRUE(a[7].IsUint64());
  EXPECT_EQ(a[7].GetUint64(), 9007199254740993u) << "integers beyond 2^53 are kept exactly";
  ASSERT_TRUE(a[8].IsDouble()) << "beyond uint64: a double, as RapidJSON gives";
  EXPECT_EQ(a[8].GetDouble(), 18446744073709551616.0);
  ASSERT_TRUE(a[9].IsDouble());
  EXPECT_EQ(a[9].GetDouble(), -9223372036854775809.0);
  EXPECT_TRUE(a[10].IsInt() && a[10].IsUint() && a[10].GetInt() == 5);
  EXPECT_TRUE(a[11].IsInt() && !a[11].IsUint() && a[11].GetInt() == -5);
  EXPECT_TRUE(std::isnan(a[12].GetDouble()));
  EXPECT_EQ(a[13].GetDouble(), -HUGE_VAL);
  EXPECT_EQ(a[14].GetDouble(), 100.0);
  EXPECT_EQ(a[15].GetDouble(), 4.9e-324);
}

TEST(Json, NumbersBeyondADoubleAreMalformed) {
  for (const char* text : {"[1e400]", "{\"fill_value\": -2e308}"}) {
    try {
      json::parse(text, "a/.zarray");
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ZARR_ERR_INVALID_METADATA);
      EXPECT_NE(std::string(e.what()).find("a/.zarray: malformed JSON at offset"), std::string::npos) << e.what();
    }
  }
}

TEST(Json, PrettyOutputIsPythonJsonDumps) {
  // Expected text: /usr/bin/python3 -c "import json; print(json.dumps({...}, indent=4, ensure_ascii=True))"
  auto doc = json::parse(
      "{\"a\": [1, 2.5, 1e-07, 1e+300, 100.0, -0.0, NaN, Infinity], \"b\": {}, \"c\": [], "
      "\"s\": \"\xc3\xa9\xe2\x98\x83\xf0\x9f\x98\x80\\\"\\\\\\n\\u0001\", \"t\": true, \"n\": null}",
      "m");
  EXPECT_EQ(json::to_pretty_string(doc),
            "{\n    \"a\": [\n        1,\n        2.5,\n        1e-07,\n        1e+300,\n        100.0,\n        -0.0,\n"
            "        NaN,\n        Infinity\n    ],\n    \"b\": {},\n    \"c\": [],\n"
            "    \"s\": \"\\u00e9\\u2603\\ud83d\\ude00\\\"\\\\\\n\\u0001\",\n    \"t\": true,\n    \"n\": null\n}");
}

// The one Python-style writer serves both formats: zarr.json (indent 2,
// non-finite floats as strings, as zarr-python 3 writes them) and the v2
// documents (indent 4, bare NaN). json.dumps(ensure_ascii=True) escapes DEL
// (0x7f) too; text that is not UTF-8 has each byte escaped.
TEST(Json, PrettyOutputEscapesAsPythonAndQuotesNonFiniteOnRequest) {
  auto doc = json::parse("{\"x\": [NaN, -Infinity, 1.5], \"d\": \"a\x7f\"}", "m");
  EXPECT_EQ(json::to_pretty_string(doc, 2, json::NonFinite::kQuoted),
            "{\n  \"x\": [\n    \"NaN\",\n    \"-Infinity\",\n    1.5\n  ],\n  \"d\": \"a\\u007f\"\n}");
  EXPECT_EQ(json::to_pretty_string(doc, 2),
            "{\n  \"x\": [\n    NaN,\n    -Infinity,\n    1.5\n  ],\n  \"d\": \"a\\u007f\"\n}");
  rapidjson::Document bad;
  bad.SetString("\xff\xc3", 2, bad.GetAllocator());
  EXPECT_EQ(json::to_pretty_string(bad), "\"\\u00ff\\u00c3\"");
}

TEST(Json, PythonFloatRepr) {
  EXPECT_EQ(json::python_float_repr(0.1), "0.1");
  EXPECT_EQ(json::python_float_repr(1e16), "1e+16");
  EXPECT_EQ(json::python_float_repr(1234567890123456.0), "1234567890123456.0");
  EXPECT_EQ(json::python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(json::python_float_repr(0.00001), "1e-05");
  EXPECT_EQ(json::python_float_repr(-2.5e-300), "-2.5e-300");
  EXPECT_EQ(json::python_float_repr(static_cast<double>(1e20f)), "1.0000000200408773e+20");
}

// Limits against hostile documents (docs/reliability.md#hostile-input).
TEST(JsonLimits, NestingDeeperThanTheLimitIsRefusedBeforeParsing) {
  const auto nested = [](size_t depth, char open, char close) {
    return std::string(depth, open) + std::string(depth, close);
  };
  EXPECT_EQ(code_of([&] { json::parse(nested(json::kMaxDepth, '[', ']'), "a"); }), ZARR_OK);
  // A million levels would run the recursive parser off the stack.
  for (size_t depth : {json::kMaxDepth + 1, size_t{1000000}}) {
    try {
      json::parse(nested(depth, '[', ']'), "g/.zattrs");
      FAIL() << depth;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ZARR_ERR_INVALID_METADATA);
      EXPECT_NE(std::string(e.what()).find("g/.zattrs: JSON nested deeper than 512 levels at offset 512"),
                std::string::npos)
          << e.what();
    }
  }
  std::string objects;
  for (size_t i = 0; i <= json::kMaxDepth; ++i) objects += "{\"k\":";
  objects += "1" + std::string(json::kMaxDepth + 1, '}');
  EXPECT_EQ(code_of([&] { json::parse(objects, "a"); }), ZARR_ERR_INVALID_METADATA);
}

TEST(JsonLimits, BracketsInsideStringsDoNotCount) {
  const std::string deep_text = "{\"s\": \"" + std::string(2000, '[') + "\\\"" + std::string(2000, '{') + "\"}";
  EXPECT_EQ(code_of([&] { json::parse(deep_text, "a"); }), ZARR_OK);
}

TEST(JsonLimits, DocumentsOverTheSizeLimitAreRefused) {
  std::string big(json::kMaxDocumentBytes + 1, ' ');
  big.front() = '1';
  try {
    json::parse(big, "zarr.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_INVALID_METADATA);
    EXPECT_NE(std::string(e.what()).find("zarr.json: document of 268435457 bytes is over the limit of 268435456"),
              std::string::npos)
        << e.what();
  }
}
