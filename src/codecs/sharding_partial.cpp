// Partial decoding of the sharding codec (sharding_codec.h): the box of a
// shard a read needs, through the shard's index, fetching only the inner
// chunks it touches, neighbours merged into one request.
#include <algorithm>
#include <limits>

#include "base/checked_math.h"
#include "base/error.h"
#include "base/strided_copy.h"
#include "codecs/sharding_internal.h"
#include "concurrency/thread_pool.h"

namespace zarr {

namespace {

using codecs::kEmpty;
constexpr const char* kPrefix = codecs::kShardingPrefix;

}  // namespace

std::vector<ShardingCodec::Overlap> ShardingCodec::box_overlaps(const ArrayRepr& decoded,
                                                                const std::vector<uint64_t>& chunk_offset,
                                                                const std::vector<uint64_t>& count,
                                                                const std::vector<int64_t>& out_strides) const {
  check_shape(decoded);
  if (shard_.dtype.is_variable_length()) {
    fail(ZARR_ERR_INTERNAL, kPrefix + std::string("no partial decoding of variable-length elements"));
  }
  if (chunk_offset.size() != shard_.shape.size() || count.size() != shard_.shape.size() ||
      out_strides.size() != shard_.shape.size()) {
    fail(ZARR_ERR_INTERNAL, kPrefix + std::string("partial decode: box rank does not match the shard's"));
  }
  for (size_t d = 0; d < count.size(); ++d) {
    if (!run_inside(chunk_offset[d], count[d], shard_.shape[d])) {
      fail(ZARR_ERR_INTERNAL, kPrefix + std::string("partial decode: box ") + list_text(chunk_offset) + " + " +
                                  list_text(count) + " is outside the shard " + list_text(shard_.shape));
    }
  }
  std::vector<Overlap> needed;
  for_each_overlap(chunk_offset, count, [&](const Overlap& ov) { needed.push_back(ov); });
  return needed;
}

void ShardingCodec::decode_needed(ByteView stored, const std::vector<Overlap>& needed, uint8_t* out,
                                  const std::vector<int64_t>& out_strides, MemoryWrites writes) const {
  if (stored.size < index_size_) {
    fail(ZARR_ERR_CODEC, kPrefix + std::string("the shard is ") + std::to_string(stored.size) +
                             " bytes, shorter than its " + std::to_string(index_size_) + "-byte index");
  }
  const std::vector<uint64_t> entries =
      decode_index(ByteView(stored.data + (index_at_end_ ? stored.size - index_size_ : 0), index_size_));
  parallel_for(needed.size(), [&](size_t k) {
    const Overlap& ov = needed[k];
    const uint64_t offset = entries[2 * ov.index], nbytes = entries[2 * ov.index + 1];
    if (offset == kEmpty) {
      strided_fill(ov.count, shard_.fill_item, out + byte_offset(ov.box_offset, out_strides), out_strides);
      return;
    }
    check_inside(ov.index, offset, nbytes, stored.size);
    decode_into(ByteView(stored.data + offset, static_cast<size_t>(nbytes)), ov, out, out_strides, writes);
  });
}

void ShardingCodec::decode_box(ByteView stored, const ArrayRepr& decoded, const std::vector<uint64_t>& chunk_offset,
                               const std::vector<uint64_t>& count, uint8_t* out,
                               const std::vector<int64_t>& out_strides, MemoryWrites writes) const {
  decode_needed(stored, box_overlaps(decoded, chunk_offset, count, out_strides), out, out_strides, writes);
}

bool ShardingCodec::partial_decode(const RangeReader& read, const ArrayRepr& decoded,
                                   const std::vector<uint64_t>& chunk_offset, const std::vector<uint64_t>& count,
                                   uint8_t* out, const std::vector<int64_t>& out_strides, MemoryWrites writes) const {
  const std::vector<Overlap> needed = box_overlaps(decoded, chunk_offset, count, out_strides);
  if (needed.empty()) return true;

  // Every inner chunk needed: one request for the whole shard.
  if (needed.size() == n_inner_) {
    std::optional<Bytes> whole = read(0, std::nullopt);
    if (!whole) return false;
    decode_needed(*whole, needed, out, out_strides, writes);
    return true;
  }

  const std::optional<std::vector<uint64_t>> entries = read_index(read);
  if (!entries) return false;
  std::vector<Bytes> buffers;
  const std::vector<ByteView> view_of = fetch_ranges(read, needed, plan_fetches(needed, *entries), buffers);

  // Each inner chunk fills its own part of the box: decode them in parallel
  // (nested shards read their ranges from these tasks too).
  parallel_for(needed.size(), [&](size_t k) {
    const Overlap& ov = needed[k];
    const uint64_t offset = (*entries)[2 * ov.index], nbytes = (*entries)[2 * ov.index + 1];
    bool present = offset != kEmpty;
    if (present && view_of[k].data) {
      decode_into(view_of[k], ov, out, out_strides, writes);
    } else if (present) {
      present = decode_nested(read, ov, offset, nbytes, out, out_strides, writes);
    }
    if (!present) strided_fill(ov.count, shard_.fill_item, out + byte_offset(ov.box_offset, out_strides), out_strides);
  });
  return true;
}

std::optional<std::vector<uint64_t>> ShardingCodec::read_index(const RangeReader& read) const {
  // Its size is fixed, so one range request finds it.
  const RangeRequest locate = *locating_request();
  std::optional<Bytes> index_bytes = read(locate.offset, locate.length);
  if (!index_bytes) return std::nullopt;
  if (index_bytes->size() != index_size_) {
    fail(ZARR_ERR_CODEC, kPrefix + std::string("the shard is ") + std::to_string(index_bytes->size()) +
                             " bytes, shorter than its " + std::to_string(index_size_) + "-byte index");
  }
  return decode_index(*index_bytes);
}

// A byte range of the shard to fetch: that of needed[k].
struct ShardingCodec::Fetch {
  size_t k;
  uint64_t offset, nbytes;
};

std::vector<ShardingCodec::Fetch> ShardingCodec::plan_fetches(const std::vector<Overlap>& needed,
                                                              const std::vector<uint64_t>& entries) const {
  // Inner chunks decoded whole; nested shards only partly needed are read
  // through their own partial decoding instead (decode_nested).
  const bool nested_partial = inner_.partial_reads();
  std::vector<Fetch> fetches;
  for (size_t k = 0; k < needed.size(); ++k) {
    const uint64_t offset = entries[2 * needed[k].index], nbytes = entries[2 * needed[k].index + 1];
    if (offset == kEmpty) continue;
    check_inside(needed[k].index, offset, nbytes, static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
    check_inner_size(needed[k].index, nbytes);
    if (nested_partial && !needed[k].whole) continue;
    fetches.push_back({k, offset, nbytes});
  }
  std::sort(fetches.begin(), fetches.end(), [](const Fetch& a, const Fetch& b) { return a.offset < b.offset; });
  return fetches;
}

namespace {

// The end of the group of fetches (sorted by offset) that starts at g and is
// read with one request: neighbours close enough in the shard. *end: the
// group's end offset.
template <typename Fetch>
size_t group_end(const std::vector<Fetch>& fetches, size_t g, uint64_t* end) {
  const uint64_t begin = fetches[g].offset;
  *end = begin + fetches[g].nbytes;
  size_t h = g + 1;
  for (; h < fetches.size(); ++h) {
    const uint64_t f_end = fetches[h].offset + fetches[h].nbytes;
    const uint64_t gap = fetches[h].offset > *end ? fetches[h].offset - *end : 0;
    const uint64_t new_end = std::max(*end, f_end);
    if (gap > kShardCoalesceMaxGap || new_end - begin > kShardCoalesceMaxBytes) break;
    *end = new_end;
  }
  return h;
}

}  // namespace

std::vector<ByteView> ShardingCodec::fetch_ranges(const RangeReader& read, const std::vector<Overlap>& needed,
                                                  const std::vector<Fetch>& fetches, std::vector<Bytes>& buffers) const {
  std::vector<ByteView> view_of(needed.size());
  buffers.reserve(fetches.size());  // the views point into them
  for (size_t g = 0; g < fetches.size();) {
    uint64_t end;
    const size_t h = group_end(fetches, g, &end);
    const uint64_t begin = fetches[g].offset;
    std::optional<Bytes> bytes = read(static_cast<int64_t>(begin), end - begin);
    if (!bytes) {
      fail(ZARR_ERR_CODEC, kPrefix + std::string("the shard disappeared while it was read (written concurrently?)"));
    }
    for (size_t f = g; f < h; ++f) {
      const Fetch& fetch = fetches[f];
      if (fetch.offset - begin + fetch.nbytes > bytes->size()) {
        fail(ZARR_ERR_CODEC, kPrefix + inner_name(needed[fetch.k].index) + ": index entry (offset " +
                                 std::to_string(fetch.offset) + ", nbytes " + std::to_string(fetch.nbytes) +
                                 ") lies past the end of the " + std::to_string(begin + bytes->size()) +
                                 "-byte (or shorter) shard");
      }
    }
    buffers.push_back(std::move(*bytes));
    for (size_t f = g; f < h; ++f) {
      view_of[fetches[f].k] = ByteView(buffers.back().data() + (fetches[f].offset - begin),
                                       static_cast<size_t>(fetches[f].nbytes));
    }
    g = h;
  }
  return view_of;
}

bool ShardingCodec::decode_nested(const RangeReader& read, const Overlap& ov, uint64_t offset, uint64_t nbytes,
                                  uint8_t* out, const std::vector<int64_t>& out_strides, MemoryWrites writes) const {
  // The inner chunk's own partial decoding, reading through a window onto
  // its byte range.
  RangeReader window = [&read, offset, nbytes](int64_t o, std::optional<uint64_t> length) {
    uint64_t begin, size;
    if (o < 0) {
      size = std::min(static_cast<uint64_t>(-o), nbytes);
      begin = offset + nbytes - size;
    } else {
      const uint64_t b = std::min(static_cast<uint64_t>(o), nbytes);
      begin = offset + b;
      size = length ? std::min(*length, nbytes - b) : nbytes - b;
    }
    return read(static_cast<int64_t>(begin), size);
  };
  try {
    return inner_.array_to_bytes()->partial_decode(window, inner_.decoded(), ov.chunk_offset, ov.count,
                                                   out + byte_offset(ov.box_offset, out_strides), out_strides,
                                                   writes);
  } catch (const Error& e) {
    fail(e.code(), kPrefix + inner_name(ov.index) + ": " + e.what());
  }
}

}  // namespace zarr
