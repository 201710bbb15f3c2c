#include "array/array.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <new>

#include "array/shard_part_read.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "base/path.h"
#include "base/strided_copy.h"
#include "concurrency/thread_pool.h"
#include "grid/chunk_grid.h"
#include "metadata/nodes.h"
#include "metadata/v1_metadata.h"
#include "metadata/v2_metadata.h"
#include "metadata/v3_metadata.h"

namespace zarr {

namespace {

std::string shape_text(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// NaN test on a native-order IEEE float of 2, 4 or 8 bytes: exponent all ones,
// mantissa non-zero.
bool is_nan_bits(const uint8_t* p, size_t size) {
  switch (size) {
    case 2: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return (v & 0x7c00) == 0x7c00 && (v & 0x03ff) != 0;
    }
    case 4: {
      float v;
      std::memcpy(&v, p, 4);
      return std::isnan(v);
    }
    case 8: {
      double v;
      std::memcpy(&v, p, 8);
      return std::isnan(v);
    }
    default:
      return false;
  }
}

// True when item equals fill, where a NaN fill matches any NaN (as numpy's
// all-equal check in zarr-python treats NaN fill values).
bool float_item_matches(const uint8_t* item, const uint8_t* fill, size_t item_size, size_t float_size) {
  for (size_t off = 0; off < item_size; off += float_size) {
    bool both_nan = is_nan_bits(item + off, float_size) && is_nan_bits(fill + off, float_size);
    if (!both_nan && std::memcmp(item + off, fill + off, float_size) != 0) return false;
  }
  return true;
}

// Buffers each thread keeps from one chunk to the next (base/bytes.h's
// ScratchBuffer): the stored bytes of a chunk, and its decoded elements when
// they cannot be decoded straight into the region.
struct ChunkScratch {
  ScratchBuffer stored;
  ScratchBuffer decoded;

  void release_above(size_t limit) {
    stored.release_above(limit);
    decoded.release_above(limit);
  }
};

ChunkScratch& thread_scratch() {
  thread_local ChunkScratch scratch;
  return scratch;
}

// How many chunk overlaps a region operation lists at a time: enough to keep
// every thread busy, few enough that listing a region of millions of chunks
// does not take memory of its own.
constexpr size_t kOverlapsPerBatch = 1024;

// Visit the overlaps of a region `batch_size` at a time (the last batch may
// be smaller), in C order of chunk coordinates.
void for_each_overlap_batch(const ChunkGrid& grid, const std::vector<uint64_t>& start,
                            const std::vector<uint64_t>& count, size_t batch_size,
                            const std::function<void(const std::vector<ChunkOverlap>&)>& visit) {
  std::vector<ChunkOverlap> batch;
  grid.for_each_overlap(start, count, [&](const ChunkOverlap& ov) {
    batch.push_back(ov);
    if (batch.size() < batch_size) return;
    visit(batch);
    batch.clear();
  });
  if (!batch.empty()) visit(batch);
}

// Scratch buffers up to this size stay with their thread; bigger ones (huge
// chunks) are freed after each chunk.
constexpr size_t kScratchKeepLimit = size_t{64} << 20;

// A region read at least this large is copied into the caller's buffer with
// streaming stores: its first chunks would be out of the cache by the time the
// read returns anyway, and not reading each destination line before writing
// it saves a third of the memory traffic (W1 of docs/performance.md: 0.028 s
// -> 0.022 s on 2 cores). Well above a core's share of a last-level cache.
constexpr uint64_t kStreamingRegionBytes = uint64_t{32} << 20;

// Pieces of an uncompressed chunk read for such a region: well inside a
// core's L2 cache (measured: 256 KiB-1 MiB pieces equally good, 8 MiB 5-7%
// slower on 2 cores).
constexpr size_t kReadPieceBytes = size_t{512} << 10;

// {"total_bytes_limit": N}, as TensorStore's cache_pool; 0 keeps nothing.
uint64_t parse_cache_pool(const rapidjson::Value& value) {
  const char* what = "options: 'cache_pool' must be an object {\"total_bytes_limit\": bytes}";
  if (!value.IsObject()) fail(ZARR_ERR_INVALID_ARGUMENT, what);
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
    if (std::string(it->name.GetString()) != "total_bytes_limit") {
      fail(ZARR_ERR_INVALID_ARGUMENT,
           std::string("options: 'cache_pool' has unknown member '") + it->name.GetString() + "'");
    }
  }
  auto limit = value.FindMember("total_bytes_limit");
  if (limit == value.MemberEnd() || !limit->value.IsUint64()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'cache_pool.total_bytes_limit' must be a number of bytes, 0 or more");
  }
  return limit->value.GetUint64();
}

}  // namespace

// {"limit": N} (TensorStore's data_copy_concurrency), {"limit": "shared"} or
// {} (the process-wide count: 0); N from 1 to kMaxThreadCount. `where`
// prefixes the error ("options", "spec").
size_t thread_limit_option(const rapidjson::Value& value, const std::string& where) {
  const std::string what = where + ": 'data_copy_concurrency' must be {\"limit\": threads from 1 to " +
                           std::to_string(kMaxThreadCount) + " or \"shared\"}, got " + json::to_string(value);
  if (!value.IsObject()) fail(ZARR_ERR_INVALID_ARGUMENT, what);
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
    if (std::string(it->name.GetString()) != "limit") fail(ZARR_ERR_INVALID_ARGUMENT, what);
  }
  const auto limit = value.FindMember("limit");
  if (limit == value.MemberEnd()) return 0;
  if (limit->value.IsString() && std::string(limit->value.GetString()) == "shared") return 0;
  if (!limit->value.IsUint64() || limit->value.GetUint64() < 1 || limit->value.GetUint64() > kMaxThreadCount) {
    fail(ZARR_ERR_INVALID_ARGUMENT, what);
  }
  return static_cast<size_t>(limit->value.GetUint64());
}

