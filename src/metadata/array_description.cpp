// zarr_create_from_desc's description -> the metadata document of zarr_create
// (metadata/array_description.h).
#include "metadata/array_description.h"

#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "codecs/v3_chain.h"
#include "dtype/data_type.h"
#include "grid/chunk_shape.h"
#include "metadata/element_form.h"
#include "metadata/rectilinear_grid.h"

namespace zarr {
namespace {

[[noreturn]] void bad_field(const std::string& field, const std::string& why) {
  fail(ZARR_ERR_INVALID_ARGUMENT, "desc." + field + ": " + why);
}

// A JSON text the caller gave for `field`, checked and made compact.
rapidjson::Document parse_field(const std::string& text, const std::string& field) {
  try {
    return json::parse(text, "desc." + field);
  } catch (const Error& e) {
    fail(ZARR_ERR_INVALID_ARGUMENT, e.what());
  }
}

void check_extents(const std::vector<uint64_t>& extents, const std::string& field) {
  for (size_t i = 0; i < extents.size(); ++i) {
    if (extents[i] == 0) bad_field(field + "[" + std::to_string(i) + "]", "is 0; extents must be at least 1");
  }
}

// The chunk shape (the inner chunks when sharded): given, or chosen as
// zarr_open_spec chooses, within the shard when sharded (each extent then
// lowered to a divisor of the shard's).
std::vector<uint64_t> chunk_shape_of(const ArrayDescription& desc, const DataType& type) {
  if (desc.chunk_shape) {
    check_extents(*desc.chunk_shape, "chunk_shape");
    return *desc.chunk_shape;
  }
  const size_t item_size = type.is_variable_length() ? 0 : type.item_size();
  if (!desc.shard_shape) return choose_chunk_shape(desc.shape, item_size, {});
  std::vector<uint64_t> chunks = choose_chunk_shape(*desc.shard_shape, item_size, {});
  for (size_t i = 0; i < chunks.size(); ++i) {
    while ((*desc.shard_shape)[i] % chunks[i] != 0) --chunks[i];
  }
  return chunks;
}

void check_shard_shape(const ArrayDescription& desc) {
  if (!desc.shard_shape) return;
  if (desc.zarr_format != 3) bad_field("shard_shape", "sharding needs zarr_format 3");
  check_extents(*desc.shard_shape, "shard_shape");
}

void check_shards_hold_chunks(const ArrayDescription& desc, const std::vector<uint64_t>& chunks) {
  if (!desc.shard_shape) return;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const uint64_t shard = (*desc.shard_shape)[i];
    if (shard % chunks[i] != 0) {
      bad_field("shard_shape[" + std::to_string(i) + "]", std::to_string(shard) +
                                                              " is not a multiple of the chunk extent " +
                                                              std::to_string(chunks[i]));
    }
  }
}

// The rectilinear grid of chunk_edges: each axis's edges as runs of equal
// neighbours, or the integer form of `grid` (the chunk or shard shape). Each
// edge at least 1, holding whole inner chunks when sharded, the edges
// reaching the axis' extent.
std::string rectilinear_grid_of(const ArrayDescription& desc, const std::vector<uint64_t>& grid,
                                const std::vector<uint64_t>& chunks) {
  const auto& edges = *desc.chunk_edges;
  std::vector<AxisEdges> axes;
  for (size_t d = 0; d < edges.size(); ++d) {
    const std::string field = "chunk_edges[" + std::to_string(d) + "]";
    if (!edges[d]) {
      axes.push_back(AxisEdges::regular(grid[d]));
      continue;
    }
    if (edges[d]->empty()) bad_field(field, "has no edges; give at least one, or NULL for a regular axis");
    std::vector<AxisEdges::Run> runs;
    uint64_t covered = 0;
    for (size_t i = 0; i < edges[d]->size(); ++i) {
      const uint64_t edge = (*edges[d])[i];
      const std::string item = field + "[" + std::to_string(i) + "]";
      if (edge == 0) bad_field(item, "is 0; edges must be at least 1");
      if (desc.shard_shape && edge % chunks[d] != 0) {
        bad_field(item, std::to_string(edge) + " is not a multiple of the chunk extent " + std::to_string(chunks[d]) +
                            " (with sharding the edges are the shards')");
      }
      covered = checked_add(covered, edge).value_or(UINT64_MAX);  // past 2^64 - 1 it reaches any extent
      if (!runs.empty() && runs.back().size == edge) {
        ++runs.back().count;
      } else {
        runs.push_back({edge, 1});
      }
    }
    if (covered < desc.shape[d]) {
      bad_field(field, "the edges sum to " + std::to_string(covered) + ", less than the extent " +
                           std::to_string(desc.shape[d]));
    }
    axes.push_back(AxisEdges::from_runs(runs, "desc." + field));
  }
  return rectilinear_grid_json(axes);
}

// The compressor's JSON in the form of the target format ("null" for none,
// "" for the format's default).
std::string compressor_json(const ArrayDescription& desc, const DataType& type) {
  if (!desc.compressor) return "";
  if (desc.compressor->empty()) return "null";
  rapidjson::Document config = parse_field(*desc.compressor, "compressor");
  if (!config.IsObject()) bad_field("compressor", "expected a codec's JSON object, got " + *desc.compressor);
  const bool v3 = desc.zarr_format == 3;
  const bool v2_form = json::find(config, "id") != nullptr;
  if (v3 != v2_form) return json::to_string(config);  // already in the target form
  ChunkRepr repr;
  repr.item_size = type.is_variable_length() ? 1 : type.item_size();
  if (v3) return v3_codec_json(*make_bytes_codec(config, repr), repr.item_size);
  return make_v3_bytes_codec(config, repr, "desc.compressor")->config_json();
}

// v3's codecs: [transpose] + serializer + compressors, inside a
// sharding_indexed codec when sharded (zarr-python 3's index codecs).
std::string v3_codecs(const ArrayDescription& desc, const DataType& type, const std::vector<uint64_t>& chunks) {
  std::vector<std::string> codecs;
  if (desc.order == 'F') {
    std::vector<uint64_t> reversed;
    for (size_t i = desc.shape.size(); i-- > 0;) reversed.push_back(i);
    codecs.push_back("{\"name\":\"transpose\",\"configuration\":{\"order\":" + list_text(reversed, ",") + "}}");
  }
  codecs.push_back(v3_element_form(type, "", "desc.data_type").serializer);
  std::string compressor = compressor_json(desc, type);
  if (compressor.empty() && !type.is_variable_length()) {
    compressor = "{\"name\":\"zstd\",\"configuration\":{\"level\":0,\"checksum\":false}}";
  }
  if (!compressor.empty() && compressor != "null") codecs.push_back(compressor);
  std::string list = "[";
  for (size_t i = 0; i < codecs.size(); ++i) list += (i ? "," : "") + codecs[i];
  list += "]";
  if (!desc.shard_shape) return list;
  return "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":" + list_text(chunks, ",") +
         ",\"codecs\":" + list + ",\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}" +
         ",{\"name\":\"crc32c\"}],\"index_location\":\"end\"}}]";
}

std::string v3_document(const ArrayDescription& desc, const DataType& type, const std::vector<uint64_t>& chunks,
                        const std::string& fill) {
  const std::vector<uint64_t>& grid = desc.shard_shape ? *desc.shard_shape : chunks;
  const std::string chunk_grid =
      desc.chunk_edges ? rectilinear_grid_of(desc, grid, chunks)
                       : "{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":" + list_text(grid, ",") + "}}";
  std::string doc = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":" + list_text(desc.shape, ",") +
                    ",\"data_type\":" + v3_element_form(type, "", "desc.data_type").data_type +
                    ",\"chunk_grid\":" + chunk_grid + ",\"codecs\":" + v3_codecs(desc, type, chunks);
  if (!fill.empty()) doc += ",\"fill_value\":" + fill;
  if (desc.dimension_names) doc += ",\"dimension_names\":" + dimension_names_json(*desc.dimension_names);
  return doc + "}";
}

