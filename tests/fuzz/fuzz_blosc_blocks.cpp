// libFuzzer target: a blosc buffer decoded block by block (the way large
// region reads decode blosc chunks) against the same buffer decoded whole.
// The first input byte is the typesize (1-16), the rest the buffer. Block
// decoding must never read or write outside the buffers, hand over pieces
// out of order, or give other bytes than the whole decoder; when it decodes
// a buffer the whole decoder must too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "base/error.h"
#include "base/json.h"
#include "codecs/codec.h"

namespace {

// The decoded size the header states, bounded so hostile headers cannot
// ask for gigabytes.
size_t stated_size(const uint8_t* data, size_t size) {
  if (size < 16) return 0;
  const size_t nbytes = uint32_t{data[4]} | uint32_t{data[5]} << 8 | uint32_t{data[6]} << 16 | uint32_t{data[7]} << 24;
  return nbytes <= (size_t{16} << 20) ? nbytes : 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const size_t typesize = data[0] % 16 + 1;
  const zarr::ByteView encoded(data + 1, size - 1);
  const size_t nbytes = stated_size(encoded.data, encoded.size);
  if (nbytes == 0) return 0;
  std::unique_ptr<zarr::BytesCodec> codec;
  try {
    const rapidjson::Document config = zarr::json::parse(R"({"id": "blosc"})", "fuzz codec");
    codec = zarr::make_bytes_codec(config, zarr::ChunkRepr{typesize, nbytes, ""});
  } catch (const zarr::Error&) {
    return 0;  // a build without blosc
  }
  zarr::Bytes pieces;
  bool in_pieces = false;
  try {
    in_pieces = codec->decode_in_pieces(encoded, nbytes, [&](const uint8_t* piece, uint64_t offset, size_t n) {
      if (offset != pieces.size() || offset + n > nbytes) std::abort();  // out of order or beyond the size
      pieces.insert(pieces.end(), piece, piece + n);
    });
  } catch (const zarr::Error&) {
    return 0;
  }
  if (!in_pieces) return 0;
  if (pieces.size() != nbytes) std::abort();
  zarr::Bytes whole(nbytes);
  try {
    codec->decode_into(encoded, whole.data(), nbytes);
  } catch (const zarr::Error&) {
    std::abort();  // block decoding accepted what the whole decoder refuses
  }
  if (std::memcmp(whole.data(), pieces.data(), nbytes) != 0) std::abort();
  return 0;
}
