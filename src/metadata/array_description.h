// A new array described field by field (zarr_create_from_desc) turned into
// the metadata document zarr_create takes, so that both create through one
// path. The defaults are the reference implementations' (docs/c-api.md,
// "Creating arrays from a description").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zarr {

// The C description (zarr_array_desc) with its NULLs as nullopt. Every field
// is checked by array_description_document; errors name "desc.<field>".
struct ArrayDescription {
  int zarr_format = 3;                                // 2 or 3
  std::string data_type;                              // v3 name or NumPy typestr
  std::vector<uint64_t> shape;
  std::optional<std::vector<uint64_t>> chunk_shape;   // nullopt: choose_chunk_shape
  std::optional<std::vector<uint64_t>> shard_shape;   // v3; nullopt: no sharding
  std::optional<std::string> compressor;              // codec JSON; "" none; nullopt default
  std::optional<std::string> fill_value;              // JSON value; nullopt: the format's default
  std::optional<std::vector<std::optional<std::string>>> dimension_names;
  char order = 'C';                                   // 'C' or 'F'
  // v3 only: a rectilinear chunk grid, one entry per axis: its edge lengths
  // (the shards' when sharded), or nullopt for a regular step of the chunk
  // (shard) extent. nullopt: a regular grid.
  std::optional<std::vector<std::optional<std::vector<uint64_t>>>> chunk_edges;
};

// The .zarray (zarr_format 2) or zarr.json (3) document for zarr_create:
//   v3: data_type as zarr-python 3 names it; chunk_grid regular with the
//       chunk shape, or the shard shape when sharded (rectilinear with
//       chunk_edges: equal neighbouring edges written as [value, count] runs); codecs [transpose for
//       order F] + bytes (endian little; no configuration for 1-byte types) +
//       the compressor (default zstd level 0, checksum false) for fixed-size
//       types, vlen-utf8 / vlen-bytes + the compressor (default none) for
//       variable-length ones; sharded: one sharding_indexed codec holding
//       those, index codecs bytes + crc32c, index at the end; fill_value when
//       given; dimension_names when given.
//   v2: dtype as NumPy's typestr ("|O" with a vlen-utf8 / vlen-bytes filter
//       for variable-length types), chunks, order, compressor only when given
//       (null for ""), fill_value when given, and dimension_names as the
//       attribute "_ARRAY_DIMENSIONS" (member "attributes" of the document).
// A compressor in the other format's form is translated ({"id": "zstd"} for
// v3 becomes {"name": "zstd", ...}). Errors: ZARR_ERR_INVALID_ARGUMENT naming
// the field ("desc.shard_shape[1]: 6 is not a multiple of the chunk extent
// 4"), ZARR_ERR_UNSUPPORTED for an unknown data type; what only the metadata
// parser can judge (a fill value of the wrong type, a bad codec parameter) is
// its error, when the document is created.
std::string array_description_document(const ArrayDescription& desc);

// Dimension names as a compact JSON list, null for a missing name:
// ["x",null] (zarr_get_dimension_names' form, and the document's).
std::string dimension_names_json(const std::vector<std::optional<std::string>>& names);

}  // namespace zarr
