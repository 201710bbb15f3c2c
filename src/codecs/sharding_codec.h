// The v3 "sharding_indexed" codec (array->bytes): a chunk of the array (a
// shard) is cut into inner chunks of a fixed shape, each encoded on its own
// with the inner codec chain and stored one after another, followed (or
// preceded) by an index of (offset, nbytes) uint64 pairs, one per inner chunk
// in C order of the inner chunk grid, itself encoded with the index codecs.
// Inner chunks holding only the fill value are not stored: their index entry
// is (2^64-1, 2^64-1).
//
// Layout written: inner chunks in Morton (Z) order of their coordinates with
// no gaps, as zarr-python 3 writes them, so equal shards give equal bytes in
// both. Any layout the index describes is read.
//
// Partial decoding reads the index with one range request (a suffix for
// index_location "end"), then only the byte ranges of the inner chunks the
// requested box touches, neighbours merged into one request when the gap
// between them is small (see kShardCoalesceMaxGap). When every inner chunk of
// the shard is needed the shard is read whole in one request. Inner chunks
// that are themselves sharded (nested sharding) and only partly needed are
// decoded partially too, through a reader restricted to their byte range.
//
// Variable-length data types (string, bytes) are supported by encode and
// decode (their decoded chunk is vlen's offsets + data buffer), which hold
// the inner chunks decoded to the "max_value_bytes" limit together;
// decode_part decodes only the inner chunks a read needs. Partial decoding
// from byte ranges is for fixed-size types only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "codecs/codec_chain.h"

namespace zarr {

// Partial reads merge the byte ranges of two needed inner chunks into one
// request when at most this many unneeded bytes lie between them...
inline constexpr uint64_t kShardCoalesceMaxGap = 64 * 1024;
// ...and the merged request stays at most this long.
inline constexpr uint64_t kShardCoalesceMaxBytes = 16 * 1024 * 1024;

class ShardingCodec final : public ArrayToBytesCodec {
 public:
  // `shard` describes one shard (the array's chunk as the codec receives it).
  // Use make_sharding_codec to build one from metadata.
  ShardingCodec(ArrayRepr shard, std::vector<uint64_t> inner_shape, CodecChain inner, CodecChain index,
                bool index_at_end, const std::string& where);

  std::string name() const override { return "sharding_indexed"; }
  // {"name":"sharding_indexed","configuration":{"chunk_shape":[..],"codecs":[..],
  //  "index_codecs":[..],"index_location":"end"}}: zarr-python 3's key order.
  std::string v3_config_json() const override { return v3_json_; }
  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override;
  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override;
  // Variable-length elements: only the inner chunks the box overlaps are
  // decoded; fixed-size ones decode whole (reads use partial_decode).
  Bytes decode_part(ByteView stored, const ArrayRepr& decoded, const std::vector<uint64_t>& chunk_offset,
                    const std::vector<uint64_t>& count) const override;
  // The index and every inner chunk at the most it can take; nullopt when
  // the inner chunks have no bound (variable-length elements).
  std::optional<uint64_t> max_encoded_size(const ArrayRepr& decoded) const override;
  bool supports_partial_decode() const override { return !shard_.dtype.is_variable_length(); }
  // The index: a suffix read when it is at the end; at the start, the
  // shard's first index_size() bytes, where no inner chunk begins.
  std::optional<RangeRequest> locating_request() const override;
  bool partial_decode(const RangeReader& read, const ArrayRepr& decoded, const std::vector<uint64_t>& chunk_offset,
                      const std::vector<uint64_t>& count, uint8_t* out, const std::vector<int64_t>& out_strides,
                      MemoryWrites writes) const override;
  void decode_box(ByteView stored, const ArrayRepr& decoded, const std::vector<uint64_t>& chunk_offset,
                  const std::vector<uint64_t>& count, uint8_t* out, const std::vector<int64_t>& out_strides,
                  MemoryWrites writes) const override;

  const std::vector<uint64_t>& inner_chunk_shape() const { return inner_shape_; }
  const std::vector<uint64_t>& chunks_per_shard() const { return grid_; }
  // Encoded size of the index in bytes (16 per inner chunk plus what the
  // index codecs add, e.g. 4 for crc32c).
  uint64_t index_size() const { return index_size_; }
  bool index_at_end() const { return index_at_end_; }
  const CodecChain& inner_chain() const { return inner_; }

