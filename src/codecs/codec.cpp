// The defaults of the codec interfaces' optional methods (codec.h), each
// built on the required methods, and the sizes of an ArrayRepr.
#include "codecs/codec.h"

#include <algorithm>

#include "base/checked_math.h"
#include "base/error.h"
#include "codecs/codec_util.h"

namespace zarr {

// Chunk shapes were checked at parse time (validate_layout): these never fail
// for an array's chunks.
uint64_t ArrayRepr::elements() const { return checked_product(shape, "chunk shape", ZARR_ERR_INVALID_METADATA); }

size_t ArrayRepr::byte_size() const {
  const std::optional<size_t> bytes = byte_count(elements(), dtype.item_size());
  if (!bytes) fail(ZARR_ERR_INVALID_METADATA, "chunk shape: one chunk's byte size overflows");
  return *bytes;
}

bool ArrayToBytesCodec::partial_decode(const RangeReader&, const ArrayRepr&, const std::vector<uint64_t>&,
                                       const std::vector<uint64_t>&, uint8_t*, const std::vector<int64_t>&,
                                       MemoryWrites) const {
  fail(ZARR_ERR_INTERNAL, "codec '" + name() + "' has no partial decoding");
}

void ArrayToBytesCodec::decode_box(ByteView, const ArrayRepr&, const std::vector<uint64_t>&,
                                   const std::vector<uint64_t>&, uint8_t*, const std::vector<int64_t>&, MemoryWrites) const {
  fail(ZARR_ERR_INTERNAL, "codec '" + name() + "' has no partial decoding");
}

void ArrayToBytesCodec::decode_in_buffer(uint8_t*, size_t, const ArrayRepr&) const {
  fail(ZARR_ERR_INTERNAL, "codec '" + name() + "' cannot decode in place");
}

void ArrayToBytesCodec::encode_in_buffer(uint8_t*, size_t, const ArrayRepr&) const {
  fail(ZARR_ERR_INTERNAL, "codec '" + name() + "' cannot encode in place");
}

size_t BytesCodec::encoded_bound(size_t) const { return 0; }

size_t BytesCodec::encode_into(ByteView, uint8_t*, size_t) const {
  fail(ZARR_ERR_INTERNAL, "codec '" + id() + "': encode_into called on a codec without an encoded bound");
}

Bytes encode_through_bound(const BytesCodec& codec, ByteView decoded) {
  Bytes out(codec.encoded_bound(decoded.size));
  out.resize(codec.encode_into(decoded, out.data(), out.size()));
  return out;
}

void BytesCodec::decode_into(ByteView encoded, uint8_t* out, size_t out_size) const {
  const Bytes decoded = decode(encoded, out_size);
  if (decoded.size() != out_size) {
    fail(ZARR_ERR_CODEC, "codec '" + id() + "': decoded " + std::to_string(decoded.size()) + " bytes, expected " +
                             std::to_string(out_size));
  }
  std::copy(decoded.begin(), decoded.end(), out);
}

bool BytesCodec::decode_in_pieces(ByteView, size_t, const PieceArrived&) const { return false; }

Bytes BytesCodec::decode_at_most(ByteView encoded, size_t max_size) const {
  Bytes decoded = decode(encoded, 0);
  codecs::check_at_most(id(), decoded.size(), max_size);
  return decoded;
}

std::optional<uint64_t> BytesCodec::max_encoded_size(uint64_t) const { return std::nullopt; }

std::optional<uint64_t> ArrayToBytesCodec::max_encoded_size(const ArrayRepr&) const { return std::nullopt; }

}  // namespace zarr
