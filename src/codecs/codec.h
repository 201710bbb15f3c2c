// Codec interfaces and the registry.
//
// The three kinds of the v3 specification:
//  - array->array (transpose): a chunk array in, a chunk array out;
//  - array->bytes (bytes, sharding): a chunk array in, bytes out;
//  - bytes->bytes (compressors, checksums): bytes in, bytes out.
// A chunk array is its elements in C order and native byte order, described
// by an ArrayRepr. Zarr v2 uses the same kinds: "order" F is a transpose,
// the dtype's byte order is the bytes codec, filters and compressor are
// bytes->bytes codecs.
//
// Each interface below lists its REQUIRED methods first (pure virtual: all a
// new codec or a plugin implements), then its OPTIONAL ones, each with a
// default built on the required methods that is correct for any codec. The
// optional methods are accelerations (decoding or encoding in place, by
// blocks, partially) or bounds only the codec knows; the array engine and the
// chain call them on their hot paths, so a codec that overrides one saves a
// buffer, a copy or a read.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "base/bytes.h"
#include "base/size_limits.h"
#include "base/strided_copy.h"
#include "dtype/data_type.h"

namespace zarr {

// What the codec sees of the data it encodes: enough for blosc's typesize and
// for a decoder to know the exact decoded size.
struct ChunkRepr {
  size_t item_size = 1;       // bytes per element (blosc typesize)
  size_t decoded_size = 0;    // exact byte size of one decoded chunk
  std::string dtype;          // numpy typestr of the array's items ("<f4"); "" for structured types
  // The chunk's shape (C order) when the codec's input is the chunk itself:
  // a v2 compressor without filters in order "C". Empty otherwise; zfpy,
  // the one codec that needs a shape, then sees one flat axis.
  std::vector<uint64_t> shape = {};
};

class BytesCodec {
 public:
  virtual ~BytesCodec() = default;

  // ---- required -----------------------------------------------------------------

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

  // ---- optional: bounds -------------------------------------------------------------

  // decode() when only the most the output may be is known (a step of a
  // chain after another bytes->bytes codec, a variable-length chunk): more
  // than max_size bytes is ZARR_ERR_CODEC "decoded more than the N bytes
  // ...", found before more than about max_size bytes are allocated by the
  // codecs that can expand without bound (compressors: streaming decoders
  // stop there, size headers are checked first). The default decodes, then
  // checks: for codecs whose output is a small multiple of their input.
  virtual Bytes decode_at_most(ByteView encoded, size_t max_size) const;
  // The most bytes an encoder of this format writes for `decoded_size` bytes
  // (headers, checksums and a compressor's worst case included), or nullopt
  // when the codec cannot tell (plugins). Chains add these up into the most
  // a stored chunk can take (CodecChain::max_stored_size).
  virtual std::optional<uint64_t> max_encoded_size(uint64_t decoded_size) const;

  // ---- optional accelerations ----------------------------------------------------------

  // Decode into `out`, exactly `out_size` bytes (the known decoded size; any
  // other size is ZARR_ERR_CODEC and `out` may hold anything then). Codecs
  // that can write there directly override it, saving a buffer and a copy;
  // the default decodes and copies.
  virtual void decode_into(ByteView encoded, uint8_t* out, size_t out_size) const;
  // The decoded bytes handed over in order, a block at a time, by codecs
  // whose format is made of blocks decoded independently (blosc): out_size
  // bytes in all, else ZARR_ERR_CODEC (maybe after some pieces). The caller
  // copies each block out while it is still in the cache. False, having
  // handed over nothing, when the codec decodes whole (the default) or this
  // buffer would not gain from it: the caller decodes whole then.
  virtual bool decode_in_pieces(ByteView encoded, size_t out_size, const PieceArrived& arrived) const;
  // True for codecs that override decode_in_pieces: callers ask before
  // preparing to receive pieces, which would be wasted on the others.
  virtual bool decodes_by_blocks() const { return false; }

  // Encoding into a caller's buffer, for the compressors whose output size is
  // bounded up front (zstd, lz4, blosc): encoded_bound gives that bound (0:
  // not bounded, encode_into is not offered), encode_into fills at most
  // `capacity` bytes of `out` and returns how many. A caller that allocates
  // the bound without zeroing it (the array engine does) pays only for the
  // compressor; encode() itself is encode_into over a Bytes, which zeroes
  // its bound first.
  virtual size_t encoded_bound(size_t decoded_size) const;
  virtual size_t encode_into(ByteView decoded, uint8_t* out, size_t capacity) const;
};

// encode() of a codec that implements encode_into: into a Bytes of the bound.
Bytes encode_through_bound(const BytesCodec& codec, ByteView decoded);

// A chunk array as a codec sees it: shape (C order), element type (native
// byte order in memory) and the fill value's item bytes.
struct ArrayRepr {
  std::vector<uint64_t> shape;
  DataType dtype;
  Bytes fill_item;
  // Variable-length elements: the most bytes one decoded chunk (its offsets
  // and elements) may take where codecs build it from parts (a shard of
  // inner chunks). The chain sets it to its open limit (the store option
  // "max_value_bytes", CodecChain::limit_open_sizes).
  uint64_t vlen_limit = kDefaultMaxValueBytes;

