// JSON helpers over RapidJSON: parsing with errors that name the document,
// typed member access with errors that name the field, and serialisation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <rapidjson/document.h>

namespace zarr::json {

// Limits on what parse() accepts, against hostile documents: a nesting
// deeper than kMaxDepth would run the recursive parser (and every recursive
// reader of the result) off the stack; kMaxDocumentBytes bounds the memory
// one document may take (consolidated metadata of very large hierarchies
// stays far below it).
constexpr size_t kMaxDepth = 512;
constexpr size_t kMaxDocumentBytes = size_t{256} << 20;

// Parse text; on failure ZARR_ERR_INVALID_METADATA "<where>: malformed JSON at
// offset N: <reason>". `where` names the key or file ("a/.zarray"). A
// document over the limits above is ZARR_ERR_INVALID_METADATA too, before
// any parsing.
rapidjson::Document parse(const std::string& text, const std::string& where);

// Parse text that must be a JSON object (attributes, options).
rapidjson::Document parse_object(const std::string& text, const std::string& where);

// Compact serialisation of a value.
std::string to_string(const rapidjson::Value& value);
// Serialisation as Python's json.dumps(value, indent=N, ensure_ascii=True)
// writes it: zarr-python 2 writes .zarray, .zgroup and .zattrs with indent 4,
// zarr-python 3 writes zarr.json with indent 2. Floats as repr(float), NaN
// and Infinity bare, non-ASCII as lowercase \uXXXX escapes. Keys keep their order.
std::string to_pretty_string(const rapidjson::Value& value, int indent = 4);

// Python's repr(float): the shortest digits that round-trip, positional for
// decimal exponents -4..15 ("0.0001", "123.0"), scientific otherwise
// ("1e-05", "1e+16", "1.5e+300"); NaN and infinities as json.dumps writes
// them ("NaN", "Infinity", "-Infinity").
std::string python_float_repr(double value);

// Sort object members by key, recursively (as Python's json.dumps(sort_keys=True)).
void sort_keys(rapidjson::Value& value);

// A JSON string literal for s (quoted and escaped).
std::string quote(const std::string& s);

// Member access. `where` names the document; errors name "<where>: field <name>".
const rapidjson::Value* find(const rapidjson::Value& obj, const char* name);
const rapidjson::Value& require(const rapidjson::Value& obj, const char* name, const std::string& where);
int64_t get_int(const rapidjson::Value& v, const std::string& field, const std::string& where);
uint64_t get_uint(const rapidjson::Value& v, const std::string& field, const std::string& where);
std::string get_string(const rapidjson::Value& v, const std::string& field, const std::string& where);
bool get_bool(const rapidjson::Value& v, const std::string& field, const std::string& where);
// A list of non-negative integers (shape, chunks).
std::vector<uint64_t> get_uint_list(const rapidjson::Value& v, const std::string& field,
                                    const std::string& where);

// Optional members: the default when absent; a type error when present but wrong.
std::optional<int64_t> opt_int(const rapidjson::Value& obj, const char* name, const std::string& where);
std::optional<std::string> opt_string(const rapidjson::Value& obj, const char* name,
                                      const std::string& where);
std::optional<bool> opt_bool(const rapidjson::Value& obj, const char* name, const std::string& where);

}  // namespace zarr::json
