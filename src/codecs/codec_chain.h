// A chunk's codec pipeline (v3 "codecs"; v2 order + dtype + filters +
// compressor): array->array codecs, one array->bytes codec, bytes->bytes
// codecs. Encoding runs them in that order, decoding backwards.
// The decoded chunk is C order, native byte order, of the chunk shape.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/size_limits.h"
#include "codecs/codec.h"

namespace zarr {

// A chunk's encoded bytes as the store receives them: a Bytes, or the
// RawBuffer the last compressor encoded into (BytesCodec::encode_into).
class EncodedChunk {
 public:
  explicit EncodedChunk(Bytes bytes) : bytes_(std::move(bytes)), in_raw_(false) {}
  explicit EncodedChunk(RawBuffer raw) : raw_(std::move(raw)), in_raw_(true) {}

  ByteView view() const { return in_raw_ ? raw_.view() : ByteView(bytes_); }
  size_t size() const { return view().size; }

 private:
  Bytes bytes_;
  RawBuffer raw_;
  bool in_raw_;
};

class CodecChain {
 public:
  CodecChain() = default;
  // `decoded` describes one whole chunk as callers see it. array_to_bytes is
  // required (ZARR_ERR_INVALID_METADATA otherwise).
  CodecChain(std::vector<std::shared_ptr<const ArrayToArrayCodec>> array_to_array,
             std::shared_ptr<const ArrayToBytesCodec> array_to_bytes,
             std::vector<std::shared_ptr<const BytesCodec>> bytes_to_bytes, ArrayRepr decoded);

  // The last bytes->bytes codec encodes into an unzeroed buffer of its
  // bound when it offers one (zstd, lz4, blosc): no zeroing, no copy.
  EncodedChunk encode(Bytes chunk) const;
  // The same as a Bytes (one copy more), for callers that keep the result.
  Bytes encode_bytes(Bytes chunk) const { return encode(std::move(chunk)).view().to_bytes(); }
  // A result of any size but decoded().byte_size() is ZARR_ERR_CODEC; every
  // error names the chunk `key`.
  Bytes decode(ByteView stored, const std::string& key) const;
  // decode() with every size the chain leaves open held to `limit` as well
  // (a shard's inner chunks share what the shard may decode to).
  Bytes decode_within(ByteView stored, const std::string& key, uint64_t limit) const;
  // decode() for a read of the box [chunk_offset, chunk_offset + count) of
  // the chunk only (ArrayToBytesCodec::decode_part): elements outside it may
  // come back as the fill value. Chains with array->array codecs decode all.
  Bytes decode_part(ByteView stored, const std::string& key, const std::vector<uint64_t>& chunk_offset,
                    const std::vector<uint64_t>& count) const;

  // Decoding into a caller's buffer of decoded().byte_size() bytes (a
  // per-thread scratch buffer, or the chunk's place in the caller's region),
  // when decodes_into(): no array->array codec and an array->bytes codec
  // that decodes in a buffer (bytes). Saves a chunk-sized allocation and a
  // copy per chunk. Errors name the chunk `key`; `out` may hold anything then.
  bool decodes_into() const;
  void decode_into(ByteView stored, uint8_t* out, const std::string& key) const;
  // The reverse of decode_into, for chains with decodes_into(): the chunk in
  // `chunk` (decoded().byte_size() bytes, the caller's; the byte swap, if
  // any, happens there) encoded into `out` when the last compressor has a
  // bound, else into a buffer of the chain's. The result views `chunk`,
  // `out` or that buffer (`keep`): valid while all three are.
  ByteView encode_from(uint8_t* chunk, ScratchBuffer& out, Bytes& keep) const;
  // For a chain with decodes_into() and no bytes->bytes codec, the stored
  // bytes are the chunk: decode them where they lie (a byte swap at most).
  void decode_stored_in_place(uint8_t* data, size_t size, const std::string& key) const;
  // For a chain of the bytes codec (native byte order) and one compressor
  // that decodes block by block (blosc): the chunk handed over in order, a
  // block at a time (BytesCodec::decode_in_pieces). False, having handed
  // over nothing, for any other chain or buffer. Errors name chunk `key`.
  bool decode_in_pieces(ByteView stored, const std::string& key, const PieceArrived& arrived) const;
  // False when decode_in_pieces would decline every chunk of this chain.
  bool may_decode_in_pieces() const {
    return decodes_into() && bytes_to_bytes_.size() == 1 && array_to_bytes_->stores_native_layout() &&
           bytes_to_bytes_.front()->decodes_by_blocks();
  }
  // True when stored chunks are the decoded chunk byte for byte (only the
  // bytes codec, native byte order): parts of them can be read into place.
  bool stores_native_layout() const {
    return decodes_into() && bytes_to_bytes_.empty() && array_to_bytes_->stores_native_layout();
  }
  // ZARR_ERR_CODEC naming chunk `key` unless a stored chunk of such a chain
  // has `size` bytes.
  void check_stored_size(size_t size, const std::string& key) const;

