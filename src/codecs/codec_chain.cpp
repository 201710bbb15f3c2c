#include "codecs/codec_chain.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "base/checked_math.h"
#include "base/error.h"

namespace zarr {

CodecChain::CodecChain(std::vector<std::shared_ptr<const ArrayToArrayCodec>> array_to_array,
                       std::shared_ptr<const ArrayToBytesCodec> array_to_bytes,
                       std::vector<std::shared_ptr<const BytesCodec>> bytes_to_bytes, ArrayRepr decoded)
    : array_to_array_(std::move(array_to_array)),
      array_to_bytes_(std::move(array_to_bytes)),
      bytes_to_bytes_(std::move(bytes_to_bytes)) {
  if (!array_to_bytes_) fail(ZARR_ERR_INVALID_METADATA, "codecs: an array->bytes codec (such as \"bytes\") is required");
  reprs_.push_back(std::move(decoded));
  for (const auto& codec : array_to_array_) reprs_.push_back(codec->encoded_repr(reprs_.back()));
  stored_bounds_.push_back(array_to_bytes_->max_encoded_size(reprs_.back()));
  for (const auto& codec : bytes_to_bytes_) {
    const std::optional<uint64_t>& in = stored_bounds_.back();
    stored_bounds_.push_back(in ? codec->max_encoded_size(*in) : std::nullopt);
  }
}

size_t CodecChain::decoded_most(size_t i, uint64_t limit) const {
  const std::optional<uint64_t>& most = stored_bounds_[i];
  return static_cast<size_t>(std::min<uint64_t>(most ? *most : limit, SIZE_MAX));
}

EncodedChunk CodecChain::encode(Bytes chunk) const {
  for (size_t i = 0; i < array_to_array_.size(); ++i) chunk = array_to_array_[i]->encode(std::move(chunk), reprs_[i]);
  Bytes data = array_to_bytes_->encode(std::move(chunk), reprs_.back());
  if (bytes_to_bytes_.empty()) return EncodedChunk(std::move(data));
  for (size_t i = 0; i + 1 < bytes_to_bytes_.size(); ++i) data = bytes_to_bytes_[i]->encode(data);
  const BytesCodec& last = *bytes_to_bytes_.back();
  const size_t bound = last.encoded_bound(data.size());
  if (bound == 0) return EncodedChunk(last.encode(data));
  RawBuffer out(bound);
  out.set_size(last.encode_into(data, out.data(), bound));
  return EncodedChunk(std::move(out));
}

Bytes CodecChain::decode(ByteView stored, const std::string& key) const {
  return decode_held(stored, key, open_limit_, nullptr);
}

Bytes CodecChain::decode_within(ByteView stored, const std::string& key, uint64_t limit) const {
  return decode_held(stored, key, std::min(limit, open_limit_), nullptr);
}

Bytes CodecChain::decode_part(ByteView stored, const std::string& key, const std::vector<uint64_t>& chunk_offset,
                              const std::vector<uint64_t>& count) const {
  const Box box{chunk_offset, count};
  return decode_held(stored, key, open_limit_, array_to_array_.empty() ? &box : nullptr);
}

Bytes CodecChain::decode_held(ByteView stored, const std::string& key, uint64_t limit, const Box* box) const {
  try {
    // bytes->bytes codecs may change sizes on the way (checksums, astype
    // filters), so only the first of them, undoing the fixed-size bytes
    // codec, learns its exact size; every other step is held to the most its
    // output can be (a compressor bomb stops there). Each step reads the
    // previous one's output in place: the stored bytes are never copied just
    // to be decoded.
    Bytes data;
    ByteView current = stored;
    const size_t layout_size = array_to_bytes_->fixed_encoded_size(reprs_.back());
    for (size_t i = bytes_to_bytes_.size(); i-- > 0;) {
      data = i == 0 && layout_size != 0 ? bytes_to_bytes_[i]->decode(current, layout_size)
                                        : bytes_to_bytes_[i]->decode_at_most(current, decoded_most(i, limit));
      current = data;
    }
    // A limit below the chain's own holds the array->bytes codec too.
    ArrayRepr held;
    const ArrayRepr* repr = &reprs_.back();
    if (limit < repr->vlen_limit) {
      held = *repr;
      held.vlen_limit = limit;
      repr = &held;
    }
    // What the bytes->bytes codecs gave is ours to reuse: the bytes codec
    // swaps it in place (or takes it as it is) instead of copying it.
    Bytes chunk = box                     ? array_to_bytes_->decode_part(current, *repr, box->offset, box->count)
                  : bytes_to_bytes_.empty() ? array_to_bytes_->decode(current, *repr)
                                            : array_to_bytes_->decode_in_place(std::move(data), *repr);
    for (size_t i = array_to_array_.size(); i-- > 0;) chunk = array_to_array_[i]->decode(std::move(chunk), reprs_[i]);
    // Variable-length chunks (vlen codecs) have no fixed size; their codec checks the count.
    if (!decoded().dtype.is_variable_length() && chunk.size() != decoded().byte_size()) {
      fail(ZARR_ERR_CODEC, "decoded to " + std::to_string(chunk.size()) + " bytes, expected " +
                               std::to_string(decoded().byte_size()));
    }
    return chunk;
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
}

bool CodecChain::decodes_into() const {
  return array_to_array_.empty() && array_to_bytes_->decodes_in_buffer() && !decoded().dtype.is_variable_length();
}

void CodecChain::decode_into(ByteView stored, uint8_t* out, const std::string& key) const {
  const size_t size = decoded().byte_size();
  try {
    if (bytes_to_bytes_.empty()) {
      check_layout_size(stored.size);
      if (size) std::memcpy(out, stored.data, size);
    } else {
      // Codecs after the first still decode into buffers of their own (their
      // output sizes are not known); the first writes into `out`.
      Bytes data;
      ByteView current = stored;
      for (size_t i = bytes_to_bytes_.size(); i-- > 1;) {
        data = bytes_to_bytes_[i]->decode_at_most(current, decoded_most(i, open_limit_));
        current = data;
      }
      bytes_to_bytes_.front()->decode_into(current, out, size);
    }
    array_to_bytes_->decode_in_buffer(out, size, reprs_.back());
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
}

bool CodecChain::decode_in_pieces(ByteView stored, const std::string& key, const PieceArrived& arrived) const {
  if (!may_decode_in_pieces()) return false;
  try {
    return bytes_to_bytes_.front()->decode_in_pieces(stored, decoded().byte_size(), arrived);
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
}

ByteView CodecChain::encode_from(uint8_t* chunk, ScratchBuffer& out, Bytes& keep) const {
  const size_t size = decoded().byte_size();
  array_to_bytes_->encode_in_buffer(chunk, size, reprs_.back());
  if (bytes_to_bytes_.empty()) return ByteView(chunk, size);
  ByteView current(chunk, size);
  for (size_t i = 0; i + 1 < bytes_to_bytes_.size(); ++i) {
    keep = bytes_to_bytes_[i]->encode(current);
    current = keep;
  }
  const BytesCodec& last = *bytes_to_bytes_.back();
  const size_t bound = last.encoded_bound(current.size);
  if (bound == 0) {
    Bytes encoded = last.encode(current);
    keep = std::move(encoded);
    return keep;
  }
  uint8_t* target = out.reserve(bound);
  return ByteView(target, last.encode_into(current, target, bound));
}

void CodecChain::decode_stored_in_place(uint8_t* data, size_t size, const std::string& key) const {
  try {
    check_layout_size(size);
    array_to_bytes_->decode_in_buffer(data, size, reprs_.back());
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
}

void CodecChain::check_stored_size(size_t size, const std::string& key) const {
  try {
    check_layout_size(size);
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
}

void CodecChain::check_layout_size(size_t stored_size) const {
  if (stored_size != decoded().byte_size()) {
    fail(ZARR_ERR_CODEC, "codec '" + array_to_bytes_->name() + "': chunk is " + std::to_string(stored_size) +
                             " bytes, expected " + std::to_string(decoded().byte_size()));
  }
}

}  // namespace zarr
