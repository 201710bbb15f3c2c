// The 32-bit checksum codecs of numcodecs (adler32, crc32, crc32c, fletcher32):
// the chunk's bytes with a 4-byte little-endian checksum of them before
// ("start") or after ("end"). Decoding verifies the checksum; a mismatch is
// ZARR_ERR_CODEC naming the codec and both values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <rapidjson/document.h>

#include "codecs/codec.h"

namespace zarr::codecs {

using Checksum32Fn = uint32_t (*)(const uint8_t* data, size_t size);

struct Checksum32Spec {
  const char* id;
  Checksum32Fn checksum;
  bool at_end;          // where numcodecs puts it by default
  bool has_location;    // the config may choose "location" ("start"/"end", numcodecs >= 0.13)
};

// Reads the configuration ("location" when the spec allows it; a value other
// than "start" or "end" is ZARR_ERR_INVALID_METADATA naming the field).
std::unique_ptr<BytesCodec> make_checksum32_codec(const rapidjson::Value& config, const Checksum32Spec& spec);

// The checksums themselves, as zlib.adler32, zlib.crc32, crc32c.crc32c and
// numcodecs' fletcher32 (HDF5's) compute them over a whole buffer.
uint32_t adler32_checksum(const uint8_t* data, size_t size);
uint32_t crc32_checksum(const uint8_t* data, size_t size);
uint32_t crc32_checksum_portable(const uint8_t* data, size_t size);  // without zlib
uint32_t crc32c_checksum(const uint8_t* data, size_t size);
// The table-driven crc32c used where the CPU lacks SSE 4.2 (tests compare both).
uint32_t crc32c_checksum_portable(const uint8_t* data, size_t size);
uint32_t fletcher32_checksum(const uint8_t* data, size_t size);

}  // namespace zarr::codecs
