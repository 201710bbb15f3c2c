// An open array: metadata plus the store it lives in. Reads and writes of
// regions go grid -> store -> codec chain -> caller's buffer.
//
// Thread safety: any number of threads may read and write regions at once.
// Writes to one chunk are serialised by a per-chunk lock (read-modify-write
// under the lock) shared by every handle of the process on that store, so
// even overlapping regions written through separate handles never lose data. Resize and
// attribute changes take the handle's lock exclusively.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "array/chunk_cache.h"
#include "base/strided_copy.h"
#include "concurrency/file_lock.h"
#include "grid/chunk_grid.h"
#include "metadata/array_metadata.h"
#include "stores/store.h"
#include "stores/store_request.h"

namespace zarr {

struct ArrayOptions {
  bool write_empty_chunks = false;  // store chunks equal to the fill value everywhere
  int zarr_format = 0;              // open: look for this format's metadata only (0: any)
  uint64_t cache_bytes = 0;         // "cache_pool": decoded chunks kept per handle (0: none)
  size_t thread_limit = 0;          // "data_copy_concurrency": threads per region call (0: thread_count())
  // "chunk_store": the chunks live under this URL, the metadata under the
  // array's own (zarr-python's chunk_store). The caller resolves the URL into
  // chunk_location (stores/url.h) before opening; a null store: beside the metadata.
  std::string chunk_store_url;
  NodeLocation chunk_location;
  // When set, each chunk read-modify-write also holds an flock on
  // <process_lock_dir>/<chunk key>.lock, so processes sharing a filesystem
  // store may write regions that share chunks (docs/scaling.md).
  std::string process_lock_dir;
};

// The "chunk_store" option: a URL string, or {"url": URL, "store": {...}}
// with the options of that URL's store (the top-level "store" options are
// the metadata store's).
struct ChunkStoreOption {
  std::string url;
  const rapidjson::Value* store_options = nullptr;  // inside the parsed options; null when absent
};
ChunkStoreOption chunk_store_option(const rapidjson::Value& value);
// The "data_copy_concurrency" option: the thread limit, 0 for "shared".
size_t thread_limit_option(const rapidjson::Value& value, const std::string& where);

// The options of zarr_open_ex / zarr_create_ex (a parsed JSON object, see
// parse_open_options in stores/url.h) other than "store".
ArrayOptions parse_array_options(const rapidjson::Value& options_object);

// The Zarr format a metadata document given to zarr_create describes: 3 when
// it says zarr_format 3 or uses v3 member names (data_type, node_type), else 2.
int metadata_document_format(const std::string& metadata_json, const std::string& where);

class Array {
 public:
  static std::unique_ptr<Array> open(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                     const ArrayOptions& options);
  static std::unique_ptr<Array> create(std::shared_ptr<Store> store, const std::string& path,
                                       const std::string& metadata_json, const ArrayOptions& options);
  // TensorStore's assume_metadata (zarr_open_spec): the array `metadata_json`
  // describes, completed with zarr_create's defaults, neither read from nor
  // written to the store (which need not hold it). Changes of the stored
  // metadata (resize, append, v3 attributes) are then ZARR_ERR_UNSUPPORTED
  // naming `reason`, since they would overwrite a document never read.
  static std::unique_ptr<Array> assume(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                       const std::string& metadata_json, const ArrayOptions& options,
                                       const std::string& reason);

  size_t ndim() const { return meta_.ndim(); }
  std::vector<uint64_t> shape() const;
  const std::vector<uint64_t>& chunks() const { return meta_.chunks; }
  // Bytes per element in region buffers; 0 for variable-length elements.
  size_t item_size() const { return variable_length_ ? 0 : meta_.dtype.item_size(); }
  bool variable_length() const { return variable_length_; }
  int zarr_format() const { return meta_.zarr_format; }
  // v3 name of simple types, else the v2 dtype JSON.
  const std::string& data_type_name() const { return data_type_name_; }
  const ArrayMetadata& metadata() const { return meta_; }
  const std::shared_ptr<Store>& store() const { return store_; }
  // Where the chunks are: store() unless opened with "chunk_store".
  const std::shared_ptr<Store>& chunk_store() const { return chunk_store_; }

