// The read/write engine of an array: regions of the caller's buffer in,
// chunks of the chunk store out, and back (grid -> store -> codec chain ->
// buffer). It knows nothing of handles, modes or metadata documents: the
// array (array/array.h) checks a region against the shape and the caller's
// buffer, holds its shape lock, and hands the engine a checked region.
//
// Every grid, regular or rectilinear, takes the same paths: the grid says
// which chunks a region touches and each chunk's shape (ChunkOverlap), and
// a chunk's shape decides its codec chain, strides and size (ChunkForm).
//
// Files: chunk_engine.cpp (what every path shares: keys, fill, locks),
// read.cpp (whole chunks, pieces, scattered rows, batches of remote
// chunks), read_shard.cpp (shards read in part or whole) and read_cache.cpp
// (the cache_pool), write.cpp (read-modify-write of each chunk under its
// lock), vlen.cpp (variable-length elements, regions and selections), selection_io.cpp
// (orthogonal, strided and point selections: engine/selection.h).
//
// Thread safety: region calls may run at once from any number of threads
// (each chunk is a task of the thread pool); writes to one chunk are
// serialised by a per-chunk lock shared by every engine of the process on
// the same chunk store. The metadata must not change during a region call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "array/array_options.h"
#include "array/engine/chunk_cache.h"
#include "array/engine/selection.h"
#include "base/bytes.h"
#include "base/strided_copy.h"
#include "concurrency/key_lock.h"
#include "grid/chunk_grid.h"
#include "metadata/array_metadata.h"
#include "stores/store.h"

namespace zarr {

class ChunkEngine {
 public:
  // `meta` must outlive the engine; its shape may change between region
  // calls (resize: then call forget_all_cached). The chunks live under
  // `chunk_path` of `chunk_store`. Of `options`: write_empty_chunks,
  // cache_bytes and process_lock_dir.
  ChunkEngine(const ArrayMetadata& meta, std::shared_ptr<Store> chunk_store, std::string chunk_path,
              const ArrayOptions& options);
  ~ChunkEngine();
  ChunkEngine(const ChunkEngine&) = delete;
  ChunkEngine& operator=(const ChunkEngine&) = delete;

  // Bytes per element in region buffers; 0 for variable-length elements.
  size_t item_size() const { return variable_length_ ? 0 : meta_.dtype.item_size(); }
  // Strings or bytes: chunks decode to offsets + bytes (codecs/vlen_codecs.h).
  bool variable_length() const { return variable_length_; }
  const std::shared_ptr<Store>& chunk_store() const { return chunk_store_; }
  const std::string& chunk_path() const { return chunk_path_; }
  // The store key of a chunk: its grid coordinates under chunk_path().
  std::string chunk_key(const std::vector<uint64_t>& chunk_coords) const;
  // Null unless opened with "cache_pool".
  const ChunkCache* cache() const { return cache_.get(); }

