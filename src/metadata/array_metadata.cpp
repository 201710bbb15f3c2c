#include "metadata/array_metadata.h"

#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "metadata/element_form.h"

namespace zarr {

size_t ArrayMetadata::chunk_bytes() const {
  const std::optional<size_t> bytes =
      byte_count(checked_product(chunks, "chunks", ZARR_ERR_INVALID_METADATA), dtype.item_size());
  if (!bytes) fail(ZARR_ERR_INVALID_METADATA, "chunks: one chunk's byte size overflows");  // checked at parse
  return *bytes;
}

Bytes ArrayMetadata::fill_item() const {
  return fill_value ? *fill_value : Bytes(dtype.item_size(), 0);
}

ArrayRepr ArrayMetadata::chunk_repr() const {
  const uint16_t probe = 1;
  const bool host_big = *reinterpret_cast<const uint8_t*>(&probe) == 0;
  if (dtype.kind() == DTypeKind::Object) {
    // What the object codec stores; a v2 object array's fill value reads as "".
    const rapidjson::Document codec = json::parse(v2_object_codec, "object codec");
    return ArrayRepr{chunks, parse_data_type_text(object_codec_v3_name(json::text(codec["id"])), "object codec"), Bytes{}};
  }
  return ArrayRepr{chunks, dtype.with_byte_order(host_big), fill_item()};
}

void validate_shape(const std::vector<uint64_t>& shape, const DataType& dtype, const std::string& where, int code) {
  const std::string field = where + ": field 'shape'";
  const uint64_t elements = checked_product(shape, field, code);
  // Variable-length elements have no byte size of their own (zarr_info's
  // nbytes is null for them).
  if (dtype.is_variable_length() || dtype.kind() == DTypeKind::Object) return;
  if (!checked_mul<uint64_t>(elements, dtype.item_size())) {
    fail(code, field + ": " + std::to_string(elements) + " elements of " + std::to_string(dtype.item_size()) +
                   " bytes overflow 64 bits");
  }
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
  validate_shape(meta.shape, meta.dtype, where, ZARR_ERR_INVALID_METADATA);
  const uint64_t chunk_elements = checked_product(meta.chunks, field, ZARR_ERR_INVALID_METADATA);
  if (!byte_count(chunk_elements, meta.dtype.item_size())) {
    fail(ZARR_ERR_INVALID_METADATA, field + ": one chunk's byte size overflows: " + std::to_string(chunk_elements) +
                                        " elements of " + std::to_string(meta.dtype.item_size()) +
                                        " bytes are more than a buffer can hold (" + std::to_string(kMaxBufferBytes) +
                                        " bytes)");
  }
}

}  // namespace zarr
