// The v3 "sharding_indexed" codec; see sharding_codec.h.
#include "codecs/sharding_codec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>
#include <string_view>

#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "base/size_limits.h"
#include "base/strided_copy.h"
#include "codecs/sharding_internal.h"
#include "codecs/v3_chain.h"
#include "codecs/vlen_codecs.h"
#include "concurrency/thread_pool.h"

namespace zarr {

namespace codecs {

std::vector<uint64_t> inner_grid(const std::vector<uint64_t>& shard, const std::vector<uint64_t>& inner,
                                 const std::string& where, uint64_t* count) {
  constexpr uint64_t kMaxInnerChunks = uint64_t{1} << 22;  // per shard
  const std::vector<uint64_t> grid = ceil_div(shard, inner);
  const std::string field = where + ": field 'chunk_shape'";
  const uint64_t n = checked_product(grid, field + ": inner chunks per shard", ZARR_ERR_INVALID_METADATA);
  if (n > kMaxInnerChunks) {
    fail(ZARR_ERR_INVALID_METADATA, field + ": " + std::to_string(n) +
                                        " inner chunks per shard make an index too large to hold (at most " +
                                        std::to_string(kMaxInnerChunks) + ", a 64 MiB index)");
  }
  if (count) *count = n;
  return grid;
}

}  // namespace codecs

namespace {

using codecs::inner_grid;
using codecs::kEmpty;
constexpr const char* kPrefix = codecs::kShardingPrefix;

// C-order coordinates of linear position i in a grid.
std::vector<uint64_t> unravel(uint64_t i, const std::vector<uint64_t>& grid) {
  std::vector<uint64_t> c(grid.size());
  for (size_t d = grid.size(); d-- > 0;) {
    c[d] = i % grid[d];
    i /= grid[d];
  }
  return c;
}

// Visit every index of a box of extents `shape` in C order (0-d: once).
template <typename Visit>
void for_each_index(const std::vector<uint64_t>& shape, Visit visit) {
  for (uint64_t e : shape) {
    if (e == 0) return;
  }
  std::vector<uint64_t> i(shape.size(), 0);
  while (true) {
    visit(i);
    size_t d = shape.size();
    while (d > 0 && i[d - 1] + 1 == shape[d - 1]) i[--d] = 0;
    if (d == 0) return;
    ++i[d - 1];
  }
}

// NaN test of one native float component of `size` bytes.
bool is_nan(const uint8_t* p, size_t size, bool bfloat16) {
  if (size == 2) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return bfloat16 ? (v & 0x7f80u) == 0x7f80u && (v & 0x007fu) != 0 : (v & 0x7c00u) == 0x7c00u && (v & 0x03ffu) != 0;
  }
  if (size == 4) {
    float v;
    std::memcpy(&v, p, 4);
    return std::isnan(v);
  }
  if (size == 8) {
    double v;
    std::memcpy(&v, p, 8);
    return std::isnan(v);
  }
  return false;
}

// Size of the float components of a type (0: not a float type).
size_t float_component_size(const DataType& t) {
  switch (t.kind()) {
    case DTypeKind::Float: return t.item_size();
    case DTypeKind::BFloat16: return 2;
    // IEEE halves only (bfloat16 or small-float halves compare by their bits).
    case DTypeKind::Complex: return t.complex_component_kind() == DTypeKind::Float ? t.item_size() / 2 : 0;
    default: return 0;
  }
}

}  // namespace