ChunkStoreOption chunk_store_option(const rapidjson::Value& value) {
  const char* what = "options: 'chunk_store' must be a URL string or {\"url\": URL, \"store\": {...}}";
  if (value.IsString() && value.GetStringLength() > 0) return {value.GetString(), nullptr};
  if (!value.IsObject()) fail(ZARR_ERR_INVALID_ARGUMENT, what);
  ChunkStoreOption option;
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
    const std::string member = it->name.GetString();
    if (member == "url" && it->value.IsString() && it->value.GetStringLength() > 0) {
      option.url = it->value.GetString();
    } else if (member == "store" && it->value.IsObject()) {
      option.store_options = &it->value;
    } else {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'chunk_store." + member + "' is not a URL string ('url') or an "
                                      "object of store options ('store')");
    }
  }
  if (option.url.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, what);
  return option;
}

ArrayOptions parse_array_options(const rapidjson::Value& options_object) {
  ArrayOptions options;
  for (auto it = options_object.MemberBegin(); it != options_object.MemberEnd(); ++it) {
    std::string name = it->name.GetString();
    if (name == "store") continue;  // the URL's store takes it (stores/url.h)
    if (name == "write_empty_chunks") {
      if (!it->value.IsBool()) fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'write_empty_chunks' must be true or false");
      options.write_empty_chunks = it->value.GetBool();
    } else if (name == "zarr_format") {
      const bool known = it->value.IsInt() && it->value.GetInt() >= 1 && it->value.GetInt() <= 3;
      if (!known) fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'zarr_format' must be 1, 2 or 3");
      options.zarr_format = it->value.GetInt();
    } else if (name == "cache_pool") {
      options.cache_bytes = parse_cache_pool(it->value);
    } else if (name == "data_copy_concurrency") {
      options.thread_limit = thread_limit_option(it->value, "options");
    } else if (name == "chunk_store") {
      options.chunk_store_url = chunk_store_option(it->value).url;
    } else if (name == "process_lock_dir") {
      const bool usable = it->value.IsString() && it->value.GetStringLength() > 0;
      if (!usable) fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'process_lock_dir' must be a non-empty folder path string");
      options.process_lock_dir = it->value.GetString();
    } else {
      fail(ZARR_ERR_INVALID_ARGUMENT, "options: unknown option '" + name + "'");
    }
  }
  // Other processes rewrite the chunks of a locked array: a cache would go on
  // serving what they replaced.
  if (options.cache_bytes > 0 && !options.process_lock_dir.empty()) {
    fail(ZARR_ERR_INVALID_ARGUMENT,
         "options: 'cache_pool' and 'process_lock_dir' do not go together (the cache would not see other "
         "processes' writes)");
  }
  return options;
}

Array::Array(std::shared_ptr<Store> store, std::string path, bool writable, ArrayOptions options,
             ArrayMetadata meta)
    : store_(std::move(store)),
      path_(std::move(path)),
      writable_(writable),
      options_(options),
      meta_(std::move(meta)) {
  const bool own_chunk_store = options_.chunk_location.store != nullptr;
  chunk_store_ = own_chunk_store ? std::move(options_.chunk_location.store) : store_;
  chunk_path_ = own_chunk_store ? options_.chunk_location.path : path_;
  chunk_store_identity_ = chunk_store_->identity();
  variable_length_ = meta_.codecs.decoded().dtype.is_variable_length();
  meta_.codecs.limit_open_sizes(chunk_store_->value_limit());
  std::optional<std::string> v3 = meta_.dtype.v3_name();
  data_type_name_ = v3 ? *v3 : meta_.dtype.to_v2_json();
  // For variable-length elements the fill "item" is the fill value's bytes.
  fill_item_ = variable_length_ ? meta_.codecs.decoded().fill_item : meta_.fill_item();
  if (options_.cache_bytes > 0 && !variable_length_) cache_ = std::make_unique<ChunkCache>(options_.cache_bytes);
}

std::unique_ptr<Array> Array::open(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                   const ArrayOptions& options) {
  NodeInfo node = node_info(*store, path, options.zarr_format);
  const std::string key = path::join(path, node.metadata_key);
  switch (node.kind) {
    case NodeKind::Array: {
      std::string text = ByteView(*store->get(key)).to_string();
      ArrayMetadata meta = node.zarr_format == 3 ? parse_v3_array_metadata(text, key) : parse_v2_array_metadata(text, key);
      return std::unique_ptr<Array>(new Array(std::move(store), path, writable, options, std::move(meta)));
    }
    case NodeKind::LegacyV1Array: {
      if (writable) {
        fail(ZARR_ERR_READ_ONLY, "array " + describe_node(*store, path) +
                                     " is a legacy Zarr v1 array: open it with mode \"r\", or migrate it "
                                     "to v2 with zarr_migrate_v1_to_v2");
      }
      std::string text = ByteView(*store->get(key)).to_string();
      ArrayMetadata meta = parse_v1_array_metadata(text, key);
      std::unique_ptr<Array> array(new Array(std::move(store), path, false, options, std::move(meta)));
      array->legacy_metadata_ = std::move(text);
      return array;
    }
    case NodeKind::Group:
      fail(ZARR_ERR_NOT_FOUND, "no array at " + describe_node(*store, path) + ": it is a group");
    case NodeKind::None:
      break;
  }
  static const char* const kLookedFor[] = {".zarray or zarr.json", "meta", ".zarray", "zarr.json"};
  fail(ZARR_ERR_NOT_FOUND,
       "no array at " + describe_node(*store, path) + " (no " + kLookedFor[options.zarr_format] + " key)");
}