  // Bounds (docs/stores.md, "Size limits"). The most bytes a stored chunk
  // of this chain can have: each codec's max_encoded_size applied in turn
  // to the decoded chunk; nullopt when something in the chain leaves it
  // open (variable-length elements, a plugin codec). A store read of a
  // chunk is held to it.
  std::optional<uint64_t> max_stored_size() const { return stored_bounds_.back(); }
  // What decoding may produce where the chain leaves a size open: every
  // step of decode is held to what the step's input can have been
  // (BytesCodec::decode_at_most), this where that is open. The array sets
  // it to its store's limit (Store::value_limit); kDefaultMaxValueBytes
  // before.
  void limit_open_sizes(uint64_t bytes) {
    open_limit_ = bytes;
    for (ArrayRepr& repr : reprs_) repr.vlen_limit = bytes;
  }
  uint64_t open_limit() const { return open_limit_; }

  const ArrayRepr& decoded() const { return reprs_.front(); }
  // True when the chain is just an array->bytes codec that decodes parts of a
  // chunk from byte ranges (sharding): then reads go through partial_decode.
  bool partial_reads() const {
    return array_to_array_.empty() && bytes_to_bytes_.empty() && array_to_bytes_->supports_partial_decode();
  }
  const std::vector<std::shared_ptr<const ArrayToArrayCodec>>& array_to_array() const { return array_to_array_; }
  const std::shared_ptr<const ArrayToBytesCodec>& array_to_bytes() const { return array_to_bytes_; }
  const std::vector<std::shared_ptr<const BytesCodec>>& bytes_to_bytes() const { return bytes_to_bytes_; }
  // Item size of what the array->bytes codec encodes (blosc's typesize).
  size_t bytes_to_bytes_typesize() const { return reprs_.back().dtype.item_size(); }

 private:
  void check_layout_size(size_t stored_size) const;

  std::vector<std::shared_ptr<const ArrayToArrayCodec>> array_to_array_;
  std::shared_ptr<const ArrayToBytesCodec> array_to_bytes_;
  std::vector<std::shared_ptr<const BytesCodec>> bytes_to_bytes_;
  std::vector<ArrayRepr> reprs_;  // reprs_[i]: input of array_to_array_[i]; back(): of array_to_bytes_
  // stored_bounds_[i]: the most bytes bytes_to_bytes_[i] encodes (the
  // array->bytes codec's output for i = 0); back(): a stored chunk.
  std::vector<std::optional<uint64_t>> stored_bounds_;
  uint64_t open_limit_ = kDefaultMaxValueBytes;

  // What decoding bytes_to_bytes_[i] may give, `limit` where the chain
  // leaves it open.
  size_t decoded_most(size_t i, uint64_t limit) const;
  struct Box {
    const std::vector<uint64_t>& offset;
    const std::vector<uint64_t>& count;
  };
  // decode(), decode_within() and decode_part() (box non-null).
  Bytes decode_held(ByteView stored, const std::string& key, uint64_t limit, const Box* box) const;
};

}  // namespace zarr