  uint64_t elements() const;
  size_t byte_size() const;  // elements() * dtype.item_size()
};

// Every method is required.
class ArrayToArrayCodec {
 public:
  virtual ~ArrayToArrayCodec() = default;
  virtual std::string name() const = 0;
  // The v3 form: {"name": ..., "configuration": {...}}.
  virtual std::string v3_config_json() const = 0;
  // What the codec turns a chunk of `decoded` into (shape or type may change).
  virtual ArrayRepr encoded_repr(const ArrayRepr& decoded) const = 0;
  virtual Bytes encode(Bytes chunk, const ArrayRepr& decoded) const = 0;
  virtual Bytes decode(Bytes chunk, const ArrayRepr& decoded) const = 0;
};

class ArrayToBytesCodec {
 public:
  virtual ~ArrayToBytesCodec() = default;

  // ---- required -----------------------------------------------------------------

  virtual std::string name() const = 0;
  // The v3 form: {"name": ..., "configuration": {...}}.
  virtual std::string v3_config_json() const = 0;
  virtual Bytes encode(Bytes chunk, const ArrayRepr& decoded) const = 0;
  // Gives decoded.byte_size() bytes; other input sizes are ZARR_ERR_CODEC.
  virtual Bytes decode(ByteView stored, const ArrayRepr& decoded) const = 0;

  // ---- optional: sizes -------------------------------------------------------------

  // Size of every encoded chunk when it is fixed (the bytes codec), else 0.
  virtual size_t fixed_encoded_size(const ArrayRepr&) const { return 0; }
  // The most bytes an encoded chunk of `decoded` can have, or nullopt when
  // nothing bounds it (variable-length elements: the default).
  virtual std::optional<uint64_t> max_encoded_size(const ArrayRepr& decoded) const;

  // ---- optional accelerations: in place ---------------------------------------------

  // decode() of bytes the caller hands over (a compressor's output): a codec
  // that can work in place (bytes) reuses them instead of copying.
  virtual Bytes decode_in_place(Bytes stored, const ArrayRepr& decoded) const { return decode(stored, decoded); }
  // Decoding where the stored bytes already lie, in a buffer of exactly
  // fixed_encoded_size() bytes (the bytes codec: a byte swap at most), for
  // codecs whose decodes_in_buffer() is true: the array engine then decodes
  // chunks straight into the caller's region, with no buffer of their own.
  virtual bool decodes_in_buffer() const { return false; }
  // True when the stored bytes are the chunk itself, untouched (the bytes
  // codec in native byte order): a store may read them straight into place.
  virtual bool stores_native_layout() const { return false; }
  // The defaults of these two fail with ZARR_ERR_INTERNAL: callers ask
  // decodes_in_buffer() first.
  virtual void decode_in_buffer(uint8_t* data, size_t size, const ArrayRepr& decoded) const;
  // And the reverse, encoding where the chunk lies (same codecs).
  virtual void encode_in_buffer(uint8_t* data, size_t size, const ArrayRepr& decoded) const;

  // ---- optional accelerations: partial decoding ------------------------------------

