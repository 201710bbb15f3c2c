// Codec interfaces and the registry.
//
// A bytes->bytes codec (compressor, checksum) turns one chunk's bytes into
// stored bytes and back. v2 "compressor" entries are bytes->bytes codecs; v2
// "filters" will be array->array codecs (later issue) sharing this registry.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "core/bytes.h"

namespace zarr {

// What the codec sees of the data it encodes: enough for blosc's typesize and
// for a decoder to know the exact decoded size.
struct ChunkRepr {
  size_t item_size = 1;       // bytes per element (blosc typesize)
  size_t decoded_size = 0;    // exact byte size of one decoded chunk
  std::string dtype;          // numpy typestr of the array's items ("<f4"); "" for structured types
};

class BytesCodec {
 public:
  virtual ~BytesCodec() = default;
  // v2 id / v3 name, e.g. "zlib".
  virtual std::string id() const = 0;
  // Complete configuration as JSON, defaults filled in, as numcodecs'
  // get_config() gives it (v2 form, with "id"), e.g. {"id":"zlib","level":1}.
  virtual std::string config_json() const = 0;
  virtual Bytes encode(ByteView decoded) const = 0;
  // `expected_size` is the decoded size the metadata implies (0 = unknown).
  // A decoder never allocates more than that when it is known, and fails with
  // ZARR_ERR_CODEC naming the codec on corrupt or truncated input.
  virtual Bytes decode(ByteView encoded, size_t expected_size) const = 0;
};

using BytesCodecFactory =
    std::function<std::unique_ptr<BytesCodec>(const rapidjson::Value& config, const ChunkRepr& repr)>;

// Create a bytes->bytes codec from its v2 configuration object ({"id": ...}).
// Unknown id: ZARR_ERR_UNSUPPORTED naming it. Bad parameter: ZARR_ERR_INVALID_METADATA
// naming the codec and the field.
std::unique_ptr<BytesCodec> make_bytes_codec(const rapidjson::Value& config, const ChunkRepr& repr);

// Register a factory under an id (used by register_builtin_codecs and plugins).
void register_bytes_codec(const std::string& id, BytesCodecFactory factory);

// Ids of every registered bytes codec, sorted.
std::vector<std::string> registered_bytes_codecs();

// Register the codecs compiled into this build (called once, lazily).
void register_builtin_codecs();

}  // namespace zarr