ShardingCodec::ShardingCodec(ArrayRepr shard, std::vector<uint64_t> inner_shape, CodecChain inner, CodecChain index,
                             bool index_at_end, const std::string& where)
    : shard_(std::move(shard)),
      inner_shape_(std::move(inner_shape)),
      inner_(std::move(inner)),
      index_(std::move(index)),
      index_at_end_(index_at_end) {
  grid_ = inner_grid(shard_.shape, inner_shape_, where, &n_inner_);
  // The index's encoded size, and a check that it does not depend on the
  // entries (compressors would break reading the index by its size).
  std::vector<uint64_t> probe(2 * n_inner_, kEmpty);
  const size_t empty = index_.encode(Bytes(reinterpret_cast<const uint8_t*>(probe.data()),
                                          reinterpret_cast<const uint8_t*>(probe.data() + probe.size())))
                           .size();
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (auto& e : probe) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    e = state ^ (state >> 29);
  }
  const size_t other = index_.encode(Bytes(reinterpret_cast<const uint8_t*>(probe.data()),
                                          reinterpret_cast<const uint8_t*>(probe.data() + probe.size())))
                           .size();
  if (empty != other) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'index_codecs': the index must encode to a fixed size, but "
                                            "these codecs give " + std::to_string(empty) + " or " +
                                            std::to_string(other) + " bytes (no compressors here)");
  }
  index_size_ = empty;

  const size_t fs = float_component_size(shard_.dtype);
  if (fs && shard_.fill_item.size() == shard_.dtype.item_size()) {
    for (size_t off = 0; off + fs <= shard_.fill_item.size(); off += fs) {
      fill_has_nan_ = fill_has_nan_ || is_nan(shard_.fill_item.data() + off, fs, shard_.dtype.kind() == DTypeKind::BFloat16);
    }
  }
  v3_json_ = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":" + list_text(inner_shape_, ",") +
             ",\"codecs\":" + v3_codecs_json(inner_) + ",\"index_codecs\":" + v3_codecs_json(index_) +
             ",\"index_location\":\"" + (index_at_end_ ? "end" : "start") + "\"}}";
}

void ShardingCodec::check_shape(const ArrayRepr& decoded) const {
  if (decoded.shape != shard_.shape) {
    fail(ZARR_ERR_INTERNAL, kPrefix + std::string("built for shards of shape ") + list_text(shard_.shape) +
                                ", given " + list_text(decoded.shape));
  }
}

std::string ShardingCodec::inner_name(size_t i) const { return "inner chunk " + list_text(unravel(i, grid_)); }

void ShardingCodec::check_inside(size_t i, uint64_t offset, uint64_t nbytes, uint64_t shard_size) const {
  if (nbytes > shard_size || offset > shard_size - nbytes) {
    fail(ZARR_ERR_CODEC, kPrefix + inner_name(i) + ": index entry (offset " + std::to_string(offset) + ", nbytes " +
                             std::to_string(nbytes) + ") lies outside the " + std::to_string(shard_size) +
                             "-byte shard");
  }
}

void ShardingCodec::check_inner_size(size_t i, uint64_t nbytes) const {
  const std::optional<uint64_t> most = inner_.max_stored_size();
  if (most && nbytes > *most) {
    fail(ZARR_ERR_CODEC, kPrefix + inner_name(i) + ": index entry claims " + std::to_string(nbytes) +
                             " bytes, more than the " + std::to_string(*most) + " an inner chunk can take");
  }
}

std::optional<uint64_t> ShardingCodec::max_encoded_size(const ArrayRepr&) const {
  const std::optional<uint64_t> inner = inner_.max_stored_size();
  if (!inner) return std::nullopt;
  return saturating_add(index_size_, saturating_mul(n_inner_, *inner));
}

void ShardingCodec::for_each_overlap(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                     const std::function<void(const Overlap&)>& visit) const {
  const size_t nd = grid_.size();
  for (uint64_t c : count) {
    if (c == 0) return;
  }
  std::vector<uint64_t> first(nd), last(nd);
  for (size_t d = 0; d < nd; ++d) {
    first[d] = start[d] / inner_shape_[d];
    last[d] = (start[d] + count[d] - 1) / inner_shape_[d];
  }
  Overlap ov;
  ov.chunk_offset.resize(nd);
  ov.box_offset.resize(nd);
  ov.count.resize(nd);
  std::vector<uint64_t> c = first;
  while (true) {
    uint64_t linear = 0;
    bool whole = true;
    for (size_t d = 0; d < nd; ++d) {
      linear = linear * grid_[d] + c[d];
      // The inner shape divides the shard's: origin + inner_shape_[d] is
      // within the shard, and so is the box (checked by the callers).
      const uint64_t origin = c[d] * inner_shape_[d];
      const uint64_t lo = std::max(start[d], origin);
      const uint64_t hi = std::min(start[d] + count[d], origin + inner_shape_[d]);
      ov.chunk_offset[d] = lo - origin;
      ov.box_offset[d] = lo - start[d];
      ov.count[d] = hi - lo;
      whole = whole && ov.count[d] == inner_shape_[d];
    }
    ov.index = static_cast<size_t>(linear);
    ov.whole = whole;
    visit(ov);
    size_t d = nd;
    while (d > 0 && c[d - 1] == last[d - 1]) {
      c[d - 1] = first[d - 1];
      --d;
    }
    if (d == 0) return;
    ++c[d - 1];
  }
}

