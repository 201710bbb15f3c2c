#include <gtest/gtest.h>

#include "core/error.h"
#include "core/json.h"

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
