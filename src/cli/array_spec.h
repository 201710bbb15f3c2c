// The metadata document of a new array, built from command-line choices
// (create) or from an existing array plus changes (cp), for Zarr v2 or v3.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zarrtool {

struct ArraySpec {
  int zarr_format = 3;
  std::vector<uint64_t> shape;
  std::string data_type;             // any spelling zarr_data_type_form takes ("int32", "<U6", "string")
  std::string object_codec_json;     // a v2 object ("|O") array's object codec; "" for other types
  std::vector<uint64_t> chunks;      // empty: one chunk
  std::vector<uint64_t> shards;      // v3 only; empty: not sharded
  // v3 only: a chunk_grid member (a rectilinear grid) in place of the
  // regular one of chunks or shards; with it, non-empty chunks are the inner
  // chunks of shards of that grid. "" for none.
  std::string chunk_grid_json;
  std::string codec_json;            // "" for the library's defaults (see docs/cli.md)
  std::string fill_value_json;       // "" for the library's default
  std::string attributes_json;       // "" for none
  std::string dimension_names_json;  // "" or "null" for none (v3 only)
};

// The .zarray (v2) or zarr.json (v3) document for zarr_create. Bad
// combinations (shards in v2, a codec list in v2) are usage errors; a data
// type the format cannot hold is the library's error (zarr_data_type_form:
// the data type and its serializer or object codec as zarr_create_from_desc
// and zarr_migrate_v2_to_v3 write them).
std::string metadata_document(const ArraySpec& spec);

// --chunk-edges as a rectilinear chunk_grid member: one entry per axis,
// separated by ';', each an integer (a regular step, the integer form) or
// comma-separated edge lengths, each N or NxC (C edges of N: a [N, C] run).
// "2,3,5;4" -> chunk_shapes [[2,3,5],4]. Malformed text, a zero or a count
// of entries other than ndim is a usage error naming the entry.
std::string chunk_edges_grid_json(const std::string& text, size_t ndim);

// A --dtype as NumPy spells it, in the spelling zarr_data_type_form takes
// (zarr-python passes these through numpy.dtype): a typestr without its byte
// order gets little endian ("i4" -> "<i4", "U6" -> "<U6", "M8[ns]" ->
// "<M8[ns]"; one-byte types "|": "u1" -> "|u1", "S4" -> "|S4"), native "="
// is little endian, NumPy's one-letter codes ("f", "d", "?") and names
// ("datetime64[ns]", "timedelta64[s]", "str", "int", "float", "complex") get
// theirs; so are the types of a v2 field list ([["a", "i4"]]). Every other
// text (v3 names, full typestrs) is returned as it is, for the library to
// take or refuse naming it.
std::string numpy_style_dtype(const std::string& text);

// A --fill value as JSON: kept when it parses as JSON (1, 2.5, true, "NaN"),
// else quoted ("NaN" typed bare becomes the string the formats use).
std::string fill_value_json(const std::string& text);

}  // namespace zarrtool
