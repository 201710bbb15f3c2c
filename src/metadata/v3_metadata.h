// Zarr v3 metadata documents: zarr.json of arrays and groups, and node names.
#pragma once

#include <string>

#include "base/metadata_keys.h"
#include "metadata/array_metadata.h"

namespace zarr {

// Parse a stored array zarr.json (spec "Array metadata"). Required:
// zarr_format (3), node_type ("array"), shape, data_type (DataType::parse_v3),
// chunk_grid ("regular" with configuration.chunk_shape), chunk_key_encoding
// ("default", separator "/" unless given, or "v2", separator "." unless
// given), fill_value (DataType::parse_fill_value_v3), codecs
// (make_v3_codec_chain). Optional: attributes (kept in attributes_json,
// compact), dimension_names (strings or nulls, one per dimension; null or
// absent means none), storage_transformers (absent, null or empty; entries
// with "must_understand": false are skipped). Any other member is an
// extension: ignored when it is an object with "must_understand": false,
// otherwise ZARR_ERR_UNSUPPORTED naming it.
//
// A chunk_shape extent of 0 is accepted only on an axis of length 0 (the spec
// requires non-zero extents only for non-empty axes) and is read as 1, since
// such an axis has no chunks; anywhere else it is ZARR_ERR_INVALID_METADATA.
// Extension objects for data_type, chunk_grid and chunk_key_encoding may not
// say "must_understand": false (the spec forbids it there).
//
// Errors name `where` and the field ("a/zarr.json: field 'chunk_grid' ..."):
// ZARR_ERR_INVALID_METADATA for malformed or inconsistent values (wrong
// zarr_format or node_type, rank mismatches, a fill value that does not fit
// the type, a variable-length type without its vlen codec),
// ZARR_ERR_UNSUPPORTED for well-formed features libzarr lacks (unknown data
// type, chunk grid, key encoding, codec, storage transformer or extension).
// The result has zarr_format 3 and order 'C' (v3 expresses layout with the
// transpose codec).
ArrayMetadata parse_v3_array_metadata(const std::string& text, const std::string& where);

// Parse an array zarr.json given to zarr_create. Required: shape, data_type.
// Everything else takes what zarr-python 3 records when a user leaves it out:
//   zarr_format          3 (if given it must be 3)
//   node_type            "array" (if given it must be "array")
//   chunk_grid           regular, chunk_shape = shape (one chunk; 0 -> 1)
//   chunk_key_encoding   {"name": "default", "configuration": {"separator": "/"}}
//   fill_value           DataType::default_fill_value_v3(): false, 0, 0.0,
//                        NaT for times, "" for strings and bytes
//   codecs               [{"name": "bytes", "configuration": {"endian": "little"}}];
//                        [{"name": "bytes"}] for types without byte order
//                        (1-byte items); [{"name": "vlen-utf8", "configuration": {}}]
//                        for "string" and vlen-bytes for variable-length bytes
//                        (zarr-python 3 adds a zstd compressor by default;
//                        libzarr does not)
//   attributes           {}
//   dimension_names      none
ArrayMetadata parse_v3_array_metadata_for_create(const std::string& text, const std::string& where);

// Serialise as zarr-python 3 writes zarr.json: keys in its order (shape,
// data_type, chunk_grid, chunk_key_encoding, fill_value, codecs, attributes,
// dimension_names when present, zarr_format, node_type, storage_transformers
// []), 2-space indent, ASCII with \u escapes, floats as Python's repr.
// Extension members that were ignored at parse are not written back.
std::string serialize_v3_array_metadata(const ArrayMetadata& meta);

// A group's zarr.json.
struct GroupMetadataV3 {
  std::string attributes_json = "{}";  // the "attributes" object, compact JSON
  // zarr-python's "consolidated_metadata" member as compact JSON (an object
  // such as {"kind":"inline","must_understand":false,"metadata":{...}}), or ""
  // when it is absent or null.
  std::string consolidated_json;
};

// Parse a group zarr.json: zarr_format 3, node_type "group", optional
// attributes (an object) and consolidated_metadata (an object or null); other
// members follow the extension rule of parse_v3_array_metadata. Same errors.
GroupMetadataV3 parse_v3_group_metadata(const std::string& text, const std::string& where);

// Serialise as zarr-python 3 writes it: attributes, zarr_format,
// consolidated_metadata (null when there is none), node_type; 2-space indent.
std::string serialize_v3_group_metadata(const GroupMetadataV3& group);

// The node_type of a zarr.json ("array" or "group") after checking that it is
// a JSON object with zarr_format 3. ZARR_ERR_INVALID_METADATA otherwise.
std::string v3_node_type(const std::string& text, const std::string& where);

// Check a child node's name against the spec's rules ("Node names"): not
// empty, no "/", not made only of periods ("." or ".."), not starting with
// the reserved prefix "__", and valid UTF-8. ZARR_ERR_INVALID_ARGUMENT
// naming `where` and the rule broken.
void validate_v3_node_name(const std::string& name, const std::string& where);

}  // namespace zarr
