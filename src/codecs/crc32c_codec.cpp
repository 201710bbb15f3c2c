// "crc32c": numcodecs.CRC32C (numcodecs >= 0.13; not in 0.11), CRC-32C
// (Castagnoli, the reflected polynomial 0x82F63B78) of the chunk as 4
// little-endian bytes after it (or before it with "location": "start").
#include <array>

#include "codecs/builtin_codecs.h"
#include "codecs/checksum32.h"

namespace zarr::codecs {

namespace {

// Slicing by 4: table[k][b] is the CRC of byte b followed by k zero bytes.
struct Crc32cTables {
  uint32_t t[4][256];
  Crc32cTables() {
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0x82F63B78u ^ (c >> 1) : c >> 1;
      t[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; ++n) {
      for (int k = 1; k < 4; ++k) t[k][n] = t[0][t[k - 1][n] & 0xff] ^ (t[k - 1][n] >> 8);
    }
  }
};

}  // namespace

uint32_t crc32c_checksum(const uint8_t* data, size_t size) {
  static const Crc32cTables tables;
  const auto& t = tables.t;
  uint32_t c = 0xFFFFFFFFu;
  while (size >= 4) {
    c ^= uint32_t{data[0]} | uint32_t{data[1]} << 8 | uint32_t{data[2]} << 16 | uint32_t{data[3]} << 24;
    c = t[3][c & 0xff] ^ t[2][(c >> 8) & 0xff] ^ t[1][(c >> 16) & 0xff] ^ t[0][c >> 24];
    data += 4;
    size -= 4;
  }
  while (size-- > 0) c = t[0][(c ^ *data++) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::unique_ptr<BytesCodec> make_crc32c_codec(const rapidjson::Value& config, const ChunkRepr&) {
  return make_checksum32_codec(config, Checksum32Spec{"crc32c", crc32c_checksum, true, true});
}

}  // namespace zarr::codecs
