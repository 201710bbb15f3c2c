// zarr_create_from_desc and its group form: the C description checked and
// turned into the metadata document zarr_create takes (one creation path);
// zarr_data_type_form, the data type part of that document on its own.
#include <optional>
#include <string>
#include <vector>

#include "array_create.h"
#include "guard.h"
#include "metadata/nodes.h"
#include "metadata/array_description.h"
#include "metadata/element_form.h"

using zarr::capi::guarded;
using zarr::capi::require;

namespace {

std::vector<uint64_t> extents(const uint64_t* values, size_t ndim) {
  return values ? std::vector<uint64_t>(values, values + ndim) : std::vector<uint64_t>{};
}

// Version 2's fields: the rectilinear grid's edges, copied axis by axis.
std::vector<std::optional<std::vector<uint64_t>>> chunk_edges_of(const zarr_array_desc* desc) {
  require(desc->chunk_edge_counts, "desc.chunk_edge_counts (needed with desc.chunk_edges)");
  std::vector<std::optional<std::vector<uint64_t>>> edges(desc->ndim);
  for (size_t d = 0; d < desc->ndim; ++d) {
    const uint64_t* axis = desc->chunk_edges[d];
    if (axis) edges[d] = extents(axis, desc->chunk_edge_counts[d]);
  }
  return edges;
}

// The fields of versions 1 and 2, those this library knows: a newer version
// may be a larger struct, so it is refused before any field is read, and
// version 1's struct ends before chunk_edges, which is then not read.
// `default_format` is what zarr_format 0 means: a group's format, or 0 to
// leave it to where the array goes.
zarr::ArrayDescription description_of(const zarr_array_desc* desc, int default_format) {
  require(desc, "desc");
  if (desc->version != 1 && desc->version != ZARR_ARRAY_DESC_VERSION) {
    zarr::fail(ZARR_ERR_INVALID_ARGUMENT, "desc.version: " + std::to_string(desc->version) +
                                              " is not a version this library knows (1 to " +
                                              std::to_string(ZARR_ARRAY_DESC_VERSION) + ")");
  }
  zarr::ArrayDescription out;
  out.zarr_format = desc->zarr_format == 0 ? default_format : desc->zarr_format;
  out.data_type = require(desc->data_type, "desc.data_type");
  if (desc->ndim > 0) require(desc->shape, "desc.shape");
  out.shape = extents(desc->shape, desc->ndim);
  if (desc->chunk_shape) out.chunk_shape = extents(desc->chunk_shape, desc->ndim);
  if (desc->shard_shape) out.shard_shape = extents(desc->shard_shape, desc->ndim);
  if (desc->compressor) out.compressor = std::string(desc->compressor);
  if (desc->fill_value) out.fill_value = std::string(desc->fill_value);
  if (desc->dimension_names) {
    out.dimension_names.emplace();
    for (size_t i = 0; i < desc->ndim; ++i) {
      const char* name = desc->dimension_names[i];
      out.dimension_names->push_back(name ? std::optional<std::string>(name) : std::nullopt);
    }
  }
  out.order = desc->order == 0 ? 'C' : desc->order;
  if (desc->version >= 2 && desc->chunk_edges) out.chunk_edges = chunk_edges_of(desc);
  return out;
}

}  // namespace

extern "C" {

ZARR_API int zarr_create_from_desc(zarr_array** out, const char* url, const zarr_array_desc* desc,
                                   const char* options_json) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    // zarr_format 0: the enclosing group's format, else 3 (docs/c-api.md#formats).
    zarr::ArrayDescription description = description_of(desc, 0);
    zarr::capi::create_array(
        out, url,
        [&](const zarr::Store& store, const std::string& path) {
          if (description.zarr_format == 0) description.zarr_format = zarr::enclosing_group_format(store, path);
          if (description.zarr_format == 0) description.zarr_format = 3;
          return zarr::array_description_document(description);
        },
        options_json);
  });
}

ZARR_API int zarr_group_create_array_from_desc(zarr_array** out, zarr_group* group, const char* path,
                                               const zarr_array_desc* desc) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    const int format = require(group, "group")->impl->zarr_format();
    const std::string metadata = zarr::array_description_document(description_of(desc, format));
    const int status = zarr_group_create_array(out, group, path, metadata.c_str());
    if (status != ZARR_OK) zarr::fail(status, zarr_last_error());
  });
}

ZARR_API int zarr_data_type_form(const char* data_type, const char* object_codec, int zarr_format, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    const std::string form = zarr::data_type_form_json(require(data_type, "data_type"), object_codec ? object_codec : "",
                                                       zarr_format);
    *json_out = zarr::capi::copy_out(form);
  });
}

}  // extern "C"