 private:
  struct Overlap;  // an inner chunk's part of a box
  void for_each_overlap(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                        const std::function<void(const Overlap&)>& visit) const;
  std::vector<uint64_t> decode_index(ByteView encoded) const;
  Bytes encode_index(const std::vector<uint64_t>& entries) const;
  void check_shape(const ArrayRepr& decoded) const;
  std::string inner_name(size_t i) const;
  void check_inside(size_t i, uint64_t offset, uint64_t nbytes, uint64_t shard_size) const;
  // ZARR_ERR_CODEC naming inner chunk i when its index entry claims more
  // bytes than an inner chunk can take (checked before they are fetched).
  void check_inner_size(size_t i, uint64_t nbytes) const;
  void decode_into(ByteView stored, const Overlap& ov, uint8_t* out, const std::vector<int64_t>& out_strides,
                   MemoryWrites writes) const;
  // Checks of a partial decode's box, and the inner chunks it overlaps.
  std::vector<Overlap> box_overlaps(const ArrayRepr& decoded, const std::vector<uint64_t>& chunk_offset,
                                    const std::vector<uint64_t>& count, const std::vector<int64_t>& out_strides) const;
  // The needed inner chunks decoded (in parallel) from the whole shard in memory.
  void decode_needed(ByteView stored, const std::vector<Overlap>& needed, uint8_t* out,
                     const std::vector<int64_t>& out_strides, MemoryWrites writes) const;
  // partial_decode's steps (sharding_partial.cpp): the index, the byte
  // ranges of the needed inner chunks decoded whole, fetched in merged
  // requests (views into `buffers`), and a nested shard's own partial decoding.
  struct Fetch;
  std::optional<std::vector<uint64_t>> read_index(const RangeReader& read) const;
  std::vector<Fetch> plan_fetches(const std::vector<Overlap>& needed, const std::vector<uint64_t>& entries) const;
  std::vector<ByteView> fetch_ranges(const RangeReader& read, const std::vector<Overlap>& needed,
                                     const std::vector<Fetch>& fetches, std::vector<Bytes>& buffers) const;
  bool decode_nested(const RangeReader& read, const Overlap& ov, uint64_t offset, uint64_t nbytes, uint8_t* out,
                     const std::vector<int64_t>& out_strides, MemoryWrites writes) const;
  bool all_fill(const uint8_t* data, size_t size) const;
  std::vector<size_t> write_order() const;
  void encode_vlen(const Bytes& chunk, std::vector<uint64_t>& entries, Bytes& body) const;
  // The index of a whole shard in memory, each entry checked to lie inside it.
  std::vector<uint64_t> checked_entries(ByteView stored) const;
  // A decoded shard of variable-length elements in which the box's elements
  // are the stored ones (others may be the fill value); the inner chunks
  // decoded take at most `limit` bytes together (ZARR_ERR_CODEC past it).
  Bytes decode_vlen(ByteView stored, const std::vector<uint64_t>& entries, uint64_t limit,
                    const std::vector<uint64_t>& box_offset, const std::vector<uint64_t>& box_count) const;

  ArrayRepr shard_;
  std::vector<uint64_t> inner_shape_;
  std::vector<uint64_t> grid_;  // chunks per shard, per dimension
  uint64_t n_inner_ = 1;
  CodecChain inner_;
  CodecChain index_;
  bool index_at_end_ = true;
  uint64_t index_size_ = 0;
  bool fill_has_nan_ = false;  // compare floats component-wise so NaN matches NaN
  std::string v3_json_;
};

// Build the codec from its v3 "configuration" object (nullptr: absent) for a
// shard of `decoded`. chunk_shape is required; codecs default to the "bytes"
// codec (little-endian where the type has a byte order), index_codecs to
// bytes + crc32c, index_location to "end", as zarr-python 3 does. The inner
// and index chains are built with make_v3_codec_chain (so sharding nests).
// ZARR_ERR_INVALID_METADATA naming `where` and the field for: a missing
// configuration or chunk_shape, unknown members, a chunk_shape of another
// rank, with a 0, or not dividing the shard shape, an index_location other
// than "start"/"end", index codecs that do not encode to a fixed size.
std::shared_ptr<const ArrayToBytesCodec> make_sharding_codec(const rapidjson::Value* configuration,
                                                             const ArrayRepr& decoded, const std::string& where);

}  // namespace zarr
