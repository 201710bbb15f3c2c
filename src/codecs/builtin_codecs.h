// Factories of the built-in codecs, one source file per codec. Only those
// whose library this build found are compiled (see zarr_config.h); the
// registry registers them and the tests call them directly.
#pragma once

#include <memory>
#include <string>

#include <rapidjson/document.h>

#include "codecs/codec.h"

namespace zarr::codecs {

std::unique_ptr<BytesCodec> make_zlib_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_gzip_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_bz2_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_zstd_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_blosc_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_lz4_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_lzma_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_zfpy_codec(const rapidjson::Value& config, const ChunkRepr& repr);  // zfpy_codec.cpp

// The numcodecs filters and checksums: no library needed, always built.
std::unique_ptr<BytesCodec> make_delta_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_shuffle_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_bitround_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_fixedscaleoffset_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_quantize_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_packbits_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_astype_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_categorize_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_adler32_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_crc32_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_crc32c_codec(const rapidjson::Value& config, const ChunkRepr& repr);
std::unique_ptr<BytesCodec> make_fletcher32_codec(const rapidjson::Value& config, const ChunkRepr& repr);

// The v3 core codecs, each beside its implementation, in its codec's file
// (gzip, zstd, blosc and crc32c translate their v3 configuration onto the v2
// implementation through v3_numcodecs.h, and gzip, zstd and blosc write the
// v3 form of a v2 configuration: V3JsonOfV2 in codec.h).
V3Codec make_bytes_v3(const V3CodecRequest& request);          // bytes_layout_codec.cpp
V3Codec make_transpose_v3(const V3CodecRequest& request);      // transpose_codec.cpp
V3Codec make_sharding_v3(const V3CodecRequest& request);       // sharding_codec.cpp
V3Codec make_vlen_utf8_v3(const V3CodecRequest& request);      // vlen_codecs.cpp
V3Codec make_vlen_bytes_v3(const V3CodecRequest& request);     // vlen_codecs.cpp
V3Codec make_gzip_v3(const V3CodecRequest& request);           // gzip_codec.cpp
std::string gzip_v3_json(const BytesCodec& codec, size_t typesize);
V3Codec make_zstd_v3(const V3CodecRequest& request);           // zstd_codec.cpp
std::string zstd_v3_json(const BytesCodec& codec, size_t typesize);
V3Codec make_blosc_v3(const V3CodecRequest& request);          // blosc_codec.cpp
std::string blosc_v3_json(const BytesCodec& codec, size_t typesize);
V3Codec make_crc32c_v3(const V3CodecRequest& request);         // crc32c_codec.cpp
// The registry's array->array codecs (issue 26); bitround is also registered
// as "numcodecs.bitround", its alias, and writes back the name it was given.
V3Codec make_bitround_v3(const V3CodecRequest& request, const std::string& name);  // bitround_codec.cpp
V3Codec make_reshape_v3(const V3CodecRequest& request);        // reshape_codec.cpp
V3Codec make_cast_value_v3(const V3CodecRequest& request);     // cast_value_codec.cpp
V3Codec make_scale_offset_v3(const V3CodecRequest& request);   // scale_offset_codec.cpp
V3Codec make_packbits_v3(const V3CodecRequest& request);       // packbits_v3_codec.cpp
// zfp (libzfp): the registry's "zfp" and numcodecs' zfpy as "numcodecs.zfpy",
// both array->bytes.
V3Codec make_zfp_v3(const V3CodecRequest& request);            // zfp_codec.cpp
V3Codec make_zfpy_v3(const V3CodecRequest& request);           // zfpy_codec.cpp
V3Codec make_n5_default_v3(const V3CodecRequest& request);     // n5_default_codec.cpp
V3Codec make_conditional_v3(const V3CodecRequest& request);    // conditional_codec.cpp
// zarrs' experimental "optional" (array->bytes), for the optional data type.
V3Codec make_optional_v3(const V3CodecRequest& request);       // optional_codec.cpp

// make_blosc_codec as if c-blosc offered only `available` (a comma-separated
// list like blosc_list_compressors() returns): lets tests check what happens
// on a c-blosc built without some compressor (Debian's lacks none today).
std::unique_ptr<BytesCodec> make_blosc_codec_limited(const rapidjson::Value& config, const ChunkRepr& repr,
                                                     const std::string& available);

}  // namespace zarr::codecs