  // Partial decoding (sharding): read only what part of a chunk needs.
  // `read(offset, length)` returns that byte range of the stored chunk
  // (length nullopt: to the end; a negative offset counts from the end, as
  // the store's suffix reads do), or nullopt when the chunk is absent.
  // Decodes the box [chunk_offset, chunk_offset + count) of the chunk into
  // `out` laid out by `out_strides` (bytes); elements without data get the
  // fill value. Returns false when the whole chunk is absent (nothing written).
  // Inner chunks are decoded in parallel (concurrency/thread_pool.h), so
  // `read` may be called from several threads at once (nested shards).
  using RangeReader = std::function<std::optional<Bytes>(int64_t offset, std::optional<uint64_t> length)>;
  // True for codecs that override partial_decode and decode_box (the
  // defaults of those two fail with ZARR_ERR_INTERNAL: callers ask first).
  virtual bool supports_partial_decode() const { return false; }
  // The read partial_decode makes first to locate the inner chunks (the
  // shard index), with exactly these arguments, and makes for nothing else:
  // a reader may keep its answer between calls. nullopt: no such read.
  struct RangeRequest {
    int64_t offset;
    std::optional<uint64_t> length;
    bool operator==(const RangeRequest& o) const { return offset == o.offset && length == o.length; }
  };
  virtual std::optional<RangeRequest> locating_request() const { return std::nullopt; }
  virtual bool partial_decode(const RangeReader& read, const ArrayRepr& decoded,
                              const std::vector<uint64_t>& chunk_offset, const std::vector<uint64_t>& count,
                              uint8_t* out, const std::vector<int64_t>& out_strides, MemoryWrites writes) const;
  // The same box decoded from the whole stored chunk, already in memory
  // (the array engine reads a shard it needs whole into a buffer it reuses,
  // instead of a fresh one per shard), written into `out` with `writes`
  // (streaming for a large region read). Codecs with partial decoding only.
  virtual void decode_box(ByteView stored, const ArrayRepr& decoded, const std::vector<uint64_t>& chunk_offset,
                          const std::vector<uint64_t>& count, uint8_t* out, const std::vector<int64_t>& out_strides,
                          MemoryWrites writes) const;
  // decode() for a read of the box [chunk_offset, chunk_offset + count)
  // only: elements outside it may come back as the fill value. A codec made
  // of parts (sharding, variable-length elements) decodes only the parts
  // the box needs; the default decodes everything.
  virtual Bytes decode_part(ByteView stored, const ArrayRepr& decoded, const std::vector<uint64_t>& chunk_offset,
                            const std::vector<uint64_t>& count) const {
    (void)chunk_offset;
    (void)count;
    return decode(stored, decoded);
  }
};

using BytesCodecFactory =
    std::function<std::unique_ptr<BytesCodec>(const rapidjson::Value& config, const ChunkRepr& repr)>;

// Create a bytes->bytes codec from its v2 configuration object ({"id": ...}).
// Unknown id: ZARR_ERR_UNSUPPORTED naming it. Bad parameter: ZARR_ERR_INVALID_METADATA
// naming the codec and the field.
std::unique_ptr<BytesCodec> make_bytes_codec(const rapidjson::Value& config, const ChunkRepr& repr);

// Register a factory under an id (used by register_builtin_codecs and plugins).
// v3_name: the id is also a v3 codec name (plugins' codecs are both).
void register_bytes_codec(const std::string& id, BytesCodecFactory factory, bool v3_name = false);

// True when a bytes->bytes codec is registered under this v2 id (loading
// plugins of ZARR_PLUGIN_PATH when it is unknown).
bool is_known_bytes_codec(const std::string& id);

// True when a codec registered with v3_name has this name (loading plugins of
// ZARR_PLUGIN_PATH when it is unknown).
bool is_registered_v3_name(const std::string& name);

// ---- v3 names ------------------------------------------------------------------
// The v3 core codecs are registered by name with their kind; "numcodecs.<id>"
// names resolve to the v2 registry above (see v3_chain.cpp).

enum class CodecKind { ArrayToArray, ArrayToBytes, BytesToBytes };
const char* codec_kind_name(CodecKind kind);  // "array->bytes", ...

// What a v3 factory receives: the codec's "configuration" (nullptr: absent),
// the chunk as the codec sees it, and `where` for messages.
struct V3CodecRequest {
  const rapidjson::Value* configuration = nullptr;
  ArrayRepr decoded;     // array->array and array->bytes codecs: their input
  ChunkRepr bytes_repr;  // bytes->bytes codecs: their input
  std::string where;
};

// Exactly one member is set, the one of the codec's kind.
struct V3Codec {
  std::shared_ptr<const ArrayToArrayCodec> array_to_array;
  std::shared_ptr<const ArrayToBytesCodec> array_to_bytes;
  std::shared_ptr<const BytesCodec> bytes_to_bytes;
};

using V3CodecFactory = std::function<V3Codec(const V3CodecRequest& request)>;
// The v3 form of a codec built from its numcodecs (v2) configuration, for a
// core v3 codec that runs on the v2 implementation (gzip, zstd, blosc):
// v3_codec_json (v3_chain.h) writes it when v2 metadata becomes v3.
using V3JsonOfV2 = std::string (*)(const BytesCodec& codec, size_t typesize);

struct V3CodecEntry {
  CodecKind kind;
  V3CodecFactory factory;
  V3JsonOfV2 v3_json_of_v2 = nullptr;  // nullptr: written as "numcodecs.<id>"
};

void register_v3_codec(const std::string& name, CodecKind kind, V3CodecFactory factory,
                       V3JsonOfV2 v3_json_of_v2 = nullptr);
// The entry registered under a v3 name, if any.
std::optional<V3CodecEntry> find_v3_codec(const std::string& name);

// For a numcodecs id libzarr knows of but does not implement ("pcodec"): why,
// as "; ..." to append to "unsupported codec '<id>'"; "" for any other id.
std::string unimplemented_numcodecs_note(const std::string& id);

// Ids of every registered bytes codec, sorted.
std::vector<std::string> registered_bytes_codecs();

// Register the codecs compiled into this build (called once, lazily).
void register_builtin_codecs();

}  // namespace zarr
