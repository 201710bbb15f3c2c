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
    // Filters in v2 keep the decoded size, so every stage knows its output size.
    data = compressor_ ? compressor_->decode(stored, decoded_size) : stored.to_bytes();
    for (auto it = filters_.rbegin(); it != filters_.rend(); ++it) data = (*it)->decode(data, decoded_size);
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
