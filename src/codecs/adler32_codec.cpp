// "adler32": numcodecs.Adler32, zlib's Adler-32 of the chunk as 4
// little-endian bytes before it (or after it with "location": "end").
#include "codecs/builtin_codecs.h"
#include "codecs/checksum32.h"

namespace zarr::codecs {

uint32_t adler32_checksum(const uint8_t* data, size_t size) {
  constexpr uint32_t kMod = 65521;
  // 5552 is the most bytes whose sums cannot overflow 32 bits before reducing.
  constexpr size_t kBlock = 5552;
  uint32_t a = 1, b = 0;
  while (size > 0) {
    size_t n = size < kBlock ? size : kBlock;
    size -= n;
    for (size_t k = 0; k < n; ++k) {
      a += data[k];
      b += a;
    }
    data += n;
    a %= kMod;
    b %= kMod;
  }
  return (b << 16) | a;
}

std::unique_ptr<BytesCodec> make_adler32_codec(const rapidjson::Value& config, const ChunkRepr&) {
  return make_checksum32_codec(config, Checksum32Spec{"adler32", adler32_checksum, false, true});
}

}  // namespace zarr::codecs
