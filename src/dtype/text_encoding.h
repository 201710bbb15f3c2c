// Text encodings (not codecs): base64 and UTF-8/UTF-32 conversions, used by fill
// values (v2 and v3 metadata).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "base/utf8.h"

namespace zarr::dtype_detail {

// Standard alphabet with '=' padding (what Python's base64.standard_b64encode writes).
std::string base64_encode(const uint8_t* data, size_t size);

// Decode as Python's base64.standard_b64decode does (zarr-python reads fill
// values with it): characters outside the alphabet are skipped, decoding stops
// at the padding that completes a quad, and a dangling partial quad is an
// error. std::nullopt on error.
std::optional<Bytes> base64_decode_lenient(const std::string& text);

// UTF-8 <-> code points live on the ground floor (the JSON writer needs them).
using zarr::utf32_to_utf8;
using zarr::utf8_to_utf32;

}  // namespace zarr::dtype_detail
