// The parts of the spec front end (spec.h) and what they share: the parsed
// spec (SpecRequest), its error helpers, and each part's entry point.
// Internal to src/spec/.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "array/array.h"
#include "array/field_array.h"
#include "base/error.h"
#include "base/json.h"
#include "dtype/data_type.h"

namespace zarr::spec_detail {

using rapidjson::Value;

[[noreturn]] inline void invalid(const std::string& message) { fail(ZARR_ERR_INVALID_ARGUMENT, "spec: " + message); }
[[noreturn]] inline void unsupported(const std::string& message) { fail(ZARR_ERR_UNSUPPORTED, "spec: " + message); }
[[noreturn]] inline void contradicts(const std::string& field, const std::string& spec_value,
                              const std::string& stored_value) {
  fail(ZARR_ERR_INVALID_METADATA, field + ": spec " + spec_value + " but stored " + stored_value);
}

inline std::string text(const Value& v) { return json::to_string(v); }

// ---- the parsed spec ----------------------------------------------------------------

// TensorStore's chunk_layout, its chunk / read_chunk / write_chunk grids
// merged (zarr has one level of chunking).
struct ChunkLayoutRequest {
  std::vector<int64_t> shape;         // hard: 0 unconstrained, -1 full extent
  std::vector<int64_t> soft_shape;    // shape_soft_constraint: used when creating only
  std::vector<double> aspect_ratio;   // creating only
  std::optional<int64_t> elements;    // creating only
  std::optional<std::vector<int64_t>> inner_order;
};

struct SpecRequest {
  int zarr_format = 2;
  std::string url;
  bool open = true;
  bool create = false;
  bool delete_existing = false;
  std::string assume_member;  // "assume_metadata" / "assume_cached_metadata", or empty
  rapidjson::Document metadata{rapidjson::kObjectType};  // constraints ({} when absent)
  std::optional<std::string> dtype;  // a TensorStore data type name
  std::string dtype_member;          // "dtype" or "schema.dtype"
  std::optional<size_t> rank;
  std::string rank_member;
  std::optional<std::vector<uint64_t>> shape;  // schema.domain / schema.shape
  std::string shape_member;
  rapidjson::Document fill_value;  // schema.fill_value (null type when absent)
  bool has_fill_value = false;
  ChunkLayoutRequest chunk_layout;
  std::optional<std::string> field;  // v2 structured types: the field to open
  ArrayOptions options;
  bool recheck_data_is_time_bound = false;
};

// ---- reading the spec (spec_parse.cpp, spec_kvstore.cpp) -------------------------------

SpecRequest parse_spec(const std::string& spec_json);
// kvstore joined with path, in libzarr's URL syntax.
std::string parse_location(const Value& doc);
// A string member; a string is required.
std::string get_text(const Value& v, const std::string& name);
// Members of an object that are neither known nor unsupported are a mistake
// (a typo must not be ignored); unsupported ones are named as such.
void check_members(const Value& object, const std::string& where, const std::set<std::string>& known,
                   const std::set<std::string>& unsupported_members = {});
// A domain's upper bounds ([100, 200] or TensorStore's resizable [[100], [200]]).
std::vector<uint64_t> domain_bounds(const Value& v, const std::string& member);

// ---- constraints against stored metadata (spec_check.cpp) ------------------------------

// A constraint holds when every member it gives is in the stored value with
// a matching value (objects), lists match item by item, numbers by value.
bool satisfies(const Value& stored, const Value& wanted);
// The TensorStore name of a data type ("uint16" for "<u2" and ">u2").
std::optional<std::string> tensorstore_name(const DataType& type);
// metadata.chunks with -1 / null: the full extent, as zarr-python's chunks.
void resolve_full_extent_chunks(Value& chunks, const std::vector<uint64_t>& shape);
// Every constraint of the spec against the array (or the field's view) that
// exists: ZARR_ERR_INVALID_METADATA naming the first one it contradicts.
void check_against_stored(const SpecRequest& spec, const Array& array, const FieldArray* field);

// ---- a new array's document (spec_create.cpp) -------------------------------------------

// The .zarray / zarr.json of the array the spec creates or assumes.
std::string creation_document(const SpecRequest& spec);

}  // namespace zarr::spec_detail
