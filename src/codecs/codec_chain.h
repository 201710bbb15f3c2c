// A v2 codec pipeline: filters applied in list order, then the compressor;
// filters may change the size (checksums append bytes, astype narrows);
// decoding runs the same steps backwards. Stored bytes in, decoded chunk
// bytes (in the data type's stored byte order) out.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codecs/codec.h"

namespace zarr {

class CodecChain {
 public:
  CodecChain() = default;
  CodecChain(std::vector<std::shared_ptr<const BytesCodec>> filters,
             std::shared_ptr<const BytesCodec> compressor);

  Bytes encode(ByteView chunk) const;
  // `decoded_size` is the exact byte size of the decoded chunk; a result of any
  // other size is ZARR_ERR_CODEC naming `key`.
  Bytes decode(ByteView stored, size_t decoded_size, const std::string& key) const;

  const std::vector<std::shared_ptr<const BytesCodec>>& filters() const { return filters_; }
  const std::shared_ptr<const BytesCodec>& compressor() const { return compressor_; }

 private:
  std::vector<std::shared_ptr<const BytesCodec>> filters_;
  std::shared_ptr<const BytesCodec> compressor_;
};

}  // namespace zarr
