#include "metadata/array_metadata.h"

#include "core/error.h"
#include "grid/chunk_grid.h"

namespace zarr {

size_t ArrayMetadata::chunk_bytes() const {
  return static_cast<size_t>(checked_product(chunks, "chunks", ZARR_ERR_INVALID_METADATA)) * dtype.item_size();
}

Bytes ArrayMetadata::fill_item() const {
  return fill_value ? *fill_value : Bytes(dtype.item_size(), 0);
}

ArrayRepr ArrayMetadata::chunk_repr() const {
  const uint16_t probe = 1;
  const bool host_big = *reinterpret_cast<const uint8_t*>(&probe) == 0;
  if (dtype.kind() == DTypeKind::Object) {
    // What the object codec stores; a v2 object array's fill value reads as "".
    rapidjson::Document name;
    name.Parse(v2_object_codec.find("\"vlen-bytes\"") != std::string::npos ? "\"variable_length_bytes\"" : "\"string\"");
    return ArrayRepr{chunks, DataType::parse_v3(name, "object codec"), Bytes{}};
  }
  return ArrayRepr{chunks, dtype.with_byte_order(host_big), fill_item()};
}

void validate_layout(const ArrayMetadata& meta, const std::string& where, const std::string& chunks_field) {
  const std::string field = where + ": field '" + chunks_field + "'";
  if (meta.chunks.size() != meta.shape.size()) {
    fail(ZARR_ERR_INVALID_METADATA, field + " has " + std::to_string(meta.chunks.size()) + " dimensions but 'shape' has " +
                                        std::to_string(meta.shape.size()));
  }
  for (size_t d = 0; d < meta.chunks.size(); ++d) {
    if (meta.chunks[d] == 0) {
      fail(ZARR_ERR_INVALID_METADATA, field + " item " + std::to_string(d) + " must be positive, got 0");
    }
  }
  checked_product(meta.shape, where + ": field 'shape'", ZARR_ERR_INVALID_METADATA);
  const uint64_t chunk_elements = checked_product(meta.chunks, field, ZARR_ERR_INVALID_METADATA);
  if (!byte_count(chunk_elements, meta.dtype.item_size())) {
    fail(ZARR_ERR_INVALID_METADATA, field + ": one chunk's byte size overflows");
  }
}

}  // namespace zarr