  // Region I/O. `strides` are the buffer's byte strides (nullptr: C-order
  // contiguous, and then nbytes must equal the region's byte size exactly).
  void read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, void* out,
                   size_t nbytes, const int64_t* strides);
  void write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, const void* data,
                    size_t nbytes, const int64_t* strides);

  // Variable-length elements (strings, bytes): element i of the region (C
  // order) is data[offsets[i], offsets[i + 1]); offsets has product(count)+1
  // entries. Reading sets *data_size to the bytes needed and fails with
  // ZARR_ERR_BUFFER_SIZE when capacity is smaller (nothing else is written).
  void read_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, uint64_t* offsets,
                        size_t n_offsets, uint8_t* data, size_t capacity, size_t* data_size);
  void write_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                         const uint64_t* offsets, size_t n_offsets, const uint8_t* data, size_t data_size);

  void resize(const std::vector<uint64_t>& new_shape);
  void append(size_t axis, const std::vector<uint64_t>& count, const void* data, size_t nbytes);

  std::string metadata_json() const;
  // The metadata document of a new array like this one (zarr_create_like):
  // this array's metadata without its attributes (a v1 array's in v2 form),
  // with each member of `overrides_json` (an object, may be "") replacing
  // the member of that name (array/array_like.cpp).
  std::string metadata_like(const std::string& overrides_json) const;
  // What zarr-python's `info` prints, as a JSON object: zarr_format,
  // data_type, shape, chunks, shards (null unless sharded), codecs,
  // fill_value, dimension_names, attributes, nbytes, nbytes_stored and
  // chunks_initialized (null on stores that cannot list), chunks_total,
  // store, path, chunk_store (null unless apart), cache_pool (null, or its limit, bytes used and chunks
  // held) (array/array_info.cpp).
  std::string info_json() const;
  // The stored keys under the array, sorted out: {"chunks": [[grid index],
  // ...]} for chunk keys inside the grid, "stray_keys" for every other key
  // that is not the array's metadata (chunk keys outside the grid, foreign
  // files). ZARR_ERR_UNSUPPORTED on stores that cannot list (array/array_info.cpp).
  std::string stored_chunks_json() const;
  // v3 dimension_names: empty when absent; an entry is nullopt when null.
  const std::vector<std::optional<std::string>>& dimension_names() const;
  std::string attributes_json() const;
  void set_attributes(const std::string& json);

 private:
  Array(std::shared_ptr<Store> store, std::string path, bool writable, ArrayOptions options,
        ArrayMetadata meta);

  void require_writable(const char* operation) const;
  void check_bounds(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count) const;
  // A region validated against the shape, and the caller's buffer against it.
  struct CheckedRegion {
    std::vector<int64_t> strides;  // the buffer's byte strides
    uint64_t bytes;                // the region's elements times the item size
  };
  CheckedRegion check_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, size_t nbytes,
                             const int64_t* strides) const;
  // Runs a region read or write (`body`); a failed allocation becomes
  // ZARR_ERR_NO_MEMORY naming the array, the region and the chunk size.
  template <typename Body>
  void naming_out_of_memory(const char* operation, const std::vector<uint64_t>& count, Body&& body) const {
    try {
      body();
    } catch (const std::bad_alloc&) {
      fail_out_of_memory(operation, count);
    }
  }
  [[noreturn]] void fail_out_of_memory(const char* operation, const std::vector<uint64_t>& count) const;
  std::string chunk_key(const std::vector<uint64_t>& chunk_coords) const;
  std::vector<int64_t> chunk_strides() const;
  // Stored bytes -> native-order C-order chunk, and back (the codec chain).
  Bytes decode_chunk(ByteView stored, const std::string& key) const;
  // The limit of a chunk's store read: the most its codecs can write
  // (CodecChain::max_stored_size), else the chunk store's value_limit().
  uint64_t chunk_read_limit() const;
  EncodedChunk encode_chunk(Bytes chunk) const;
  // Partial decoding of one chunk's part (sharded arrays); false when the
  // chunk is absent.
  bool read_chunk_part(const std::string& key, const ChunkOverlap& ov, uint8_t* dst,
                       const std::vector<int64_t>& dst_strides, Stores stores) const;
  // Where a region read puts its elements: the caller's buffer and its byte
  // strides, the strides of a C-order chunk, and how copies into the buffer
  // store (streaming for regions far larger than the cache: array.cpp).
  struct RegionTarget {
    uint8_t* base;
    std::vector<int64_t> strides;
    std::vector<int64_t> chunk_strides;
    Stores stores;
  };
  // One chunk's part of a region read (a task of the thread pool): whole
  // chunks are fetched into per-thread scratch (or straight into the
  // region), decoded, copied into place; shards are read in part.
  void read_chunk(const ChunkOverlap& ov, const RegionTarget& target) const;
  // The cache_pool: whether it takes this array's chunks (not vlen, not
  // chunks or shards above the limit), serving a chunk from it (false on a
  // miss), and a chunk read through it (fetched, decoded whole, kept).
  bool caches_chunks() const;
  bool read_cached(const std::string& key, const ChunkOverlap& ov, const RegionTarget& target) const;
  void read_chunk_through_cache(const ChunkOverlap& ov, const RegionTarget& target) const;
  void decode_and_cache(const std::optional<Bytes>& stored, const std::string& key, uint64_t generation,
                        const ChunkOverlap& ov, const RegionTarget& target) const;
  // A write changed the chunk: the cache must not serve its old bytes (nor,
  // for a shard, its old index).
  void forget_cached(const std::string& key) const;
  // Part of a shard, through its index (kept between calls: shard_part_read.h);
  // false when the shard is absent.
  bool read_shard_part(const std::string& key, const ChunkOverlap& ov, uint8_t* dst,
                       const std::vector<int64_t>& dst_strides, Stores stores) const;
  void read_whole_chunk(const ChunkOverlap& ov, const RegionTarget& target) const;
  PieceScatter piece_scatter(const ChunkOverlap& ov, const RegionTarget& target) const;
  bool read_in_pieces(const std::string& key, const ChunkOverlap& ov, const RegionTarget& target) const;
  bool place_in_pieces(ByteView stored, const std::string& key, const ChunkOverlap& ov,
                       const RegionTarget& target) const;
  void read_whole_shard(const ChunkOverlap& ov, const RegionTarget& target) const;
  bool read_scattered(const std::string& key, const ChunkOverlap& ov, const RegionTarget& target) const;
  std::vector<Store::Piece> scatter_pieces(const ChunkOverlap& ov, const RegionTarget& target) const;
  // Where a region write takes its elements from.
  struct RegionSource {
    const uint8_t* base;
    std::vector<int64_t> strides;
    std::vector<int64_t> chunk_strides;
  };
  // One chunk's part of a region write (a task of the thread pool): under
  // the chunk's lock, read-modify-write, encode, set (or erase when empty).
  void write_chunk(const ChunkOverlap& ov, const RegionSource& source);
  void write_chunk_through_copies(const ChunkOverlap& ov, const RegionSource& source);
  // True when the overlap is the whole chunk, every element of it.
  bool overwrites_every_element(const ChunkOverlap& ov) const;
  // Remote stores: how many whole chunks are fetched together
  // (Store::get_many), and fetching a batch of them then placing each.
  size_t read_batch_size() const;
  void read_chunk_batch(const std::vector<ChunkOverlap>& overlaps, const RegionTarget& target) const;
  // Decode a stored chunk and put its part of the region in place.
  void place_chunk(ByteView stored, const std::string& key, const ChunkOverlap& ov,
                   const RegionTarget& target) const;
  bool lands_contiguously(const ChunkOverlap& ov, const RegionTarget& target) const;
  void copy_out(const uint8_t* chunk, const ChunkOverlap& ov, const RegionTarget& target) const;
  void fill_overlap(const ChunkOverlap& ov, const RegionTarget& target) const;
  // A whole chunk painted with the fill value.
  Bytes filled_chunk() const;
  bool is_fill_everywhere(const uint8_t* chunk, size_t size) const;
  std::string serialized_metadata() const;
  void write_metadata();
  void erase_chunks_outside(const std::vector<uint64_t>& shape);
  std::mutex& chunk_lock(const std::string& key) const;
  // What a writer of one key holds while it reads, modifies and writes it:
  // the in-process lock of the key's stripe and, with process_lock_dir, the
  // key's lock file, taken second so threads of this process queue on the
  // mutex rather than each opening the file. Released in reverse order.
  struct KeyWriteLock {
    KeyWriteLock(const Array& array, const std::string& key);
    std::lock_guard<std::mutex> in_process;
    std::optional<FileLock> across_processes;
  };
  // Every key under the array: their total size and how many are chunks
  // (both unset when the store cannot list).
  struct StoredFigures {
    std::optional<uint64_t> nbytes_stored;
    std::optional<uint64_t> chunks_initialized;
  };
  StoredFigures stored_figures() const;
  // The keys under the array (relative to it), sorted into chunks inside the
  // grid, metadata keys, and the rest; nullopt when the store cannot list.
  struct StoredKeys {
    std::vector<std::vector<uint64_t>> chunks;  // grid indices
    std::vector<std::string> stray;
    uint64_t nbytes = 0;                        // every key's size, metadata included
  };
  std::optional<StoredKeys> stored_keys(bool with_sizes) const;

  std::shared_ptr<Store> store_;  // the metadata's
  std::string path_;
  std::shared_ptr<Store> chunk_store_;  // the chunks': store_ unless "chunk_store" was given
  std::string chunk_path_;
  bool writable_;
  ArrayOptions options_;
  ArrayMetadata meta_;
  std::string data_type_name_;
  std::string legacy_metadata_;  // the "meta" document of a v1 array
  bool variable_length_ = false;  // strings or bytes: chunks decode to offsets + bytes (codecs/vlen_codecs.h)
  Bytes fill_item_;
  mutable std::shared_mutex shape_mutex_;   // shared for region I/O, exclusive for resize
  std::string chunk_store_identity_;  // chunk_store_->identity(), the scope of chunk_lock()
  // v1/v2 attributes (.zattrs, attrs) as first read: like the metadata, they
  // are read once per handle (v3 keeps them in meta_).
  mutable std::mutex attributes_mutex_;
  mutable std::optional<std::string> attributes_;
  std::unique_ptr<ChunkCache> cache_;  // null unless opened with "cache_pool"
  // Indexes of shards read in part, checked against the shard's version on
  // use (array/shard_part_read.h); 2 KiB each for 128 inner chunks.
  static constexpr uint64_t kShardIndexCacheBytes = uint64_t{16} << 20;
  mutable ChunkCache shard_indexes_{kShardIndexCacheBytes};
  // Set by assume(): why the stored metadata must not be written.
  std::optional<std::string> metadata_assumed_;
};

}  // namespace zarr