int metadata_document_format(const std::string& metadata_json, const std::string& where) {
  // A v3 document says zarr_format 3, or uses v3's member names.
  rapidjson::Document doc = json::parse_object(metadata_json, where);
  const rapidjson::Value* format = json::find(doc, "zarr_format");
  if (format && format->IsInt() && format->GetInt() == 3) return 3;
  if (!format && (json::find(doc, "data_type") || json::find(doc, "node_type"))) return 3;
  return 2;
}

std::unique_ptr<Array> Array::create(std::shared_ptr<Store> store, const std::string& path,
                                     const std::string& metadata_json, const ArrayOptions& options) {
  const std::string where = "metadata for " + describe_node(*store, path);
  const int format = metadata_document_format(metadata_json, where);
  if (options.zarr_format != 0 && options.zarr_format != format) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'zarr_format' is " + std::to_string(options.zarr_format) +
                                        " but the metadata document is Zarr v" + std::to_string(format));
  }
  ArrayMetadata meta = format == 3 ? parse_v3_array_metadata_for_create(metadata_json, where)
                                   : parse_v2_array_metadata_for_create(metadata_json, where);
  validate_node_names(path, format, where);
  require_absent(*store, path);
  create_parent_groups(*store, path, format);
  std::unique_ptr<Array> array(new Array(std::move(store), path, true, options, std::move(meta)));
  array->write_metadata();
  return array;
}

std::unique_ptr<Array> Array::assume(std::shared_ptr<Store> store, const std::string& path, bool writable,
                                     const std::string& metadata_json, const ArrayOptions& options,
                                     const std::string& reason) {
  const std::string where = "metadata assumed for " + describe_node(*store, path);
  const int format = metadata_document_format(metadata_json, where);
  ArrayMetadata meta = format == 3 ? parse_v3_array_metadata_for_create(metadata_json, where)
                                   : parse_v2_array_metadata_for_create(metadata_json, where);
  std::unique_ptr<Array> array(new Array(std::move(store), path, writable, options, std::move(meta)));
  array->metadata_assumed_ = reason;
  return array;
}

std::vector<uint64_t> Array::shape() const {
  std::shared_lock lock(shape_mutex_);
  return meta_.shape;
}

void Array::require_writable(const char* operation) const {
  if (!writable_) {
    fail(ZARR_ERR_READ_ONLY, std::string("cannot ") + operation + " array " + describe_node(*store_, path_) +
                                 ": it was opened read-only");
  }
}

void Array::check_bounds(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count) const {
  const std::string where = "array " + describe_node(*store_, path_);
  for (size_t d = 0; d < ndim(); ++d) {
    if (!run_inside(start[d], count[d], meta_.shape[d])) {
      fail(ZARR_ERR_OUT_OF_BOUNDS, where + ": region start " + shape_text(start) + " count " + shape_text(count) +
                                       " lies outside shape " + shape_text(meta_.shape) + " on dimension " +
                                       std::to_string(d));
    }
  }
}

Array::CheckedRegion Array::check_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                        size_t nbytes, const int64_t* strides) const {
  const std::string where = "array " + describe_node(*store_, path_);
  if (variable_length_) {
    fail(ZARR_ERR_UNSUPPORTED, where + " holds variable-length elements: use zarr_read_region_vlen / "
                                       "zarr_write_region_vlen");
  }
  check_bounds(start, count);
  const std::optional<size_t> bytes =
      byte_count(checked_product(count, "region", ZARR_ERR_INVALID_ARGUMENT), item_size());
  if (!strides) {
    if (bytes != nbytes) {
      fail(ZARR_ERR_BUFFER_SIZE, where + ": buffer is " + std::to_string(nbytes) + " bytes but region " +
                                     shape_text(count) + " of " + std::to_string(item_size()) +
                                     "-byte items needs " + byte_count_text(bytes));
    }
    return {c_order_strides(count, item_size()), *bytes};
  }
  std::vector<int64_t> s(strides, strides + ndim());
  int64_t lowest = 0, end = 0;
  if (!strided_extent(count, item_size(), s, lowest, end) || lowest < 0 ||
      static_cast<uint64_t>(end) > nbytes) {
    fail(ZARR_ERR_BUFFER_SIZE, where + ": byte strides reach outside the " + std::to_string(nbytes) +
                                   "-byte buffer for region " + shape_text(count));
  }
  return {std::move(s), bytes.value_or(UINT64_MAX)};
}

std::string Array::chunk_key(const std::vector<uint64_t>& chunk_coords) const {
  return path::join(chunk_path_, zarr::chunk_key(chunk_coords, meta_.key_encoding));
}

std::vector<int64_t> Array::chunk_strides() const { return c_order_strides(meta_.chunks, item_size()); }

Bytes Array::decode_chunk(ByteView stored, const std::string& key) const { return meta_.codecs.decode(stored, key); }

