// Helpers shared by the codec tests.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "base/bytes.h"
#include "codecs/codec.h"
#include "zarr_config.h"

namespace zarr::test {

// make_bytes_codec from JSON text.
std::unique_ptr<BytesCodec> codec_from_json(const std::string& json, ChunkRepr repr = {});

// n bytes that compress somewhat, like real chunks: runs, a ramp of
// little-endian integers and noise, mixed by `seed`.
Bytes sample_data(size_t n, uint32_t seed = 1);

// Little-endian 32-bit fields of encoded buffers (headers made to lie).
void put_le32(Bytes& b, size_t at, uint32_t v);
uint32_t load_le32(const uint8_t* p);

// Encode, then decode with the size known and unknown: both give `data` back.
::testing::AssertionResult round_trips(const BytesCodec& codec, ByteView data);

// f throws zarr::Error with `code` and a message containing every needle.
::testing::AssertionResult fails_with(int code, std::initializer_list<std::string> needles,
                                      const std::function<void()>& f);

// The ids this build compiled in (see zarr_config.h).
std::vector<std::string> built_codec_ids();

}  // namespace zarr::test
