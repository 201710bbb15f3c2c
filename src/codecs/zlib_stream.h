// Deflate and inflate loops shared by the zlib and gzip codecs, which differ
// only in the container around the deflate data.
#pragma once

#include <string>

#include "base/bytes.h"
#include "codecs/codec_util.h"

namespace zarr::codecs {

// Compress `in` at `level` and append the stream to `out`. window_bits is
// zlib's: 15 for a zlib stream, -15 for raw deflate data.
void deflate_into(const std::string& id, ByteView in, int level, int window_bits, OutputBuffer& out);

// Decompress one stream from the start of `in` into `out`, returning how many
// input bytes it used. window_bits 15 reads a zlib stream, 16 + 15 a gzip
// member (zlib then checks its header, CRC-32 and length). Corrupt or
// truncated data is ZARR_ERR_CODEC naming `id`.
size_t inflate_stream(const std::string& id, ByteView in, int window_bits, OutputBuffer& out);

}  // namespace zarr::codecs