uint64_t Array::chunk_read_limit() const {
  return meta_.codecs.max_stored_size().value_or(chunk_store_->value_limit());
}

EncodedChunk Array::encode_chunk(Bytes chunk) const { return meta_.codecs.encode(std::move(chunk)); }

Bytes Array::filled_chunk() const {
  Bytes chunk(meta_.chunk_bytes());
  strided_fill({chunk.size() / item_size()}, fill_item_, chunk.data(), {static_cast<int64_t>(item_size())});
  return chunk;
}

bool Array::is_fill_everywhere(const uint8_t* chunk, size_t size) const {
  // A null fill value has no value to compare with: zarr-python stores every chunk.
  if (!meta_.fill_value) return false;
  const size_t item = item_size();
  const DTypeKind kind = meta_.dtype.kind();
  const size_t float_size = kind == DTypeKind::Float ? item : kind == DTypeKind::Complex ? item / 2 : 0;
  for (size_t off = 0; off < size; off += item) {
    bool same = float_size ? float_item_matches(chunk + off, fill_item_.data(), item, float_size)
                           : std::memcmp(chunk + off, fill_item_.data(), item) == 0;
    if (!same) return false;
  }
  return true;
}

// One table for the whole process, keyed by where the chunk is stored: two
// handles on the same array (opened separately, even through different
// URL spellings) serialise their read-modify-writes of a chunk too.
std::mutex& Array::chunk_lock(const std::string& key) const {
  static std::array<std::mutex, 1024> stripes;
  return stripes[std::hash<std::string>{}(path::join(chunk_store_identity_, key)) % stripes.size()];
}

Array::KeyWriteLock::KeyWriteLock(const Array& array, const std::string& key)
    : in_process(array.chunk_lock(key)) {
  // Store keys are '/'-separated hierarchy paths without '..', so the lock
  // files mirror the array's layout inside the lock folder, outside the store.
  const std::string& folder = array.options_.process_lock_dir;
  if (!folder.empty()) across_processes.emplace(folder + "/" + key + ".lock");
}

void Array::read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, void* out,
                        size_t nbytes, const int64_t* strides) {
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  CheckedRegion region = check_region(start, count, nbytes, strides);
  const RegionTarget target{static_cast<uint8_t*>(out), std::move(region.strides), chunk_strides(),
                            region.bytes >= kStreamingRegionBytes ? Stores::Streaming : Stores::Cached};
  ChunkGrid grid(meta_.shape, meta_.chunks);
  naming_out_of_memory("reading", count, [&] {
    if (chunk_store_->fetches_concurrently() && !meta_.codecs.partial_reads()) {
      // Remote stores: the store fetches a batch of chunks at once (many
      // requests in flight), the pool decodes them.
      for_each_overlap_batch(grid, start, count, read_batch_size(),
                             [&](const std::vector<ChunkOverlap>& batch) { read_chunk_batch(batch, target); });
      return;
    }
    // Each chunk is a task of its own: its part of the region is disjoint
    // from every other chunk's.
    for_each_overlap_batch(grid, start, count, kOverlapsPerBatch, [&](const std::vector<ChunkOverlap>& batch) {
      parallel_for(batch.size(), [&](size_t i) { read_chunk(batch[i], target); });
    });
  });
}

// The chunk buffers are what a region read or write allocates; when they
// cannot be had, the chunk size is what the caller needs to know.
// Variable-length elements are held one view (16 bytes) per element.
void Array::fail_out_of_memory(const char* operation, const std::vector<uint64_t>& count) const {
  const std::string chunks = variable_length_
                                 ? std::to_string(ChunkGrid(meta_.shape, meta_.chunks).chunk_elements()) +
                                       " variable-length elements"
                                 : std::to_string(meta_.chunk_bytes()) + " bytes decoded";
  fail(ZARR_ERR_NO_MEMORY, "array " + describe_node(*store_, path_) + ": out of memory " + operation + " region " +
                               shape_text(count) + ", with chunks of " + chunks);
}

void Array::read_chunk(const ChunkOverlap& ov, const RegionTarget& target) const {
  if (caches_chunks()) {
    read_chunk_through_cache(ov, target);
  } else if (!meta_.codecs.partial_reads()) {
    read_whole_chunk(ov, target);
  } else if (ov.covers_chunk) {
    read_whole_shard(ov, target);
  } else {
    // Sharded, in part: fetch the index and only the inner chunks this part needs.
    uint8_t* dst = target.base + byte_offset(ov.region_offset, target.strides);
    if (!read_chunk_part(chunk_key(ov.chunk_coords), ov, dst, target.strides, target.stores)) fill_overlap(ov, target);
  }
}

bool Array::caches_chunks() const { return cache_ && meta_.chunk_bytes() <= options_.cache_bytes; }

bool Array::read_cached(const std::string& key, const ChunkOverlap& ov, const RegionTarget& target) const {
  std::optional<ChunkCache::Entry> cached = cache_->find(key);
  if (!cached) return false;
  if (*cached) {
    copy_out((*cached)->data(), ov, target);
  } else {
    fill_overlap(ov, target);
  }
  return true;
}

// A miss costs one get of the whole chunk (or shard) and a decode of all of
// it, even for a small part: the next reads of any part are then free.
void Array::read_chunk_through_cache(const ChunkOverlap& ov, const RegionTarget& target) const {
  const std::string key = chunk_key(ov.chunk_coords);
  if (read_cached(key, ov, target)) return;
  const uint64_t generation = cache_->generation();
  decode_and_cache(chunk_store_->get(key, chunk_read_limit()), key, generation, ov, target);
}

