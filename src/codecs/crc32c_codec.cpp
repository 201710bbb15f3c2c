// "crc32c": numcodecs.CRC32C (numcodecs >= 0.13; not in 0.11), CRC-32C
// (Castagnoli, the reflected polynomial 0x82F63B78) of the chunk as 4
// little-endian bytes after it (or before it with "location": "start").
#include <array>

#include "base/error.h"
#include "codecs/builtin_codecs.h"
#include "codecs/checksum32.h"
#include "codecs/v3_numcodecs.h"

namespace zarr::codecs {

namespace {

constexpr uint32_t kCastagnoli = 0x82F63B78u;  // reflected polynomial

// Portable: slicing by 8, table[k][b] is the CRC of byte b followed by k
// zero bytes, so eight table lookups advance the CRC by eight bytes.
struct Crc32cTables {
  uint32_t t[8][256];
  Crc32cTables() {
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? kCastagnoli ^ (c >> 1) : c >> 1;
      t[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; ++n) {
      for (int k = 1; k < 8; ++k) t[k][n] = t[0][t[k - 1][n] & 0xff] ^ (t[k - 1][n] >> 8);
    }
  }
};

uint32_t load_le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

uint32_t crc32c_update_table(uint32_t c, const uint8_t* data, size_t size) {
  static const Crc32cTables tables;
  const auto& t = tables.t;
  while (size >= 8) {
    const uint32_t lo = c ^ load_le32(data), hi = load_le32(data + 4);
    c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^ t[3][hi & 0xff] ^
        t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
    data += 8;
    size -= 8;
  }
  while (size-- > 0) c = t[0][(c ^ *data++) & 0xff] ^ (c >> 8);
  return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ZARR_CRC32C_SSE42 1
// The SSE 4.2 crc32 instruction computes exactly this CRC, 8 bytes at a time
// (several GB/s against about 1 GB/s for the tables). Compiled for SSE 4.2
// on its own and only called where the CPU has it.
__attribute__((target("sse4.2"))) uint32_t crc32c_update_sse42(uint32_t c, const uint8_t* data, size_t size) {
  uint64_t c64 = c;
  while (size >= 8) {
    uint64_t word;
    __builtin_memcpy(&word, data, 8);
    c64 = __builtin_ia32_crc32di(c64, word);
    data += 8;
    size -= 8;
  }
  c = static_cast<uint32_t>(c64);
  while (size-- > 0) c = __builtin_ia32_crc32qi(c, *data++);
  return c;
}
#endif

using Crc32cUpdate = uint32_t (*)(uint32_t, const uint8_t*, size_t);

Crc32cUpdate pick_crc32c_update() {
#ifdef ZARR_CRC32C_SSE42
  if (__builtin_cpu_supports("sse4.2")) return crc32c_update_sse42;
#endif
  return crc32c_update_table;
}

}  // namespace

uint32_t crc32c_checksum(const uint8_t* data, size_t size) {
  static const Crc32cUpdate update = pick_crc32c_update();
  return update(0xFFFFFFFFu, data, size) ^ 0xFFFFFFFFu;
}

uint32_t crc32c_checksum_portable(const uint8_t* data, size_t size) {
  return crc32c_update_table(0xFFFFFFFFu, data, size) ^ 0xFFFFFFFFu;
}

std::unique_ptr<BytesCodec> make_crc32c_codec(const rapidjson::Value& config, const ChunkRepr&) {
  return make_checksum32_codec(config, Checksum32Spec{"crc32c", crc32c_checksum, true, true});
}

// v3's crc32c appends the checksum, as numcodecs' CRC32C does by default.
V3Codec make_crc32c_v3(const V3CodecRequest& request) {
  if (request.configuration && request.configuration->MemberCount() > 0) {
    fail(ZARR_ERR_INVALID_METADATA, request.where + ": codec 'crc32c' takes no configuration");
  }
  return named_v2_codec(make_from_v2("{\"id\":\"crc32c\"}", request.bytes_repr, request.where), "{\"name\":\"crc32c\"}");
}

}  // namespace zarr::codecs
