// UTF-8 <-> code points, strict: the JSON writer (base/json.h) and the text
// fill values of the dtype room both need them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zarr {

// UTF-8 to code points; std::nullopt for malformed UTF-8 (bad sequences,
// overlong forms, surrogates, values past U+10FFFF).
std::optional<std::vector<uint32_t>> utf8_to_utf32(const std::string& text);

// Code points to UTF-8; std::nullopt when one is a surrogate or past U+10FFFF
// (JSON text cannot carry it).
std::optional<std::string> utf32_to_utf8(const std::vector<uint32_t>& code_points);

}  // namespace zarr
