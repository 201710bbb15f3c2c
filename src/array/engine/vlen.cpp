// The engine's region I/O of variable-length elements (strings, bytes).
// Decoded chunks are vlen::ChunkView buffers; regions cross the C API as one
// data buffer plus offsets, so no element is ever allocated on its own.
#include <cstring>
#include <string_view>

#include "array/engine/chunk_engine.h"
#include "base/error.h"
#include "codecs/vlen_codecs.h"

namespace zarr {

namespace {

// Calls visit(chunk_index, region_index) for every element of an overlap:
// C-order linear indices inside the chunk and inside the region.
template <typename Visit>
void for_each_element(const ChunkOverlap& ov, const std::vector<uint64_t>& chunk_shape,
                      const std::vector<uint64_t>& region_shape, Visit visit) {
  const size_t n = ov.count.size();
  std::vector<uint64_t> i(n, 0);
  while (true) {
    uint64_t in_chunk = 0, in_region = 0;
    for (size_t d = 0; d < n; ++d) {
      in_chunk = in_chunk * chunk_shape[d] + ov.chunk_offset[d] + i[d];
      in_region = in_region * region_shape[d] + ov.region_offset[d] + i[d];
    }
    visit(static_cast<size_t>(in_chunk), static_cast<size_t>(in_region));
    size_t d = n;
    while (d > 0 && ++i[d - 1] == ov.count[d - 1]) i[--d] = 0;
    if (d == 0) return;
  }
}

// The region's elements one after another into data, their bounds into
// offsets; ZARR_ERR_BUFFER_SIZE (after *data_size is set) when they do not fit.
void hand_out(const std::vector<std::string_view>& items, uint64_t* offsets, uint8_t* data, size_t capacity,
              size_t* data_size, const std::string& where) {
  size_t total = 0;
  for (auto item : items) total += item.size();
  if (data_size) *data_size = total;
  if (capacity < total) {
    fail(ZARR_ERR_BUFFER_SIZE, where + ": data buffer is " + std::to_string(capacity) + " bytes, the region's " +
                                   "elements need " + std::to_string(total));
  }
  uint64_t off = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    offsets[i] = off;
    if (!items[i].empty()) std::memcpy(data + off, items[i].data(), items[i].size());
    off += items[i].size();
  }
  offsets[items.size()] = off;
}

}  // namespace

void ChunkEngine::read_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                   uint64_t* offsets, uint8_t* data, size_t capacity, size_t* data_size,
                                   const std::string& where) const {
  // Every element starts as the fill value; chunks present overwrite theirs.
  const std::string_view fill(reinterpret_cast<const char*>(fill_item_.data()), fill_item_.size());
  ChunkGrid grid(meta_.shape, meta_.chunks);
  uint64_t elements = 1;  // the caller checked that the product fits
  for (uint64_t extent : count) elements *= extent;
  std::vector<std::string_view> items(static_cast<size_t>(elements), fill);
  std::vector<Bytes> decoded;  // keeps the chunks the views point into
  const uint64_t per_chunk = grid.chunk_elements();
  grid.for_each_overlap(start, count, [&](const ChunkOverlap& ov) {
    const std::string key = chunk_key(ov.chunk_coords);
    std::optional<Bytes> stored = chunk_store_->get(key, chunk_read_limit());
    if (!stored) return;
    // A shard decodes only the inner chunks the overlap needs.
    decoded.push_back(ov.covers_chunk ? decode_chunk(*stored, key)
                                      : meta_.codecs.decode_part(*stored, key, ov.chunk_offset, ov.count));
    vlen::ChunkView chunk(decoded.back(), per_chunk);
    for_each_element(ov, meta_.chunks, count, [&](size_t c, size_t r) { items[r] = chunk.item(c); });
  });
  hand_out(items, offsets, data, capacity, data_size, where);
}

void ChunkEngine::write_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                    const uint64_t* offsets, const uint8_t* data) {
  auto element = [&](size_t i) {
    return std::string_view(reinterpret_cast<const char*>(data) + offsets[i],
                            static_cast<size_t>(offsets[i + 1] - offsets[i]));
  };
  const std::string_view fill(reinterpret_cast<const char*>(fill_item_.data()), fill_item_.size());
  ChunkGrid grid(meta_.shape, meta_.chunks);
  const uint64_t per_chunk = grid.chunk_elements();
  grid.for_each_overlap(start, count, [&](const ChunkOverlap& ov) {
    const std::string key = chunk_key(ov.chunk_coords);
    const KeyWriteLock held(*this, key);
    // Elements this write does not cover keep what the chunk holds.
    std::optional<Bytes> stored = ov.covers_chunk ? std::nullopt : chunk_store_->get(key, chunk_read_limit());
    Bytes old = stored ? decode_chunk(*stored, key) : Bytes{};
    std::vector<std::string_view> items(static_cast<size_t>(per_chunk), fill);
    if (stored) {
      vlen::ChunkView view(old, per_chunk);
      for (size_t i = 0; i < items.size(); ++i) items[i] = view.item(i);
    }
    for_each_element(ov, meta_.chunks, count, [&](size_t c, size_t r) { items[c] = element(r); });
    bool all_fill = true;
    for (auto item : items) all_fill = all_fill && item == fill;
    if (all_fill && !write_empty_chunks_) {
      chunk_store_->erase(key);
    } else {
      chunk_store_->set(key, meta_.codecs.encode(vlen::pack(items)).view());
    }
  });
}

}  // namespace zarr
