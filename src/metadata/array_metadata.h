// The one internal description of an array, whatever format stored it.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "codecs/codec.h"
#include "codecs/codec_chain.h"
#include "dtype/data_type.h"
#include "grid/chunk_grid.h"

namespace zarr {

// The codec chains of a rectilinear grid's chunk shapes other than the
// largest, built when first used (chunks of one shape share a chain).
class ChainsByShape {
 public:
  std::shared_ptr<const CodecChain> get(const CodecChain& largest, const std::vector<uint64_t>& shape);

 private:
  static constexpr size_t kMaxKept = 1024;  // then the map starts over (callers hold their chain)
  std::mutex mutex_;
  std::map<std::vector<uint64_t>, std::shared_ptr<const CodecChain>> chains_;
};

struct ArrayMetadata {
  int zarr_format = 2;
  std::vector<uint64_t> shape;
  // The chunk shape; for a rectilinear grid the largest edge of each axis
  // (what one chunk's buffer may need).
  std::vector<uint64_t> chunks;
  // v3 "rectilinear" chunk grid: the edges of each axis; nullopt for a
  // regular grid of `chunks`.
  std::optional<std::vector<AxisEdges>> rectilinear;
  DataType dtype;
  std::optional<Bytes> fill_value;  // native byte order; nullopt for null
  char order = 'C';                 // memory layout of each chunk: 'C' or 'F'
  ChunkKeyEncoding key_encoding;     // v2: V2 with the dimension_separator
  // v2 object arrays ("|O"): the object codec (first filter) as written, and
  // the variable-length type it stores (VarString or VarBytes).
  std::string v2_object_codec;
  // v2's codec members, kept as written for serialisation.
  std::vector<std::shared_ptr<const BytesCodec>> v2_filters;
  std::shared_ptr<const BytesCodec> v2_compressor;
  CodecChain codecs;  // everything between a native C-order chunk and stored bytes
  std::shared_ptr<ChainsByShape> chains_by_shape = std::make_shared<ChainsByShape>();

  // v3 only.
  std::vector<std::optional<std::string>> dimension_names;  // empty: absent; entries may be null
  std::string attributes_json = "{}";                       // zarr.json "attributes" (v2 keeps .zattrs)

  size_t ndim() const { return shape.size(); }
  // The chunk grid over `shape` (the array's own by default).
  ChunkGrid grid() const { return grid_of(shape); }
  ChunkGrid grid_of(const std::vector<uint64_t>& over) const;
  // Bytes of one whole decoded chunk (checked against size_t overflow at
  // parse): the largest one, or one of `chunk_shape`.
  size_t chunk_bytes() const;
  size_t chunk_bytes(const std::vector<uint64_t>& chunk_shape) const;
  // The codec chain of a chunk of `chunk_shape`: `codecs` itself unless a
  // rectilinear grid's chunk is smaller than `chunks`.
  std::shared_ptr<const CodecChain> chain_for(const std::vector<uint64_t>& chunk_shape) const;
  // The fill value as item bytes to paint missing chunks with: zeros when null.
  Bytes fill_item() const;
  // One whole chunk as the chain's decoded side: chunk shape, the data type in
  // native byte order, the fill item.
  ArrayRepr chunk_repr() const;
};

// Check shape/chunks/dtype invariants shared by every format: equal ranks,
// positive chunk extents, a shape whose element count and byte size fit in
// 64 bits (validate_shape), a chunk whose byte size a buffer can hold
// (kMaxBufferBytes: base/checked_math.h). ZARR_ERR_INVALID_METADATA naming
// `where` and the field, the chunk shape's as `chunks_field` ("chunks" in v2,
// "chunk_grid" in v3). With these, a chunk grid's chunk count fits too (it is
// at most the element count).
void validate_layout(const ArrayMetadata& meta, const std::string& where, const std::string& chunks_field = "chunks");
// The shape part of validate_layout, with error `code` (a resize's new shape
// is a caller's argument): "<where>: field 'shape': ..." when its element
// count, or for fixed-size types its byte size, overflows 64 bits.
void validate_shape(const std::vector<uint64_t>& shape, const DataType& dtype, const std::string& where, int code);

}  // namespace zarr
