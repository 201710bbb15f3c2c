// "crc32": numcodecs.CRC32, zlib's CRC-32 (the reflected polynomial
// 0xEDB88320) of the chunk as 4 little-endian bytes before it (or after it
// with "location": "end").
#include <algorithm>
#include <array>

#include "codecs/builtin_codecs.h"
#include "codecs/checksum32.h"
#include "zarr_config.h"

#if ZARR_HAVE_ZLIB
#include <zlib.h>
#endif

namespace zarr::codecs {

namespace {

std::array<uint32_t, 256> make_table(uint32_t poly) {
  std::array<uint32_t, 256> t{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? poly ^ (c >> 1) : c >> 1;
    t[n] = c;
  }
  return t;
}

}  // namespace

uint32_t crc32_checksum(const uint8_t* data, size_t size) {
#if ZARR_HAVE_ZLIB
  // zlib's own crc32 is several times faster than one table; uInt-sized steps.
  uLong c = ::crc32(0L, Z_NULL, 0);
  while (size > 0) {
    const uInt step = static_cast<uInt>(std::min<size_t>(size, 1u << 30));
    c = ::crc32(c, data, step);
    data += step;
    size -= step;
  }
  return static_cast<uint32_t>(c);
#else
  return crc32_checksum_portable(data, size);
#endif
}

uint32_t crc32_checksum_portable(const uint8_t* data, size_t size) {
  static const std::array<uint32_t, 256> table = make_table(0xEDB88320u);
  uint32_t c = 0xFFFFFFFFu;
  for (size_t k = 0; k < size; ++k) c = table[(c ^ data[k]) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::unique_ptr<BytesCodec> make_crc32_codec(const rapidjson::Value& config, const ChunkRepr&) {
  return make_checksum32_codec(config, Checksum32Spec{"crc32", crc32_checksum, false, true});
}

}  // namespace zarr::codecs
