#include "metadata/array_metadata.h"

#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "codecs/v3_chain.h"
#include "metadata/element_form.h"

namespace zarr {

std::shared_ptr<const CodecChain> ChainsByShape::get(const CodecChain& largest, const std::vector<uint64_t>& shape) {
  const std::lock_guard<std::mutex> lock(mutex_);
  auto found = chains_.find(shape);
  if (found != chains_.end()) return found->second;
  // The same codecs, their configurations as written, over this shape.
  ArrayRepr repr = largest.decoded();
  repr.shape = shape;
  const std::string text = v3_codecs_json(largest);
  const rapidjson::Document doc = json::parse(text, "codecs");
  auto chain = std::make_shared<CodecChain>(make_v3_codec_chain(doc, repr, std::string("codecs of a chunk of shape ") +
                                                                             "[" + list_text(shape) + "]"));
  chain->limit_open_sizes(largest.open_limit());
  if (chains_.size() >= kMaxKept) chains_.clear();
  chains_.emplace(shape, chain);
  return chain;
}

ChunkGrid ArrayMetadata::grid_of(const std::vector<uint64_t>& over) const {
  return rectilinear ? ChunkGrid::with_axes(over, *rectilinear) : ChunkGrid(over, chunks);
}

size_t ArrayMetadata::chunk_bytes() const { return chunk_bytes(chunks); }

size_t ArrayMetadata::chunk_bytes(const std::vector<uint64_t>& chunk_shape) const {
  const std::optional<size_t> bytes =
      byte_count(checked_product(chunk_shape, "chunks", ZARR_ERR_INVALID_METADATA), dtype.item_size());
  if (!bytes) fail(ZARR_ERR_INVALID_METADATA, "chunks: one chunk's byte size overflows");  // checked at parse
  return *bytes;
}

std::shared_ptr<const CodecChain> ArrayMetadata::chain_for(const std::vector<uint64_t>& chunk_shape) const {
  // Not owned: `codecs` lives as long as the metadata the caller holds.
  if (!rectilinear || chunk_shape == chunks) return std::shared_ptr<const CodecChain>(&codecs, [](const CodecChain*) {});
  return chains_by_shape->get(codecs, chunk_shape);
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
