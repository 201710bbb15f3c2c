// What every path of the engine shares: the chunk keys, the fill value, the
// chunk locks, forgetting cached chunks (array/engine/chunk_engine.h).
#include "array/engine/chunk_engine.h"

#include <cmath>
#include <cstring>

#include "base/checked_math.h"
#include "base/error.h"
#include "base/path.h"
#include "grid/chunk_grid.h"

namespace zarr {

namespace {

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

}  // namespace

ChunkEngine::ChunkEngine(const ArrayMetadata& meta, std::shared_ptr<Store> chunk_store, std::string chunk_path,
                         const ArrayOptions& options)
    : meta_(meta),
      chunk_store_(std::move(chunk_store)),
      chunk_path_(std::move(chunk_path)),
      chunk_store_identity_(chunk_store_->identity()),
      write_empty_chunks_(options.write_empty_chunks),
      cache_bytes_(options.cache_bytes),
      process_lock_dir_(options.process_lock_dir),
      variable_length_(meta.codecs.decoded().dtype.is_variable_length()),
      // For variable-length elements the fill "item" is the fill value's bytes.
      fill_item_(variable_length_ ? meta.codecs.decoded().fill_item : meta.fill_item()) {
  if (cache_bytes_ > 0 && !variable_length_) cache_ = std::make_unique<ChunkCache>(cache_bytes_);
  // Not owned: meta_ (and so its codecs) outlives the engine.
  largest_form_ = std::make_shared<const ChunkForm>(
      make_form(meta_.chunks, std::shared_ptr<const CodecChain>(&meta_.codecs, [](const CodecChain*) {})));
}

ChunkEngine::~ChunkEngine() = default;

std::string ChunkEngine::chunk_key(const std::vector<uint64_t>& chunk_coords) const {
  return path::join(chunk_path_, zarr::chunk_key(chunk_coords, meta_.key_encoding));
}

ChunkEngine::ChunkForm ChunkEngine::make_form(const std::vector<uint64_t>& shape,
                                              std::shared_ptr<const CodecChain> chain) const {
  ChunkForm form;
  form.shape = shape;
  form.chain = std::move(chain);
  // Variable-length chunks are handled as views of their elements.
  form.strides = c_order_strides(shape, variable_length_ ? sizeof(std::string_view) : item_size());
  form.elements = checked_product(shape, "chunk shape", ZARR_ERR_INVALID_METADATA);
  form.bytes = variable_length_ ? 0 : meta_.chunk_bytes(shape);
  return form;
}

std::shared_ptr<const ChunkEngine::ChunkForm> ChunkEngine::form_of(const ChunkOverlap& ov) const {
  // Rectilinear chunks smaller than the largest have a chain of their own
  // (ArrayMetadata::chain_for keeps one per shape).
  if (!meta_.rectilinear || ov.chunk_shape == meta_.chunks) return largest_form_;
  return std::make_shared<const ChunkForm>(make_form(ov.chunk_shape, meta_.chain_for(ov.chunk_shape)));
}

uint64_t ChunkEngine::chunk_read_limit() const {
  return meta_.codecs.max_stored_size().value_or(chunk_store_->value_limit());
}

Bytes ChunkEngine::decode_chunk(const ChunkForm& form, ByteView stored, const std::string& key) const {
  return form.chain->decode(stored, key);
}

Bytes ChunkEngine::filled_chunk(const ChunkForm& form) const {
  Bytes chunk(form.bytes);
  strided_fill({chunk.size() / item_size()}, fill_item_, chunk.data(), {static_cast<int64_t>(item_size())});
  return chunk;
}

bool ChunkEngine::is_fill_everywhere(const uint8_t* chunk, size_t size) const {
  // A null fill value has no value to compare with: zarr-python stores every chunk.
  if (!meta_.fill_value) return false;
  const size_t item = item_size();
  const DTypeKind kind = meta_.dtype.kind();
  // IEEE halves only: other complex types' NaNs have other bit patterns, and
  // comparing their bits is the safe side (a chunk is stored, not dropped).
  const bool ieee_complex = kind == DTypeKind::Complex && meta_.dtype.complex_component_kind() == DTypeKind::Float;
  const size_t float_size = kind == DTypeKind::Float ? item : ieee_complex ? item / 2 : 0;
  for (size_t off = 0; off < size; off += item) {
    bool same = float_size ? float_item_matches(chunk + off, fill_item_.data(), item, float_size)
                           : std::memcmp(chunk + off, fill_item_.data(), item) == 0;
    if (!same) return false;
  }
  return true;
}

// Keyed by where the chunk is stored (concurrency/key_lock.h): two handles
// on the same array serialise their read-modify-writes of a chunk too.
std::mutex& ChunkEngine::chunk_lock(const std::string& key) const { return key_mutex(chunk_store_identity_, key); }

ChunkEngine::KeyWriteLock::KeyWriteLock(const ChunkEngine& engine, const std::string& key)
    : KeyLock(engine.chunk_store_identity_, key, engine.process_lock_dir_) {}

void ChunkEngine::forget_cached(const std::string& key) const {
  if (meta_.codecs.partial_reads()) shard_indexes_.forget(key);
  if (cache_) cache_->forget(key);
}

void ChunkEngine::forget_all_cached() {
  if (cache_) cache_->forget_all();
  shard_indexes_.forget_all();
}

std::vector<std::string> ChunkEngine::erasable_chunks_outside(const std::vector<uint64_t>& shape) const {
  const ChunkGrid grid = meta_.grid_of(shape);
  const std::string prefix = chunk_path_.empty() ? "" : chunk_path_ + "/";
  std::vector<uint64_t> coords;
  std::vector<std::string> outside;
  for (std::string& key : chunk_store_->list_prefix(prefix)) {
    const std::string local = key.substr(prefix.size());
    if (parse_chunk_key(local, meta_.key_encoding, meta_.ndim(), coords) && !grid.contains_chunk(coords)) {
      chunk_store_->check_erasable(key);
      outside.push_back(std::move(key));
    }
  }
  return outside;
}

void ChunkEngine::erase_chunks(const std::vector<std::string>& keys) {
  // The cache forgets everything also when an erase fails: it may hold a
  // chunk already erased, which must read as the fill value again.
  try {
    for (const std::string& key : keys) chunk_store_->erase(key);
  } catch (...) {
    forget_all_cached();
    throw;
  }
  forget_all_cached();
}

}  // namespace zarr