void Array::decode_and_cache(const std::optional<Bytes>& stored, const std::string& key, uint64_t generation,
                             const ChunkOverlap& ov, const RegionTarget& target) const {
  ChunkCache::Entry chunk;
  if (stored) {
    chunk = std::make_shared<const Bytes>(decode_chunk(*stored, key));
    copy_out(chunk->data(), ov, target);
  } else {
    fill_overlap(ov, target);
  }
  cache_->put(key, std::move(chunk), generation);
}

void Array::forget_cached(const std::string& key) const {
  if (meta_.codecs.partial_reads()) shard_indexes_.forget(key);
  if (cache_) cache_->forget(key);
}

// A shard the region covers: one read into the thread's scratch (a single
// get, so no lock is needed to pair its index with its inner chunks), then
// its inner chunks decoded in parallel.
void Array::read_whole_shard(const ChunkOverlap& ov, const RegionTarget& target) const {
  const std::string key = chunk_key(ov.chunk_coords);
  ChunkScratch& scratch = thread_scratch();
  uint8_t* landed = nullptr;
  std::optional<size_t> size =
      chunk_store_->get_into(key, chunk_read_limit(), [&](size_t n) { return landed = scratch.stored.reserve(n); });
  if (!size) {
    fill_overlap(ov, target);
    return;
  }
  try {
    meta_.codecs.array_to_bytes()->decode_box(ByteView(landed, *size), meta_.codecs.decoded(), ov.chunk_offset,
                                              ov.count, target.base + byte_offset(ov.region_offset, target.strides),
                                              target.strides, target.stores);
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
  scratch.release_above(kScratchKeepLimit);
}

// Enough chunks to keep a remote store busy, few enough that their stored
// bytes (about a decoded chunk each at most, as a rule) stay near 64 MiB.
size_t Array::read_batch_size() const {
  constexpr uint64_t kBatchBytes = uint64_t(64) << 20;
  constexpr uint64_t kMaxChunks = 64;
  const uint64_t chunk_bytes = std::max<uint64_t>(1, meta_.chunk_bytes());
  return static_cast<size_t>(std::clamp<uint64_t>(kBatchBytes / chunk_bytes, 1, kMaxChunks));
}

void Array::read_chunk_batch(const std::vector<ChunkOverlap>& all, const RegionTarget& target) const {
  std::vector<ChunkOverlap> overlaps;  // those the cache does not have
  std::vector<std::string> keys;
  for (const ChunkOverlap& ov : all) {
    std::string key = chunk_key(ov.chunk_coords);
    if (caches_chunks() && read_cached(key, ov, target)) continue;
    overlaps.push_back(ov);
    keys.push_back(std::move(key));
  }
  if (overlaps.empty()) return;
  const uint64_t generation = cache_ ? cache_->generation() : 0;
  std::vector<std::optional<Bytes>> stored = chunk_store_->get_many(keys, chunk_read_limit());
  parallel_for(overlaps.size(), [&](size_t i) {
    if (caches_chunks()) {
      decode_and_cache(stored[i], keys[i], generation, overlaps[i], target);
    } else if (!stored[i]) {
      fill_overlap(overlaps[i], target);
    } else {
      place_chunk(*stored[i], keys[i], overlaps[i], target);
    }
    stored[i].reset();  // the stored bytes are not needed once decoded
  });
}

void Array::fill_overlap(const ChunkOverlap& ov, const RegionTarget& target) const {
  strided_fill(ov.count, fill_item_, target.base + byte_offset(ov.region_offset, target.strides), target.strides);
}

// True when the overlap is a whole chunk whose elements lie in the region's
// buffer exactly as in a C-order chunk: it can be decoded right there.
bool Array::lands_contiguously(const ChunkOverlap& ov, const RegionTarget& target) const {
  for (size_t d = 0; d < ndim(); ++d) {
    if (ov.count[d] != meta_.chunks[d]) return false;
    if (ov.count[d] > 1 && target.strides[d] != target.chunk_strides[d]) return false;
  }
  return true;
}

void Array::read_whole_chunk(const ChunkOverlap& ov, const RegionTarget& target) const {
  const std::string key = chunk_key(ov.chunk_coords);
  const CodecChain& chain = meta_.codecs;
  ChunkScratch& scratch = thread_scratch();
  // Chunks stored as they are laid out in memory (no compressor) are read
  // straight into the region when they fit there, else into scratch.
  const bool stored_as_laid_out = chain.decodes_into() && chain.bytes_to_bytes().empty();
  uint8_t* const in_region = target.base + byte_offset(ov.region_offset, target.strides);
  const bool read_in_region = stored_as_laid_out && lands_contiguously(ov, target);
  // The kernel's copy into scattered rows cannot stream: for a large region,
  // reading a chunk it covers in cache-sized pieces and streaming their rows
  // into place is faster. Part of a chunk is still read alone into its rows.
  const bool stream_from_scratch = target.stores == Stores::Streaming && ov.covers_chunk;
  if (!read_in_region && chain.stores_native_layout() &&
      (stream_from_scratch ? read_in_pieces(key, ov, target) : read_scattered(key, ov, target))) {
    return;
  }
  uint8_t* landed = nullptr;
  std::optional<size_t> size = chunk_store_->get_into(key, chunk_read_limit(), [&](size_t n) {
    landed = read_in_region && n == meta_.chunk_bytes() ? in_region : scratch.stored.reserve(n);
    return landed;
  });
  if (!size) {
    fill_overlap(ov, target);
  } else if (stored_as_laid_out) {
    chain.decode_stored_in_place(landed, *size, key);
    if (landed != in_region) copy_out(landed, ov, target);
  } else {
    place_chunk(ByteView(landed, *size), key, ov, target);
  }
  scratch.release_above(kScratchKeepLimit);
}

// Copies a chunk handed over in pieces into its part of the region.
PieceScatter Array::piece_scatter(const ChunkOverlap& ov, const RegionTarget& target) const {
  return PieceScatter(target.chunk_strides, ov.chunk_offset, ov.count, item_size(),
                      target.base + byte_offset(ov.region_offset, target.strides), target.strides, target.stores);
}

// A compressed chunk of a large region whose codec decodes block by block
// (blosc): each block streamed into its rows while still in the cache,
// instead of the whole chunk decoded into scratch and read back from memory
// (W2b of docs/performance.md). False when the codec decodes whole.
bool Array::place_in_pieces(ByteView stored, const std::string& key, const ChunkOverlap& ov,
                            const RegionTarget& target) const {
  PieceScatter scatter = piece_scatter(ov, target);
  if (!scatter.usable()) return false;
  const bool placed = meta_.codecs.decode_in_pieces(
      stored, key, [&](const uint8_t* data, uint64_t offset, size_t n) { scatter.put(data, offset, n); });
  scatter.finish();
  return placed;
}

// An uncompressed chunk a large region covers, read in pieces small enough to
// stay in the cache and streamed from there into its rows: the kernel's copy
// lands in the cache instead of memory (W1 of docs/performance.md). False when
// the region's rows are single elements (then the chunk is read whole).
bool Array::read_in_pieces(const std::string& key, const ChunkOverlap& ov, const RegionTarget& target) const {
  PieceScatter scatter = piece_scatter(ov, target);
  if (!scatter.usable()) return false;
  uint8_t* buffer = thread_scratch().stored.reserve(kReadPieceBytes);
  std::optional<size_t> size =
      chunk_store_->get_in_pieces(key, meta_.chunk_bytes(), buffer, kReadPieceBytes,
                                  [&](const uint8_t* data, uint64_t offset, size_t n) { scatter.put(data, offset, n); });
  scatter.finish();
  if (!size) {
    fill_overlap(ov, target);
  } else {
    meta_.codecs.check_stored_size(*size, key);
  }
  return true;
}

// An uncompressed chunk whose part of the region is not one block: its rows
// read by the store straight into place (one copy). False when the region's
// layout would make the rows single elements (then the caller reads the
// chunk into scratch instead).
bool Array::read_scattered(const std::string& key, const ChunkOverlap& ov, const RegionTarget& target) const {
  const std::vector<Store::Piece> pieces = scatter_pieces(ov, target);
  if (pieces.empty()) return false;
  std::optional<size_t> size = chunk_store_->get_scattered(key, meta_.chunk_bytes(), pieces);
  if (!size) {
    fill_overlap(ov, target);
  } else {
    meta_.codecs.check_stored_size(*size, key);
  }
  return true;
}

// The overlap as the rows (runs of bytes) it has in both the stored chunk
// (C order) and the region, in increasing order of offset in the chunk.
// Empty when the rows would be single elements.
std::vector<Store::Piece> Array::scatter_pieces(const ChunkOverlap& ov, const RegionTarget& target) const {
  const BoxRows rows(ov.count, item_size(), target.chunk_strides, target.strides);
  std::vector<Store::Piece> pieces;
  if (!rows.contiguous()) return pieces;
  const uint64_t box_begin = static_cast<uint64_t>(byte_offset(ov.chunk_offset, target.chunk_strides));
  uint8_t* const box_dst = target.base + byte_offset(ov.region_offset, target.strides);
  rows.for_each([&](int64_t in_chunk, int64_t in_region) {
    pieces.push_back({box_begin + static_cast<uint64_t>(in_chunk), box_dst + in_region, rows.row_bytes()});
  });
  return pieces;
}

void Array::place_chunk(ByteView stored, const std::string& key, const ChunkOverlap& ov,
                        const RegionTarget& target) const {
  const CodecChain& chain = meta_.codecs;
  if (!chain.decodes_into()) {
    copy_out(decode_chunk(stored, key).data(), ov, target);
    return;
  }
  if (lands_contiguously(ov, target)) {
    chain.decode_into(stored, target.base + byte_offset(ov.region_offset, target.strides), key);
    return;
  }
  if (target.stores == Stores::Streaming && ov.covers_chunk && chain.may_decode_in_pieces() &&
      place_in_pieces(stored, key, ov, target)) {
    return;
  }
  ScratchBuffer& decoded = thread_scratch().decoded;
  chain.decode_into(stored, decoded.reserve(meta_.chunk_bytes()), key);
  copy_out(decoded.data(), ov, target);
}

void Array::copy_out(const uint8_t* chunk, const ChunkOverlap& ov, const RegionTarget& target) const {
  strided_copy(ov.count, item_size(), chunk + byte_offset(ov.chunk_offset, target.chunk_strides),
               target.chunk_strides, target.base + byte_offset(ov.region_offset, target.strides), target.strides,
               target.stores);
}

// A shard replaced by another writer between the reads of one part (or
// since its index was kept) is read again; after kShardReadAttempts such
// reads in a row it is read whole, in one request.
constexpr int kShardReadAttempts = 3;

bool Array::read_chunk_part(const std::string& key, const ChunkOverlap& ov, uint8_t* dst,
                            const std::vector<int64_t>& dst_strides, Stores stores) const {
  // A writer in this process replaces the shard under this lock: hold it so
  // that stores which cannot tell versions never pair an old index with new bytes.
  std::lock_guard<std::mutex> chunk_guard(chunk_lock(key));
  try {
    for (int attempt = 0; attempt < kShardReadAttempts; ++attempt) {
      try {
        return read_shard_part(key, ov, dst, dst_strides, stores);
      } catch (const ShardChanged&) {
        shard_indexes_.forget(key);  // so the next attempt reads the index afresh
      }
    }
    std::optional<Bytes> whole = chunk_store_->get(key, chunk_read_limit());
    if (!whole) return false;
    meta_.codecs.array_to_bytes()->decode_box(ByteView(whole->data(), whole->size()), meta_.codecs.decoded(),
                                              ov.chunk_offset, ov.count, dst, dst_strides, stores);
    return true;
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
}

bool Array::read_shard_part(const std::string& key, const ChunkOverlap& ov, uint8_t* dst,
                            const std::vector<int64_t>& dst_strides, Stores stores) const {
  const auto& codec = meta_.codecs.array_to_bytes();
  ShardPartRead part(*chunk_store_, key, chunk_read_limit(), codec->locating_request(), &shard_indexes_,
                     cache_ != nullptr);
  const bool found = codec->partial_decode(part.reader(), meta_.codecs.decoded(), ov.chunk_offset, ov.count, dst,
                                           dst_strides, stores);
  part.keep_index();
  return found;
}

void Array::write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, const void* data,
                         size_t nbytes, const int64_t* strides) {
  require_writable("write to");
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  const RegionSource source{static_cast<const uint8_t*>(data), check_region(start, count, nbytes, strides).strides,
                            chunk_strides()};
  ChunkGrid grid(meta_.shape, meta_.chunks);
  // Each chunk is a task of its own, atomic as before: a failure leaves
  // every chunk either as it was or wholly written.
  naming_out_of_memory("writing", count, [&] {
    for_each_overlap_batch(grid, start, count, kOverlapsPerBatch, [&](const std::vector<ChunkOverlap>& batch) {
      parallel_for(batch.size(), [&](size_t i) { write_chunk(batch[i], source); });
    });
  });
}

void Array::write_chunk(const ChunkOverlap& ov, const RegionSource& source) {
  if (!meta_.codecs.decodes_into()) {
    write_chunk_through_copies(ov, source);
    return;
  }
  const std::string key = chunk_key(ov.chunk_coords);
  const KeyWriteLock held(*this, key);
  // The chunk is built in the thread's scratch, and encoded into its other
  // scratch buffer: no chunk-sized allocation per chunk.
  ChunkScratch& scratch = thread_scratch();
  const size_t chunk_bytes = meta_.chunk_bytes();
  uint8_t* chunk = scratch.decoded.reserve(chunk_bytes);
  if (!overwrites_every_element(ov)) {
    // A chunk only partly overwritten keeps its other elements: read it first
    // (edge chunks: the part outside the array gets the fill value).
    std::optional<size_t> size;
    if (!ov.covers_chunk) {
      size = chunk_store_->get_into(key, chunk_read_limit(), [&](size_t n) { return scratch.stored.reserve(n); });
    }
    if (size) {
      meta_.codecs.decode_into(ByteView(scratch.stored.data(), *size), chunk, key);
    } else {
      strided_fill({chunk_bytes / item_size()}, fill_item_, chunk, {static_cast<int64_t>(item_size())});
    }
  }
  strided_copy(ov.count, item_size(), source.base + byte_offset(ov.region_offset, source.strides), source.strides,
               chunk + byte_offset(ov.chunk_offset, source.chunk_strides), source.chunk_strides);
  if (!options_.write_empty_chunks && is_fill_everywhere(chunk, chunk_bytes)) {
    chunk_store_->erase(key);
  } else {
    Bytes keep;
    chunk_store_->set(key, meta_.codecs.encode_from(chunk, scratch.stored, keep));
  }
  forget_cached(key);
  scratch.release_above(kScratchKeepLimit);
}

bool Array::overwrites_every_element(const ChunkOverlap& ov) const {
  for (size_t d = 0; d < ndim(); ++d) {
    if (ov.count[d] != meta_.chunks[d]) return false;
  }
  return true;
}

// Chains with an array->array codec (transpose) or variable-length elements:
// chunks as Bytes through the whole chain.
void Array::write_chunk_through_copies(const ChunkOverlap& ov, const RegionSource& source) {
  const std::string key = chunk_key(ov.chunk_coords);
  const KeyWriteLock held(*this, key);
  std::optional<Bytes> stored = ov.covers_chunk ? std::nullopt : chunk_store_->get(key, chunk_read_limit());
  Bytes chunk = stored ? decode_chunk(*stored, key) : filled_chunk();
  stored.reset();
  strided_copy(ov.count, item_size(), source.base + byte_offset(ov.region_offset, source.strides), source.strides,
               chunk.data() + byte_offset(ov.chunk_offset, source.chunk_strides), source.chunk_strides);
  if (!options_.write_empty_chunks && is_fill_everywhere(chunk.data(), chunk.size())) {
    chunk_store_->erase(key);
  } else {
    chunk_store_->set(key, encode_chunk(std::move(chunk)).view());
  }
  forget_cached(key);
}

std::string Array::serialized_metadata() const {
  return meta_.zarr_format == 3 ? serialize_v3_array_metadata(meta_) : serialize_v2_array_metadata(meta_);
}

void Array::write_metadata() {
  if (metadata_assumed_) {
    fail(ZARR_ERR_UNSUPPORTED, "array " + describe_node(*store_, path_) + " was opened with " + *metadata_assumed_ +
                                   ": its stored metadata is never read, so it cannot be changed");
  }
  store_->set(path::join(path_, meta_.zarr_format == 3 ? kV3MetadataKey : kV2ArrayKey), serialized_metadata());
}

void Array::erase_chunks_outside(const std::vector<uint64_t>& shape) {
  ChunkGrid grid(shape, meta_.chunks);
  const std::string prefix = chunk_path_.empty() ? "" : chunk_path_ + "/";
  std::vector<uint64_t> coords;
  for (const std::string& key : chunk_store_->list_prefix(prefix)) {
    const std::string local = key.substr(prefix.size());
    if (parse_chunk_key(local, meta_.key_encoding, ndim(), coords) && !grid.contains_chunk(coords)) {
      chunk_store_->erase(key);
    }
  }
}

void Array::resize(const std::vector<uint64_t>& new_shape) {
  require_writable("resize");
  std::unique_lock lock(shape_mutex_);
  // A shape that cannot be represented is refused before anything changes.
  validate_shape(new_shape, meta_.dtype, "array " + describe_node(*store_, path_) + ": new shape " + shape_text(new_shape),
                 ZARR_ERR_INVALID_ARGUMENT);
  std::vector<uint64_t> old_shape = meta_.shape;
  meta_.shape = new_shape;
  try {
    write_metadata();
  } catch (...) {
    meta_.shape = std::move(old_shape);
    throw;
  }
  erase_chunks_outside(new_shape);
  if (cache_) cache_->forget_all();
  shard_indexes_.forget_all();
}

void Array::append(size_t axis, const std::vector<uint64_t>& count, const void* data, size_t nbytes) {
  require_writable("append to");
  const std::string where = "array " + describe_node(*store_, path_) + ": append: ";
  std::vector<uint64_t> old_shape = shape();
  if (axis >= old_shape.size()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + "axis " + std::to_string(axis) + " is not below the array's " +
                                        std::to_string(old_shape.size()) + " dimensions");
  }
  for (size_t d = 0; d < old_shape.size(); ++d) {
    if (d != axis && count[d] != old_shape[d]) {
      fail(ZARR_ERR_INVALID_ARGUMENT, where + "count " + shape_text(count) + " must equal the array shape " +
                                          shape_text(old_shape) + " on every axis but " + std::to_string(axis));
    }
  }
  std::vector<uint64_t> grown = old_shape;
  const std::optional<uint64_t> grown_extent = checked_add(grown[axis], count[axis]);
  if (!grown_extent) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + std::to_string(count[axis]) + " more along axis " + std::to_string(axis) +
                                        " would take the shape " + shape_text(old_shape) + " past 2^64 - 1");
  }
  grown[axis] = *grown_extent;
  // Check the buffer and the new shape before changing anything, so a bad
  // call leaves no trace.
  const std::optional<size_t> bytes =
      byte_count(checked_product(count, "append count", ZARR_ERR_INVALID_ARGUMENT), item_size());
  if (bytes != nbytes) {
    fail(ZARR_ERR_BUFFER_SIZE, where + "buffer is " + std::to_string(nbytes) + " bytes but " + shape_text(count) +
                                   " items need " + byte_count_text(bytes));
  }
  validate_shape(grown, meta_.dtype, where + "new shape " + shape_text(grown), ZARR_ERR_INVALID_ARGUMENT);
  resize(grown);
  std::vector<uint64_t> start(old_shape.size(), 0);
  start[axis] = old_shape[axis];
  write_region(start, count, data, nbytes, nullptr);
}

