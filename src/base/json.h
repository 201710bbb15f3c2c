// JSON helpers over RapidJSON: parsing with errors that name the document,
// typed member access with errors that name the field, and serialisation.
#pragma once

#include <cstdint>
#include <initializer_list>
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
// How to_pretty_string writes NaN and the infinities: bare, as Python's
// json.dumps does (zarr-python 2), or as the strings "NaN", "Infinity",
// "-Infinity" that zarr-python 3 puts in their place in zarr.json.
enum class NonFinite { kBare, kQuoted };

// Serialisation as Python's json.dumps(value, indent=N, ensure_ascii=True)
// writes it, the one implementation: zarr-python 2 writes .zarray, .zgroup and
// .zattrs with indent 4, zarr-python 3 writes zarr.json with indent 2 (and
// NonFinite::kQuoted). Floats as repr(float); everything outside printable
// ASCII (DEL included) as lowercase \uXXXX escapes. Keys keep their order.
std::string to_pretty_string(const rapidjson::Value& value, int indent = 4,
                             NonFinite non_finite = NonFinite::kBare);

// Python's repr(float): the shortest digits that round-trip, positional for
// decimal exponents -4..15 ("0.0001", "123.0"), scientific otherwise
// ("1e-05", "1e+16", "1.5e+300"); NaN and infinities as json.dumps writes
// them ("NaN", "Infinity", "-Infinity").
std::string python_float_repr(double value);

// Sort object members by key, recursively (as Python's json.dumps(sort_keys=True)).
void sort_keys(rapidjson::Value& value);

// A JSON string literal for s (quoted and escaped).
std::string quote(const std::string& s);

// The one wording and quoting of a name a reader does not know: what + " " +
// the name as a JSON string, cut after 80 characters (a hostile document's
// name can be megabytes): unknown("member", "colour") is `unknown member
// "colour"`; `what` is "member", "configuration member" or "option".
std::string unknown(const char* what, const std::string& name);
// What kind of JSON value v is, for messages: "an object", "an array", "a
// string", "a number", "true", "false" or "null".
const char* kind_name(const rapidjson::Value& v);
// Fails with `code` and "<where>: unknown <what> \"name\"" on the first member
// of `object` whose name `known` does not hold (nothing when it holds all).
void check_members(const rapidjson::Value& object, std::initializer_list<const char*> known, int code,
                   const std::string& where, const char* what = "member");

// The text of a JSON string (a value or a member's name), whole: its length
// comes from the document, so an escaped NUL ("\u0000") stays in it instead
// of ending it as GetString() read as a C string would. `v` must be a string.
// Every JSON string that becomes a std::string goes through here.
std::string text(const rapidjson::Value& v);
// text() of a string that becomes a path, URL, name or key: the C library,
// the kernel or a server would end it at a NUL, so a NUL inside is
// ZARR_ERR_INVALID_ARGUMENT "<member> holds a NUL byte (at byte N)..." (the
// text is not repeated: it may be a secret).
std::string nul_free_text(const rapidjson::Value& v, const std::string& member);

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
