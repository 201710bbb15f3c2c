// Zarr v3 "codecs" lists: from the metadata's JSON to a CodecChain and back.
//
// Names understood: the v3 names in the registry (bytes, transpose,
// sharding_indexed, vlen-*, gzip, zstd, blosc, crc32c: see register_builtin_codecs),
// "numcodecs.<id>" for every codec of the v2 registry (configuration = the
// numcodecs configuration without id), and the names plugins registered.
#pragma once

#include <string>

#include <rapidjson/document.h>

#include "codecs/codec_chain.h"

namespace zarr {

// Build the chain for a chunk of `decoded` from a v3 "codecs" list. The order
// is validated (array->array*, exactly one array->bytes, bytes->bytes*): a
// wrong order or a missing array->bytes codec is ZARR_ERR_INVALID_METADATA
// naming the codec; an unknown name ZARR_ERR_UNSUPPORTED naming it. Errors
// name `where` (e.g. "a/zarr.json: field 'codecs'").
CodecChain make_v3_codec_chain(const rapidjson::Value& codecs, const ArrayRepr& decoded, const std::string& where);

// One bytes->bytes codec from its v3 form ({"name": ..., "configuration": ...}
// or a bare name), outside any array: the core bytes->bytes codecs,
// "numcodecs.<id>" (filters included: they work on the bytes of the dtype
// their configuration names) and codecs plugins registered. Array->array and
// array->bytes codecs (bytes, transpose, sharding_indexed, vlen-*) are
// ZARR_ERR_UNSUPPORTED: they need an array.
std::shared_ptr<const BytesCodec> make_v3_bytes_codec(const rapidjson::Value& item, const ChunkRepr& repr,
                                                      const std::string& where);

// The v3 form of a bytes->bytes codec built from a numcodecs (v2)
// configuration: the core names gzip, zstd and blosc (with its typesize) for
// those, "numcodecs.<id>" for the rest. The stored bytes are the same.
std::string v3_codec_json(const BytesCodec& codec, size_t typesize);

// The "codecs" list of a chain as JSON (each {"name": ..., "configuration": ...}).
std::string v3_codecs_json(const CodecChain& chain);

}  // namespace zarr
