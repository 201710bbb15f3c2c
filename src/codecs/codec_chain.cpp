#include "codecs/codec_chain.h"

#include "core/error.h"

namespace zarr {

CodecChain::CodecChain(std::vector<std::shared_ptr<const BytesCodec>> filters,
                       std::shared_ptr<const BytesCodec> compressor)
    : filters_(std::move(filters)), compressor_(std::move(compressor)) {}

Bytes CodecChain::encode(ByteView chunk) const {
  Bytes data = chunk.to_bytes();
  for (const auto& f : filters_) data = f->encode(data);
  if (compressor_) data = compressor_->encode(data);
  return data;
}

Bytes CodecChain::decode(ByteView stored, size_t decoded_size, const std::string& key) const {
  Bytes data;
  try {
    // Only the last decoding step knows its output size: filters such as
    // checksums or astype change sizes on the way, so earlier steps get 0
    // (unknown) and rely on their own headers.
    const bool compressor_is_last = filters_.empty();
    data = compressor_ ? compressor_->decode(stored, compressor_is_last ? decoded_size : 0) : stored.to_bytes();
    for (size_t i = filters_.size(); i-- > 0;) data = filters_[i]->decode(data, i == 0 ? decoded_size : 0);
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
  if (data.size() != decoded_size) {
    fail(ZARR_ERR_CODEC, "chunk '" + key + "': decoded to " + std::to_string(data.size()) +
                             " bytes, expected " + std::to_string(decoded_size));
  }
  return data;
}

}  // namespace zarr
