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

// A --fill value as JSON: kept when it parses as JSON (1, 2.5, true, "NaN"),
// else quoted ("NaN" typed bare becomes the string the formats use).
std::string fill_value_json(const std::string& text);

}  // namespace zarrtool
