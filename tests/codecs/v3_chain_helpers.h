// Helpers of the v3 codec chain tests (test_v3_codecs, test_v3_array_codecs,
// test_v3_meta_codecs, test_zfp_codecs): an array of any v3 data type, the
// chain a "codecs" list builds for it, the error building it gives, and
// values to and from bytes.
#pragma once

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/json.h"
#include "codecs/v3_chain.h"

namespace zarr::test {

// Any v3 data_type name, the registry's extension types included.
inline ArrayRepr repr_of(const char* v3_type, std::vector<uint64_t> shape) {
  rapidjson::Document name = json::parse(json::quote(v3_type), "data_type");
  DataType t = DataType::parse_v3(name, "data_type");
  return ArrayRepr{std::move(shape), t, Bytes(t.item_size(), 0)};
}

inline CodecChain chain(const std::string& codecs, const ArrayRepr& decoded) {
  rapidjson::Document doc = json::parse(codecs, "codecs");
  return make_v3_codec_chain(doc, decoded, "zarr.json: field 'codecs'");
}

// The error building the chain gives: code and message (ZARR_OK and "" when none).
inline std::pair<int, std::string> error_of(const std::string& codecs, const ArrayRepr& decoded) {
  try {
    chain(codecs, decoded);
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {ZARR_OK, ""};
}

template <typename T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T>
std::vector<T> values_of(const Bytes& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
  return v;
}

}  // namespace zarr::test

// Building the chain `codecs` for `decoded` fails with `code`, the message holding `fragment`.
#define EXPECT_ERROR(codecs, decoded, code, fragment)                    \
  do {                                                                   \
    auto e_ = zarr::test::error_of(codecs, decoded);                     \
    EXPECT_EQ(e_.first, code) << e_.second;                              \
    EXPECT_NE(e_.second.find(fragment), std::string::npos) << e_.second; \
  } while (0)
