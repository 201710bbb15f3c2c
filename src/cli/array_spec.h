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
  std::string data_type;             // "int32" or "<i4" (either spelling, either format)
  std::vector<uint64_t> chunks;      // empty: one chunk
  std::vector<uint64_t> shards;      // v3 only; empty: not sharded
  std::string codec_json;            // "" for the library's defaults (see docs/cli.md)
  std::string fill_value_json;       // "" for the library's default
  std::string attributes_json;       // "" for none
  std::string dimension_names_json;  // "" or "null" for none (v3 only)
};

// The .zarray (v2) or zarr.json (v3) document for zarr_create. Bad
// combinations (shards in v2, a codec list in v2) are usage errors.
std::string metadata_document(const ArraySpec& spec);

// Data type spellings: "int32" <-> "<i4" for the simple types; others pass
// through unchanged (the library then judges them).
std::string v3_data_type(const std::string& name);
std::string v2_data_type(const std::string& name);

// A --fill value as JSON: kept when it parses as JSON (1, 2.5, true, "NaN"),
// else quoted ("NaN" typed bare becomes the string the formats use).
std::string fill_value_json(const std::string& text);

}  // namespace zarrtool