std::string Array::metadata_json() const {
  if (meta_.zarr_format == 1) return legacy_metadata_;  // v1 handles are read-only: the stored text holds
  std::shared_lock lock(shape_mutex_);
  return serialized_metadata();
}

std::string Array::attributes_json() const {
  std::shared_lock lock(shape_mutex_);
  if (meta_.zarr_format == 3) return meta_.attributes_json;
  std::lock_guard<std::mutex> cached(attributes_mutex_);
  if (!attributes_) {
    attributes_ = read_attributes(*store_, path::join(path_, meta_.zarr_format == 1 ? kV1AttrsKey : kV2AttrsKey));
  }
  return *attributes_;
}

void Array::set_attributes(const std::string& json_text) {
  require_writable("set attributes of");
  std::unique_lock lock(shape_mutex_);
  if (meta_.zarr_format != 3) {
    std::string written = write_attributes(*store_, path::join(path_, kV2AttrsKey), json_text);
    std::lock_guard<std::mutex> cached(attributes_mutex_);
    attributes_ = std::move(written);
    return;
  }
  // v3 keeps attributes inside zarr.json.
  rapidjson::Document doc = json::parse_object(json_text, "attributes for array " + describe_node(*store_, path_));
  std::string previous = std::move(meta_.attributes_json);
  meta_.attributes_json = json::to_string(doc);
  try {
    write_metadata();
  } catch (...) {
    meta_.attributes_json = std::move(previous);
    throw;
  }
}

const std::vector<std::optional<std::string>>& Array::dimension_names() const { return meta_.dimension_names; }

}  // namespace zarr
