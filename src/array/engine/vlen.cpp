// The engine's region I/O of variable-length elements (strings, bytes).
// Decoded chunks are vlen::ChunkView buffers; regions and selections cross
// the C API as one data buffer plus offsets, so no element is ever allocated
// on its own. A region read or write is a selection read or write (a strided
// selection of step 1, array/array_vlen.cpp): one piece of code serves both.
#include <cstring>
#include <string_view>

#include "array/engine/chunk_engine.h"
#include "array/engine/engine_internal.h"
#include "base/error.h"
#include "base/strided_copy.h"
#include "codecs/vlen_codecs.h"
#include "concurrency/thread_pool.h"

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

// The selection's elements one after another into data, their bounds into
// offsets; ZARR_ERR_BUFFER_SIZE (after *data_size is set) when they do not fit.
void hand_out(const std::vector<std::string_view>& items, uint64_t* offsets, uint8_t* data, size_t capacity,
              size_t* data_size, const std::string& where) {
  size_t total = 0;
  for (auto item : items) total += item.size();
  if (data_size) *data_size = total;
  if (capacity < total) {
    fail(ZARR_ERR_BUFFER_SIZE, where + ": data buffer is " + std::to_string(capacity) + " bytes, the " +
                                   "selection's elements need " + std::to_string(total));
  }
  uint64_t off = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    offsets[i] = off;
    if (!items[i].empty()) std::memcpy(data + off, items[i].data(), items[i].size());
    off += items[i].size();
  }
  offsets[items.size()] = off;
}

// A box's element views as the Selection's gather and scatter move them:
// items of sizeof(std::string_view) bytes, C order of the box.
uint8_t* as_items(std::vector<std::string_view>& views) { return reinterpret_cast<uint8_t*>(views.data()); }
const uint8_t* as_items(const std::vector<std::string_view>& views) {
  return reinterpret_cast<const uint8_t*>(views.data());
}

}  // namespace

void ChunkEngine::read_selection_vlen(const Selection& selection, uint64_t* offsets, uint8_t* data,
                                      size_t capacity, size_t* data_size, const std::string& where) const {
  // Every element starts as the fill value; chunks present overwrite theirs.
  // The fill's view points somewhere (an empty fill value has no bytes):
  // pick_vlen_chunk tells picked elements by it.
  static const char kSomewhere = 0;
  const std::string_view fill(fill_item_.empty() ? &kSomewhere : reinterpret_cast<const char*>(fill_item_.data()),
                              fill_item_.size());
  std::vector<std::string_view> items(static_cast<size_t>(selection.elements()), fill);
  std::vector<Bytes> kept;  // each chunk's picked elements, which `items` points into
  selection.for_each_chunk_batch(engine::kOverlapsPerBatch, [&](const std::vector<SelectedChunk>& batch) {
    std::vector<Bytes> picked(batch.size());
    // Chunks' picks are disjoint parts of `items`: one task each.
    parallel_for(batch.size(), [&](size_t i) { picked[i] = pick_vlen_chunk(selection, batch[i], items); });
    for (Bytes& p : picked) kept.push_back(std::move(p));
  });
  hand_out(items, offsets, data, capacity, data_size, where);
}

// One chunk of a selection: fetched, decoded (a shard: only the inner
// chunks of the picks' box), and its picked elements copied out, so that no
// decoded chunk outlives its turn; a selection of a few elements from each
// of many chunks holds those elements only. Absent: the picks stay the fill.
Bytes ChunkEngine::pick_vlen_chunk(const Selection& selection, const SelectedChunk& chunk,
                                   std::vector<std::string_view>& items) const {
  const ChunkOverlap& box = chunk.box;
  const std::string key = chunk_key(box.chunk_coords);
  const std::optional<Bytes> stored = chunk_store_->get(key, chunk_read_limit());
  if (!stored) return {};
  const std::shared_ptr<const ChunkForm> form = form_of(box);
  const Bytes decoded = box.covers_chunk ? decode_chunk(*form, *stored, key)
                                         : form->chain->decode_part(*stored, key, box.chunk_offset, box.count);
  const vlen::ChunkView view(decoded, form->elements);
  // Which elements of the box are picked: the selection's own views (the
  // fill's, never null) scattered into a box of null views.
  uint64_t box_elements = 1;
  for (uint64_t extent : box.count) box_elements *= extent;
  std::vector<std::string_view> box_items(static_cast<size_t>(box_elements));
  const std::vector<int64_t> box_strides = c_order_strides(box.count, sizeof(std::string_view));
  selection.scatter(chunk, as_items(items), as_items(box_items), box.chunk_offset, box_strides);
  size_t picked_bytes = 0;
  for_each_element(box, form->shape, box.count, [&](size_t c, size_t b) {
    if (box_items[b].data()) picked_bytes += view.item(c).size();
  });
  Bytes picked(picked_bytes);
  size_t at = 0;
  for_each_element(box, form->shape, box.count, [&](size_t c, size_t b) {
    if (!box_items[b].data()) return;
    const std::string_view item = view.item(c);
    if (!item.empty()) std::memcpy(picked.data() + at, item.data(), item.size());
    box_items[b] = std::string_view(reinterpret_cast<const char*>(picked.data()) + at, item.size());
    at += item.size();
  });
  selection.gather(chunk, as_items(box_items), box.chunk_offset, box_strides, as_items(items));
  return picked;
}

void ChunkEngine::write_selection_vlen(const Selection& selection, const std::vector<std::string_view>& items) {
  selection.for_each_chunk_batch(engine::kOverlapsPerBatch, [&](const std::vector<SelectedChunk>& batch) {
    // Chunks' picks are disjoint: one task each, as write_selection's.
    parallel_for(batch.size(), [&](size_t i) { put_vlen_chunk(selection, batch[i], items); });
  });
}

// One chunk of a variable-length selection write, under its lock: its
// elements as stored (the fill value when absent or when every element is
// picked), the picks put in in selection order (the last of a repeat stays),
// then encoded and set in one piece, or erased when only the fill is left.
void ChunkEngine::put_vlen_chunk(const Selection& selection, const SelectedChunk& chunk,
                                 const std::vector<std::string_view>& items) {
  const std::string key = chunk_key(chunk.box.chunk_coords);
  const KeyWriteLock held(*this, key);
  const std::shared_ptr<const ChunkForm> form = form_of(chunk.box);
  const std::optional<Bytes> stored =
      chunk.picks_cover_chunk ? std::nullopt : chunk_store_->get(key, chunk_read_limit());
  const Bytes old = stored ? decode_chunk(*form, *stored, key) : Bytes{};
  const uint64_t per_chunk = form->elements;
  const std::string_view fill(reinterpret_cast<const char*>(fill_item_.data()), fill_item_.size());
  std::vector<std::string_view> chunk_items(static_cast<size_t>(per_chunk), fill);
  if (stored) {
    const vlen::ChunkView view(old, per_chunk);
    for (size_t i = 0; i < chunk_items.size(); ++i) chunk_items[i] = view.item(i);
  }
  selection.scatter(chunk, as_items(items), as_items(chunk_items), std::vector<uint64_t>(meta_.ndim(), 0),
                    form->strides);
  bool all_fill = true;
  for (auto item : chunk_items) all_fill = all_fill && item == fill;
  if (all_fill && !write_empty_chunks_) {
    chunk_store_->erase(key);
  } else {
    chunk_store_->set(key, form->chain->encode(vlen::pack(chunk_items)).view());
  }
  forget_cached(key);
}

}  // namespace zarr
