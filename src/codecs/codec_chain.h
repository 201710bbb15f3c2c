// A chunk's codec pipeline (v3 "codecs"; v2 order + dtype + filters +
// compressor): array->array codecs, one array->bytes codec, bytes->bytes
// codecs. Encoding runs them in that order, decoding backwards.
// The decoded chunk is C order, native byte order, of the chunk shape.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codecs/codec.h"

namespace zarr {

class CodecChain {
 public:
  CodecChain() = default;
  // `decoded` describes one whole chunk as callers see it. array_to_bytes is
  // required (ZARR_ERR_INVALID_METADATA otherwise).
  CodecChain(std::vector<std::shared_ptr<const ArrayToArrayCodec>> array_to_array,
             std::shared_ptr<const ArrayToBytesCodec> array_to_bytes,
             std::vector<std::shared_ptr<const BytesCodec>> bytes_to_bytes, ArrayRepr decoded);

  Bytes encode(Bytes chunk) const;
  // A result of any size but decoded().byte_size() is ZARR_ERR_CODEC; every
  // error names the chunk `key`.
  Bytes decode(ByteView stored, const std::string& key) const;

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
  std::vector<std::shared_ptr<const ArrayToArrayCodec>> array_to_array_;
  std::shared_ptr<const ArrayToBytesCodec> array_to_bytes_;
  std::vector<std::shared_ptr<const BytesCodec>> bytes_to_bytes_;
  std::vector<ArrayRepr> reprs_;  // reprs_[i]: input of array_to_array_[i]; back(): of array_to_bytes_
};

}  // namespace zarr