// v2 keeps dimension names as xarray does: the attribute _ARRAY_DIMENSIONS,
// a list of strings.
std::string v2_document(const ArrayDescription& desc, const DataType& type, const std::vector<uint64_t>& chunks,
                        const std::string& fill) {
  const V2ElementForm form = v2_element_form(type, "", "desc.data_type");
  std::string doc = "{\"zarr_format\":2,\"shape\":" + list_text(desc.shape, ",") + ",\"dtype\":" + form.dtype +
                    ",\"chunks\":" + list_text(chunks, ",") + ",\"order\":\"" + std::string(1, desc.order) + "\"";
  if (!form.object_codec.empty()) doc += ",\"filters\":[" + form.object_codec + "]";
  const std::string compressor = compressor_json(desc, type);
  if (!compressor.empty()) doc += ",\"compressor\":" + compressor;
  if (!fill.empty()) doc += ",\"fill_value\":" + fill;
  if (desc.dimension_names) {
    for (size_t i = 0; i < desc.dimension_names->size(); ++i) {
      if (!(*desc.dimension_names)[i]) {
        bad_field("dimension_names[" + std::to_string(i) + "]",
                  "is NULL: Zarr v2 keeps dimension names in the attribute _ARRAY_DIMENSIONS, strings only");
      }
    }
    doc += ",\"attributes\":{\"_ARRAY_DIMENSIONS\":" + dimension_names_json(*desc.dimension_names) + "}";
  }
  return doc + "}";
}

}  // namespace

std::string dimension_names_json(const std::vector<std::optional<std::string>>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    out += (i ? "," : "") + (names[i] ? json::quote(*names[i]) : std::string("null"));
  }
  return out + "]";
}

std::string array_description_document(const ArrayDescription& desc) {
  if (desc.zarr_format != 2 && desc.zarr_format != 3) {
    bad_field("zarr_format", "must be 2 or 3 (0 for 3), got " + std::to_string(desc.zarr_format));
  }
  if (desc.order != 'C' && desc.order != 'F') {
    bad_field("order", "must be 'C' or 'F' (0 for 'C'), got character code " +
                           std::to_string(static_cast<int>(static_cast<unsigned char>(desc.order))));
  }
  if (desc.dimension_names && desc.dimension_names->size() != desc.shape.size()) {
    bad_field("dimension_names", "has " + std::to_string(desc.dimension_names->size()) + " names for " +
                                     std::to_string(desc.shape.size()) + " dimensions");
  }
  if (desc.chunk_edges && desc.zarr_format != 3) {
    bad_field("chunk_edges", "a rectilinear chunk grid needs zarr_format 3 (Zarr v2 has regular chunks only)");
  }
  const DataType type = parse_data_type_text(desc.data_type, "desc.data_type");
  check_shard_shape(desc);
  const std::vector<uint64_t> chunks = chunk_shape_of(desc, type);
  check_shards_hold_chunks(desc, chunks);
  const std::string fill = desc.fill_value ? json::to_string(parse_field(*desc.fill_value, "fill_value")) : "";
  return desc.zarr_format == 3 ? v3_document(desc, type, chunks, fill) : v2_document(desc, type, chunks, fill);
}

}  // namespace zarr
