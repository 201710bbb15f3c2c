// One element of 1, 2, 4 or 8 bytes, in native byte order, as the low bits of
// a 64-bit word: how the codecs that work on an element's bits (bitround,
// packbits) read and write elements of any integer or float type.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/bytes.h"

namespace zarr {

inline uint64_t load_native_word(const uint8_t* p, size_t size) {
  switch (size) {
    case 1: return p[0];
    case 2: return load_unaligned<uint16_t>(p);
    case 4: return load_unaligned<uint32_t>(p);
    default: return load_unaligned<uint64_t>(p);
  }
}

inline void store_native_word(uint8_t* p, size_t size, uint64_t v) {
  switch (size) {
    case 1: p[0] = static_cast<uint8_t>(v); return;
    case 2: store_unaligned(p, static_cast<uint16_t>(v)); return;
    case 4: store_unaligned(p, static_cast<uint32_t>(v)); return;
    default: store_unaligned(p, v); return;
  }
}

}  // namespace zarr