  // Region I/O of fixed-size elements over a region inside the shape:
  // `strides` are the buffer's byte strides, which stay inside it;
  // `region_bytes` the region's size (large regions stream their copies).
  void read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, uint8_t* out,
                   std::vector<int64_t> strides, uint64_t region_bytes) const;
  void write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, const uint8_t* data,
                    std::vector<int64_t> strides);
  // Selections of fixed-size elements (engine/selection.h, checked against
  // the shape when built) to or from a C-order buffer of
  // selection.elements() items: each chunk they touch is fetched and
  // decoded once (reads: only the box of its picks, by the paths a region
  // read takes; writes: read-modify-write under its lock, as write_region).
  void read_selection(const Selection& selection, uint8_t* out) const;
  void write_selection(const Selection& selection, const uint8_t* in);
  // A selection of variable-length elements (built with an item size of
  // sizeof(std::string_view)), regions included: element i of it is
  // data[offsets[i], offsets[i + 1]), offsets has elements() + 1 entries
  // (the caller checked); *data_size is set to the bytes needed, and when
  // capacity is smaller ZARR_ERR_BUFFER_SIZE, nothing else written. Each
  // touched chunk is fetched and decoded once. `where` names the array.
  void read_selection_vlen(const Selection& selection, uint64_t* offsets, uint8_t* data, size_t capacity,
                           size_t* data_size, const std::string& where) const;
  // Writes the selection's variable-length elements, `items` (elements() of
  // them, in selection order, checked by the caller), regions included: each
  // touched chunk read (unless every element of it is picked), modified,
  // encoded and set once under its lock, chunks in parallel; where an element
  // is picked twice the later item stays.
  void write_selection_vlen(const Selection& selection, const std::vector<std::string_view>& items);

  // Before a resize to `shape`: the stored chunk keys outside it (listed),
  // each checked for erasing (Store::check_erasable), so that a resize the
  // store would refuse is refused before the new shape is written.
  std::vector<std::string> erasable_chunks_outside(const std::vector<uint64_t>& shape) const;
  // After the resize: those chunks go, and the cache forgets every chunk
  // (also when an erase fails), so that nothing cached is served again.
  void erase_chunks(const std::vector<std::string>& keys);
  void forget_all_cached();

 private:
  // Where a region read puts its elements: the caller's buffer and its byte
  // strides, and how copies into the buffer store (streaming for regions far
  // larger than the cache: read.cpp).
  struct RegionTarget {
    uint8_t* base;
    std::vector<int64_t> strides;
    MemoryWrites stores;
  };
  // Where a region write takes its elements from.
  struct RegionSource {
    const uint8_t* base;
    std::vector<int64_t> strides;
  };
  // What a chunk's shape decides: the codec chain built for that shape, the
  // byte strides of the decoded C-order chunk and its size. Every chunk of a
  // regular grid has the array's own (largest_form_); a rectilinear grid's
  // chunks differ by shape (ArrayMetadata::chain_for).
  struct ChunkForm {
    std::vector<uint64_t> shape;
    std::shared_ptr<const CodecChain> chain;
    std::vector<int64_t> strides;  // of fixed-size items; vlen: of std::string_view
    size_t bytes = 0;              // decoded, fixed-size items
    uint64_t elements = 0;
  };
  // What a writer of one key holds while it reads, modifies and writes it
  // (concurrency/key_lock.h): the key's in-process lock and, with
  // process_lock_dir, its lock file.
  struct KeyWriteLock : KeyLock {
    KeyWriteLock(const ChunkEngine& engine, const std::string& key);
  };

  // chunk_engine.cpp: what reads and writes share.
  // The form of the chunk of `ov` (ov.chunk_shape, as the grid gave it).
  std::shared_ptr<const ChunkForm> form_of(const ChunkOverlap& ov) const;
  ChunkForm make_form(const std::vector<uint64_t>& shape, std::shared_ptr<const CodecChain> chain) const;
  // The limit of a chunk's store read: the most its codecs can write
  // (CodecChain::max_stored_size), else the chunk store's value_limit().
  uint64_t chunk_read_limit() const;
  // Stored bytes -> native-order C-order chunk (the codec chain).
  Bytes decode_chunk(const ChunkForm& form, ByteView stored, const std::string& key) const;
  Bytes filled_chunk(const ChunkForm& form) const;  // a whole chunk painted with the fill value
  bool is_fill_everywhere(const uint8_t* chunk, size_t size) const;
  std::mutex& chunk_lock(const std::string& key) const;
  // A write changed the chunk: the cache must not serve its old bytes (nor,
  // for a shard, its old index).
  void forget_cached(const std::string& key) const;

  // read.cpp: one chunk's part of a region read (a task of the thread pool).
  // The functions below it take the chunk's form (form_of(ov)).
  void read_chunk(const ChunkOverlap& ov, const RegionTarget& target) const;
  void read_whole_chunk(const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const;
  // Remote stores: a batch of a region's overlaps (read_remote_batch), and
  // whole chunks fetched together (Store::get_each), each placed as it
  // arrives (engine/fetch_pipeline.h): for chunk i of the batch, task(i,
  // place) calls place(target) with where the chunk's part goes; place
  // returns false when it placed nothing (a cache miss, the chunk is then
  // fetched and task(i, place) called again).
  using ChunkPlacer = std::function<bool(const RegionTarget&)>;
  using ChunkTask = std::function<void(size_t, const ChunkPlacer&)>;
  void read_remote_batch(const std::vector<ChunkOverlap>& overlaps, const RegionTarget& target) const;
  void read_chunk_batch(const std::vector<ChunkOverlap>& overlaps, const ChunkTask& task) const;
  // Decode a stored chunk and put its part of the region in place.
  void place_chunk(ByteView stored, const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                   const RegionTarget& target) const;
  bool place_in_pieces(ByteView stored, const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                       const RegionTarget& target) const;
  bool read_in_pieces(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                      const RegionTarget& target) const;
  bool read_scattered(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                      const RegionTarget& target) const;
  std::vector<Store::Piece> scatter_pieces(const ChunkOverlap& ov, const ChunkForm& form,
                                           const RegionTarget& target) const;
  PieceScatter piece_scatter(const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const;
  bool lands_contiguously(const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const;
  void copy_out(const uint8_t* chunk, const ChunkOverlap& ov, const ChunkForm& form,
                const RegionTarget& target) const;
  void fill_overlap(const ChunkOverlap& ov, const RegionTarget& target) const;

  // read_shard.cpp: sharded chunks. Part of a shard through its index
  // (kept between calls: engine/shard_part_read.h), false when absent; a
  // shard the region covers, read whole.
  bool read_chunk_part(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form, uint8_t* dst,
                       const std::vector<int64_t>& dst_strides, MemoryWrites stores) const;
  bool read_shard_part(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form, uint8_t* dst,
                       const std::vector<int64_t>& dst_strides, MemoryWrites stores) const;
  void read_whole_shard(const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const;
  void place_whole_shard(ByteView stored, const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                         const RegionTarget& target) const;

  // read_cache.cpp: the cache_pool: whether it takes this array's chunks
  // (not vlen, not chunks or shards above the limit), serving a chunk from
  // it (false on a miss), and a chunk read through it (fetched, decoded
  // whole, kept).
  bool caches_chunks() const;
  bool read_cached(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                   const RegionTarget& target) const;
  void read_chunk_through_cache(const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const;
  void decode_and_cache(const std::optional<Bytes>& stored, const std::string& key, uint64_t generation,
                        const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const;

  // vlen.cpp: one chunk's picks of a variable-length selection read, put
  // into `items` as views of the returned copy of their bytes.
  Bytes pick_vlen_chunk(const Selection& selection, const SelectedChunk& chunk,
                        std::vector<std::string_view>& items) const;
  // vlen.cpp: one chunk's part of a variable-length selection write.
  void put_vlen_chunk(const Selection& selection, const SelectedChunk& chunk,
                      const std::vector<std::string_view>& items);

  // write.cpp: one chunk's part of a region write (a task of the thread
  // pool): under the chunk's lock, read-modify-write, encode, set (or erase
  // when empty). `modify` puts the new elements into the decoded C-order
  // chunk, whose byte strides it is given; the chunk is read first unless
  // ov.covers_chunk.
  using ChunkModifier = std::function<void(uint8_t* chunk, const std::vector<int64_t>& chunk_strides)>;
  void write_chunk(const ChunkOverlap& ov, const ChunkModifier& modify);
  void write_chunk_through_copies(const ChunkOverlap& ov, const ChunkForm& form, const ChunkModifier& modify);
  ChunkModifier region_modifier(const ChunkOverlap& ov, const RegionSource& source) const;
  bool overwrites_every_element(const ChunkOverlap& ov) const;

  const ArrayMetadata& meta_;
  std::shared_ptr<Store> chunk_store_;
  std::string chunk_path_;
  std::string chunk_store_identity_;  // chunk_store_->identity(), the scope of chunk_lock()
  bool write_empty_chunks_;
  uint64_t cache_bytes_;
  std::string process_lock_dir_;
  bool variable_length_;
  Bytes fill_item_;  // for variable-length elements, the fill value's bytes
  std::unique_ptr<ChunkCache> cache_;  // null unless opened with "cache_pool"
  std::shared_ptr<const ChunkForm> largest_form_;  // of meta_.chunks: every chunk of a regular grid
  // Indexes of shards read in part, checked against the shard's version on
  // use (engine/shard_part_read.h); 2 KiB each for 128 inner chunks.
  static constexpr uint64_t kShardIndexCacheBytes = uint64_t{16} << 20;
  mutable ChunkCache shard_indexes_{kShardIndexCacheBytes};
};

}  // namespace zarr