// Morton (Z) order of the inner chunks, the first dimension in the lowest bit
// and each dimension contributing ceil(log2(chunks along it)) bits: the order
// zarr-python 3 lays inner chunks out in.
std::vector<size_t> ShardingCodec::write_order() const {
  std::vector<size_t> order(static_cast<size_t>(n_inner_));
  std::iota(order.begin(), order.end(), size_t{0});
  std::vector<unsigned> bits(grid_.size(), 0);
  unsigned total = 0, max_bits = 0;
  for (size_t d = 0; d < grid_.size(); ++d) {
    while (bits[d] < 64 && (uint64_t{1} << bits[d]) < grid_[d]) ++bits[d];
    total += bits[d];
    max_bits = std::max(max_bits, bits[d]);
  }
  if (total > 64 || n_inner_ < 2) return order;  // more than 2^64 Morton codes: keep C order
  std::vector<uint64_t> key(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const std::vector<uint64_t> c = unravel(i, grid_);
    uint64_t k = 0;
    unsigned out_bit = 0;
    for (unsigned b = 0; b < max_bits; ++b) {
      for (size_t d = 0; d < grid_.size(); ++d) {
        if (b < bits[d]) k |= ((c[d] >> b) & 1u) << out_bit++;
      }
    }
    key[i] = k;
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
  return order;
}

bool ShardingCodec::all_fill(const uint8_t* data, size_t size) const {
  const size_t item = shard_.dtype.item_size();
  const Bytes& fill = shard_.fill_item;
  if (fill.size() != item || size % item != 0) return false;
  if (size == 0) return true;
  if (!fill_has_nan_) {
    // Every item equals the first, and the first is the fill value.
    return std::memcmp(data, fill.data(), item) == 0 && std::memcmp(data, data + item, size - item) == 0;
  }
  const size_t fs = float_component_size(shard_.dtype);
  const bool bf16 = shard_.dtype.kind() == DTypeKind::BFloat16;
  for (size_t off = 0; off < size; off += item) {
    for (size_t c = 0; c < item; c += fs) {
      const uint8_t* p = data + off + c;
      const uint8_t* f = fill.data() + c;
      if (!(is_nan(p, fs, bf16) && is_nan(f, fs, bf16)) && std::memcmp(p, f, fs) != 0) return false;
    }
  }
  return true;
}

std::optional<ArrayToBytesCodec::RangeRequest> ShardingCodec::locating_request() const {
  if (index_at_end_) return RangeRequest{-static_cast<int64_t>(index_size_), std::nullopt};
  return RangeRequest{0, index_size_};
}

Bytes ShardingCodec::encode_index(const std::vector<uint64_t>& entries) const {
  Bytes raw(entries.size() * 8);
  std::memcpy(raw.data(), entries.data(), raw.size());
  Bytes encoded = index_.encode_bytes(std::move(raw));
  if (encoded.size() != index_size_) {
    fail(ZARR_ERR_CODEC, kPrefix + std::string("the index codecs gave ") + std::to_string(encoded.size()) +
                             " bytes, expected " + std::to_string(index_size_));
  }
  return encoded;
}

std::vector<uint64_t> ShardingCodec::decode_index(ByteView encoded) const {
  if (encoded.size != index_size_) {
    fail(ZARR_ERR_CODEC, kPrefix + std::string("the shard index is ") + std::to_string(encoded.size) +
                             " bytes, expected " + std::to_string(index_size_));
  }
  Bytes raw;
  try {
    raw = index_.decode(encoded, "shard index");
  } catch (const Error& e) {
    fail(e.code(), kPrefix + std::string(e.what()));
  }
  std::vector<uint64_t> entries(2 * static_cast<size_t>(n_inner_));
  std::memcpy(entries.data(), raw.data(), entries.size() * 8);  // the chain checked the size
  for (size_t i = 0; i < static_cast<size_t>(n_inner_); ++i) {
    if ((entries[2 * i] == kEmpty) != (entries[2 * i + 1] == kEmpty)) {
      fail(ZARR_ERR_CODEC, kPrefix + inner_name(i) + ": index entry (offset " + std::to_string(entries[2 * i]) +
                               ", nbytes " + std::to_string(entries[2 * i + 1]) +
                               ") is neither a byte range nor the empty marker");
    }
  }
  return entries;
}

namespace {

// Each thread's buffer for an inner chunk that cannot be decoded straight
// into its place (a part of it, or a place laid out otherwise), kept across
// inner chunks as the array engine keeps its own (base/bytes.h).
ScratchBuffer& inner_chunk_scratch() {
  thread_local ScratchBuffer scratch;
  return scratch;
}

// Inner chunks are small; a huge one is not kept on its thread after use.
constexpr size_t kInnerScratchKeepLimit = size_t{64} << 20;

// True when a whole inner chunk's elements lie at `out_strides` exactly as in
// a C-order inner chunk.
bool lands_contiguously(const std::vector<uint64_t>& count, const std::vector<int64_t>& out_strides,
                        const std::vector<int64_t>& inner_strides) {
  for (size_t d = 0; d < count.size(); ++d) {
    if (count[d] > 1 && out_strides[d] != inner_strides[d]) return false;
  }
  return true;
}

}  // namespace

void ShardingCodec::decode_into(ByteView stored, const Overlap& ov, uint8_t* out,
                                const std::vector<int64_t>& out_strides, MemoryWrites writes) const {
  const std::string name = inner_name(ov.index);
  const size_t item = shard_.dtype.item_size();
  const std::vector<int64_t> inner_strides = c_order_strides(inner_shape_, item);
  uint8_t* const dst = out + byte_offset(ov.box_offset, out_strides);
  if (!inner_.decodes_into()) {
    const Bytes inner = inner_.decode(stored, name);
    strided_copy(ov.count, item, inner.data() + byte_offset(ov.chunk_offset, inner_strides), inner_strides, dst,
                 out_strides, writes);
    return;
  }
  if (ov.whole && lands_contiguously(ov.count, out_strides, inner_strides)) {
    inner_.decode_into(stored, dst, name);
    return;
  }
  ScratchBuffer& scratch = inner_chunk_scratch();
  inner_.decode_into(stored, scratch.reserve(inner_.decoded().byte_size()), name);
  strided_copy(ov.count, item, scratch.data() + byte_offset(ov.chunk_offset, inner_strides), inner_strides, dst,
               out_strides, writes);
  scratch.release_above(kInnerScratchKeepLimit);
}

// ---- encode -------------------------------------------------------------------

Bytes ShardingCodec::encode(Bytes chunk, const ArrayRepr& decoded) const {
  check_shape(decoded);
  std::vector<uint64_t> entries(2 * static_cast<size_t>(n_inner_), kEmpty);
  Bytes body;
  if (shard_.dtype.is_variable_length()) {
    encode_vlen(chunk, entries, body);
  } else {
    if (chunk.size() != shard_.byte_size()) {
      fail(ZARR_ERR_CODEC, kPrefix + std::string("a shard of shape ") + list_text(shard_.shape) + " is " +
                               std::to_string(shard_.byte_size()) + " bytes, given " + std::to_string(chunk.size()));
    }
    const size_t item = shard_.dtype.item_size();
    const std::vector<int64_t> shard_strides = c_order_strides(shard_.shape, item);
    const std::vector<int64_t> inner_strides = c_order_strides(inner_shape_, item);
    const size_t inner_bytes = inner_.decoded().byte_size();
    for (size_t i : write_order()) {
      Bytes part;
      if (n_inner_ == 1) {
        part = std::move(chunk);
      } else {
        std::vector<uint64_t> origin = unravel(i, grid_);
        for (size_t d = 0; d < origin.size(); ++d) origin[d] *= inner_shape_[d];
        part.resize(inner_bytes);
        strided_copy(inner_shape_, item, chunk.data() + byte_offset(origin, shard_strides), shard_strides,
                     part.data(), inner_strides);
      }
      if (all_fill(part.data(), part.size())) continue;
      const EncodedChunk encoded = inner_.encode(std::move(part));
      entries[2 * i] = body.size();
      entries[2 * i + 1] = encoded.size();
      append(body, encoded.view());
    }
  }
  if (!index_at_end_) {
    for (size_t i = 0; i < entries.size(); i += 2) {
      if (entries[i] != kEmpty) entries[i] += index_size_;
    }
  }
  Bytes index = encode_index(entries);
  if (index_at_end_) {
    body.insert(body.end(), index.begin(), index.end());
    return body;
  }
  index.insert(index.end(), body.begin(), body.end());
  return index;
}

// Variable-length elements: the decoded shard is vlen's (offsets, data)
// buffer; each inner chunk gets one of its own.
void ShardingCodec::encode_vlen(const Bytes& chunk, std::vector<uint64_t>& entries, Bytes& body) const {
  const vlen::ChunkView view(chunk, shard_.elements());
  const std::string_view fill(reinterpret_cast<const char*>(shard_.fill_item.data()), shard_.fill_item.size());
  const std::vector<int64_t> shard_strides = c_order_strides(shard_.shape, 1);  // in elements
  std::vector<std::string_view> items;
  for (size_t i : write_order()) {
    std::vector<uint64_t> origin = unravel(i, grid_);
    for (size_t d = 0; d < origin.size(); ++d) origin[d] *= inner_shape_[d];
    items.clear();
    bool only_fill = true;
    for_each_index(inner_shape_, [&](const std::vector<uint64_t>& j) {
      int64_t at = 0;
      for (size_t d = 0; d < j.size(); ++d) at += static_cast<int64_t>(origin[d] + j[d]) * shard_strides[d];
      items.push_back(view.item(static_cast<size_t>(at)));
      only_fill = only_fill && items.back() == fill;
    });
    if (only_fill) continue;
    const EncodedChunk encoded = inner_.encode(vlen::pack(items));
    entries[2 * i] = body.size();
    entries[2 * i + 1] = encoded.size();
    append(body, encoded.view());
  }
}

// ---- decode -------------------------------------------------------------------

std::vector<uint64_t> ShardingCodec::checked_entries(ByteView stored) const {
  if (stored.size < index_size_) {
    fail(ZARR_ERR_CODEC, kPrefix + std::string("the shard is ") + std::to_string(stored.size) +
                             " bytes, shorter than its " + std::to_string(index_size_) + "-byte index");
  }
  const ByteView index_bytes(stored.data + (index_at_end_ ? stored.size - index_size_ : 0), index_size_);
  std::vector<uint64_t> entries = decode_index(index_bytes);
  for (size_t i = 0; i < static_cast<size_t>(n_inner_); ++i) {
    if (entries[2 * i] != kEmpty) check_inside(i, entries[2 * i], entries[2 * i + 1], stored.size);
  }
  return entries;
}

Bytes ShardingCodec::decode(ByteView stored, const ArrayRepr& decoded) const {
  check_shape(decoded);
  const std::vector<uint64_t> entries = checked_entries(stored);
  if (shard_.dtype.is_variable_length()) {
    return decode_vlen(stored, entries, decoded.vlen_limit, std::vector<uint64_t>(shard_.shape.size(), 0),
                       shard_.shape);
  }
  if (n_inner_ == 1 && entries[0] != kEmpty) {
    return inner_.decode(ByteView(stored.data + entries[0], static_cast<size_t>(entries[1])), inner_name(0));
  }
  Bytes out(shard_.byte_size());
  const std::vector<int64_t> strides = c_order_strides(shard_.shape, shard_.dtype.item_size());
  std::vector<Overlap> all;
  for_each_overlap(std::vector<uint64_t>(shard_.shape.size(), 0), shard_.shape,
                   [&](const Overlap& ov) { all.push_back(ov); });
  // Inner chunks fill disjoint parts of the shard: decode them in parallel.
  parallel_for(all.size(), [&](size_t k) {
    const Overlap& ov = all[k];
    const uint64_t offset = entries[2 * ov.index], nbytes = entries[2 * ov.index + 1];
    if (offset == kEmpty) {
      strided_fill(ov.count, shard_.fill_item, out.data() + byte_offset(ov.box_offset, strides), strides);
    } else {
      decode_into(ByteView(stored.data + offset, static_cast<size_t>(nbytes)), ov, out.data(), strides, MemoryWrites::Cached);
    }
  });
  return out;
}

Bytes ShardingCodec::decode_part(ByteView stored, const ArrayRepr& decoded, const std::vector<uint64_t>& chunk_offset,
                                 const std::vector<uint64_t>& count) const {
  if (!shard_.dtype.is_variable_length()) return decode(stored, decoded);
  check_shape(decoded);
  if (chunk_offset.size() != shard_.shape.size() || count.size() != shard_.shape.size()) {
    fail(ZARR_ERR_INTERNAL, kPrefix + std::string("partial decode: box rank does not match the shard's"));
  }
  for (size_t d = 0; d < count.size(); ++d) {
    if (!run_inside(chunk_offset[d], count[d], shard_.shape[d])) {
      fail(ZARR_ERR_INTERNAL, kPrefix + std::string("partial decode: box ") + list_text(chunk_offset) + " + " +
                                  list_text(count) + " is outside the shard " + list_text(shard_.shape));
    }
  }
  return decode_vlen(stored, checked_entries(stored), decoded.vlen_limit, chunk_offset, count);
}

// The inner chunks the box needs are decoded, each held to what is left of
// `limit` (an index may point many entries at one small bomb), and all of
// them together to `limit`: a shard of a few bytes never decodes to more.
Bytes ShardingCodec::decode_vlen(ByteView stored, const std::vector<uint64_t>& entries, uint64_t limit,
                                 const std::vector<uint64_t>& box_offset, const std::vector<uint64_t>& box_count) const {
  // The packed shard holds a 4-byte count and a 4-byte length per element
  // before any text, so a shard of more elements than `limit` allows is
  // refused before anything is allocated for them: an empty shard of 2^30
  // strings took ~24 GiB for its fill values.
  const uint64_t elements = shard_.elements();
  if (limit < 4 || elements > (limit - 4) / 4) {
    fail(ZARR_ERR_CODEC, kPrefix + std::string("a variable-length shard of ") + std::to_string(elements) +
                             " elements decodes to more than " + std::to_string(limit) +
                             " bytes (the store option \"max_value_bytes\")");
  }
  const std::string_view fill(reinterpret_cast<const char*>(shard_.fill_item.data()), shard_.fill_item.size());
  std::vector<std::string_view> items(static_cast<size_t>(elements), fill);
  std::vector<Bytes> inner_chunks;  // the views in `items` point into these
  const std::vector<int64_t> shard_strides = c_order_strides(shard_.shape, 1);
  const uint64_t inner_elements = inner_.decoded().elements();
  std::vector<size_t> needed;
  for_each_overlap(box_offset, box_count, [&](const Overlap& ov) { needed.push_back(ov.index); });
  inner_chunks.reserve(needed.size());
  uint64_t left = limit;
  for (size_t i : needed) {
    if (entries[2 * i] == kEmpty) continue;
    const ByteView part(stored.data + entries[2 * i], static_cast<size_t>(entries[2 * i + 1]));
    inner_chunks.push_back(inner_.decode_within(part, inner_name(i), left));
    if (inner_chunks.back().size() > left) {
      fail(ZARR_ERR_CODEC, kPrefix + std::string("the shard's variable-length inner chunks decode to more than ") +
                               std::to_string(limit) + " bytes (the store option \"max_value_bytes\"), at " +
                               inner_name(i));
    }
    left -= inner_chunks.back().size();
    const vlen::ChunkView view(inner_chunks.back(), inner_elements);
    std::vector<uint64_t> origin = unravel(i, grid_);
    for (size_t d = 0; d < origin.size(); ++d) origin[d] *= inner_shape_[d];
    size_t k = 0;
    for_each_index(inner_shape_, [&](const std::vector<uint64_t>& j) {
      int64_t at = 0;
      for (size_t d = 0; d < j.size(); ++d) at += static_cast<int64_t>(origin[d] + j[d]) * shard_strides[d];
      items[static_cast<size_t>(at)] = view.item(k++);
    });
  }
  return vlen::pack(items);
}

}  // namespace zarr
