// Helpers shared by the dtype tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

#include "base/error.h"
#include "base/json.h"
#include "dtype/data_type.h"

namespace zarr::test {

inline const char* kWhere = "dtype in /a/.zarray";

// The DataType a v2 "dtype" JSON text describes.
inline DataType dtype(const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return DataType::parse_v2(doc, kWhere);
}

inline std::optional<Bytes> fill(const DataType& t, const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return t.parse_fill_value_v2(doc, "fill_value in /a/.zarray");
}

inline std::string hex(const Bytes& b) {
  std::string out;
  char buf[3];
  for (uint8_t v : b) {
    std::snprintf(buf, sizeof buf, "%02x", v);
    out += buf;
  }
  return out;
}

inline Bytes unhex(const std::string& s) {
  Bytes out;
  for (size_t i = 0; i + 1 < s.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16)));
  return out;
}

// Runs fn, expecting a zarr::Error with `code` whose message contains every
// piece of `parts`. Returns the message for further checks.
inline std::string expect_error(int code, const std::function<void()>& fn,
                                std::initializer_list<std::string> parts = {}) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
    return e.what();
  }
  ADD_FAILURE() << "no zarr::Error thrown";
  return "";
}

}  // namespace zarr::test
