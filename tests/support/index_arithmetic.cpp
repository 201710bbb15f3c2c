#include "index_arithmetic.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <set>

#include "zarr/zarr.h"

namespace index_arithmetic {
namespace {

using u128 = unsigned __int128;
constexpr u128 kMaxU64 = UINT64_MAX;
constexpr size_t kGuard = 32;                // guard bytes on each side of every buffer
constexpr uint8_t kGuardByte = 0xA5;

std::string list(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

size_t item_size_of(const std::string& dtype) {
  if (dtype == "int16") return 2;
  if (dtype == "int32") return 4;
  if (dtype == "float64") return 8;
  return dtype == "string" ? 0 : 1;
}

// A box of elements in the array's coordinates.
struct Box {
  std::vector<uint64_t> start, count;

  u128 elements() const {
    u128 n = 1;
    for (uint64_t c : count) n *= c;  // counts are small (at most 33 per axis)
    return n;
  }
  bool contains(const std::vector<uint64_t>& g) const {
    for (size_t d = 0; d < g.size(); ++d) {
      if (g[d] < start[d] || g[d] - start[d] >= count[d]) return false;
    }
    return true;
  }
  // Calls visit(coordinates, C-order position) for each element.
  void for_each(const std::function<void(const std::vector<uint64_t>&, size_t)>& visit) const {
    if (elements() == 0) return;
    std::vector<uint64_t> i(count.size(), 0), g = start;
    for (size_t k = 0;; ++k) {
      visit(g, k);
      size_t d = count.size();
      while (d > 0 && i[d - 1] + 1 == count[d - 1]) {
        i[d - 1] = 0;
        g[d - 1] = start[d - 1];
        --d;
      }
      if (d == 0) return;
      ++i[d - 1];
      ++g[d - 1];
    }
  }
};

// The last `back` elements of each axis (clipped), then up to `count` of them.
Box box_near_end(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& back,
                 const std::vector<uint64_t>& count) {
  Box box;
  for (size_t d = 0; d < shape.size(); ++d) {
    box.start.push_back(shape[d] - std::min(back[d], shape[d]));
    box.count.push_back(std::min(count[d], shape[d] - box.start[d]));
  }
  return box;
}

// The value element g holds after the write numbered `salt`: bytes that are
// never 0 (the fill value), or a non-empty string.
uint64_t element_hash(const std::vector<uint64_t>& g, int salt) {
  uint64_t h = 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(salt + 1);
  for (uint64_t x : g) {
    h = (h ^ x) * 0xff51afd7ed558ccdull;
    h ^= h >> 33;
  }
  return h;
}
void element_bytes(const std::vector<uint64_t>& g, int salt, size_t item, uint8_t* out) {
  const uint64_t h = element_hash(g, salt);
  for (size_t b = 0; b < item; ++b) out[b] = static_cast<uint8_t>((h >> (8 * (b % 8))) % 255 + 1);
}
std::string element_string(const std::vector<uint64_t>& g, int salt) {
  return "v" + std::to_string(salt) + "-" + std::to_string(element_hash(g, salt) % 100000);
}

// What the case has written so far: later boxes win.
struct Writes {
  std::vector<std::pair<Box, int>> boxes;
  int salt_at(const std::vector<uint64_t>& g) const {
    for (size_t i = boxes.size(); i-- > 0;) {
      if (boxes[i].first.contains(g)) return boxes[i].second;
    }
    return 0;  // never written: the fill value
  }
};

bool guards_hold(const std::vector<uint8_t>& buffer, size_t used_begin, size_t used_end) {
  for (size_t i = 0; i < buffer.size(); ++i) {
    if ((i < used_begin || i >= used_end) && buffer[i] != kGuardByte) return false;
  }
  return true;
}

class Handle {
 public:
  ~Handle() { zarr_close(a_); }
  zarr_array** out() { return &a_; }
  operator zarr_array*() const { return a_; }  // NOLINT: convenience for C calls
 private:
  zarr_array* a_ = nullptr;
};

std::string status_text(int status) { return std::string(zarr_status_name(status)) + ": " + zarr_last_error(); }

// The JSON number after "key": in a document libzarr wrote (nullopt: null or absent).
std::optional<uint64_t> json_number(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return std::nullopt;
  const char* p = json.c_str() + at + key.size() + 3;
  if (*p < '0' || *p > '9') return std::nullopt;
  return std::strtoull(p, nullptr, 10);
}

// The grid indices zarr_stored_chunks lists ({"chunks": [[i, j], ...], ...}).
std::set<std::vector<uint64_t>> stored_chunks(zarr_array* a, size_t ndim) {
  char* json = nullptr;
  if (zarr_stored_chunks(a, &json) != ZARR_OK) return {{UINT64_MAX}};
  const std::string text = json;
  zarr_free(json);
  std::set<std::vector<uint64_t>> out;
  std::vector<uint64_t> index;
  int depth = 0;
  for (const char* p = text.c_str() + text.find("\"chunks\":") + 9; *p; ++p) {
    if (*p == '[') ++depth;
    if (*p == ']' && --depth == 0) break;
    if (*p < '0' || *p > '9') continue;
    char* next = nullptr;
    index.push_back(std::strtoull(p, &next, 10));
    p = next - 1;
    if (index.size() == ndim) {
      out.insert(index);
      index.clear();
    }
  }
  return out;
}

// The chunks a box touches.
std::set<std::vector<uint64_t>> chunks_of(const Box& box, const std::vector<uint64_t>& chunks) {
  std::set<std::vector<uint64_t>> out;
  if (box.elements() == 0) return out;
  Box grid;
  for (size_t d = 0; d < chunks.size(); ++d) {
    grid.start.push_back(box.start[d] / chunks[d]);
    grid.count.push_back((box.start[d] + (box.count[d] - 1)) / chunks[d] - grid.start[d] + 1);
  }
  grid.for_each([&](const std::vector<uint64_t>& index, size_t) { out.insert(index); });
  return out;
}

class Checker {
 public:
  Checker(const Case& c, const std::string& url) : c_(c), url_(url), item_(item_size_of(c.dtype)) {}
  std::string run();
  bool created() const { return a_ != nullptr; }

 private:
  bool representable(const std::vector<uint64_t>& shape) const;
  std::string metadata() const;
  std::string codecs() const;
  std::string check_info(const std::vector<uint64_t>& shape, const std::set<std::vector<uint64_t>>& stored);
  std::string write(const Box& box, int salt, bool strided);
  std::string write_strings(const Box& box, int salt);
  std::string read_back(const Box& box, bool strided);
  std::string read_strings(const Box& box);
  std::string resize(std::vector<uint64_t>& shape, std::set<std::vector<uint64_t>>& stored);
  std::string append(std::vector<uint64_t>& shape, std::set<std::vector<uint64_t>>& stored);
  Box window(const std::vector<uint64_t>& shape) const;

  const Case& c_;
  std::string url_;
  size_t item_;
  Handle a_;
  Writes writes_;
};

// The rules of validate_layout: the shape's element count and (fixed-size
// types) byte size fit in 64 bits. The chunks here (at most 16 per axis)
// always fit in a buffer.
bool Checker::representable(const std::vector<uint64_t>& shape) const {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return true;
  u128 elements = 1;
  for (uint64_t e : shape) {
    elements *= e;
    if (elements > kMaxU64) return false;
  }
  return item_ == 0 || elements * item_ <= kMaxU64;
}

std::string Checker::codecs() const {
  const std::string compressor = c_.compressed ? R"(,{"name":"gzip","configuration":{"level":1}})" : "";
  const std::string plain = (item_ ? R"([{"name":"bytes","configuration":{"endian":"little"}})"
                                   : R"([{"name":"vlen-utf8","configuration":{}})") + compressor + "]";
  if (c_.inner.empty()) return plain;
  return R"([{"name":"sharding_indexed","configuration":{"chunk_shape":)" + list(c_.inner) + R"(,"codecs":)" + plain +
         R"(,"index_codecs":[{"name":"bytes","configuration":{"endian":"little"}},{"name":"crc32c"}],)"
         R"("index_location":"end"}}])";
}

std::string Checker::metadata() const {
  if (c_.zarr_format == 3) {
    return R"({"zarr_format":3,"node_type":"array","shape":)" + list(c_.shape) + R"(,"data_type":")" + c_.dtype +
           R"(","chunk_grid":{"name":"regular","configuration":{"chunk_shape":)" + list(c_.chunks) +
           R"(}},"chunk_key_encoding":{"name":"default","configuration":{"separator":"/"}},"fill_value":)" +
           (item_ ? "0" : "\"\"") + R"(,"codecs":)" + codecs() + "}";
  }
  const char* dtype = item_ == 0 ? "|O" : item_ == 1 ? "|u1" : item_ == 2 ? "<i2" : item_ == 4 ? "<i4" : "<f8";
  return R"({"zarr_format":2,"shape":)" + list(c_.shape) + R"(,"chunks":)" + list(c_.chunks) + R"(,"dtype":")" +
         dtype + R"(","compressor":)" + (c_.compressed ? R"({"id":"zlib","level":1})" : "null") +
         R"(,"fill_value":)" + (item_ ? "0" : "null") + R"(,"order":"C","filters":)" +
         (item_ ? "null" : R"([{"id":"vlen-utf8"}])") + "}";
}

Box Checker::window(const std::vector<uint64_t>& shape) const {
  std::vector<uint64_t> w(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) w[d] = 2 * c_.chunks[d];
  return box_near_end(shape, w, w);
}

std::string Checker::check_info(const std::vector<uint64_t>& shape, const std::set<std::vector<uint64_t>>& stored) {
  char* json = nullptr;
  const int status = zarr_info(a_, &json);
  if (status != ZARR_OK) return "zarr_info failed: " + status_text(status);
  const std::string info = json;
  zarr_free(json);
  u128 elements = 1, chunks = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    elements *= shape[d];
    chunks *= shape[d] / c_.chunks[d] + (shape[d] % c_.chunks[d] != 0);
  }
  const std::optional<uint64_t> nbytes = json_number(info, "nbytes");
  if (item_ && nbytes != static_cast<uint64_t>(elements * item_)) return "zarr_info's nbytes is wrong: " + info;
  if (json_number(info, "chunks_total") != static_cast<uint64_t>(chunks)) return "zarr_info's chunks_total is wrong: " + info;
  if (json_number(info, "chunks_initialized") != stored.size()) return "zarr_info's chunks_initialized is wrong: " + info;
  if (stored_chunks(a_, shape.size()) != stored) return "zarr_stored_chunks lists other chunks than were written";
  return "";
}

// One write of the box's elements (values of write number `salt`) from a
// guarded buffer; `strided`: every other item of it, the gaps holding junk.
std::string Checker::write(const Box& box, int salt, bool strided) {
  const size_t n = static_cast<size_t>(box.elements()), step = strided ? 2 : 1;
  std::vector<uint8_t> source(2 * kGuard + n * item_ * step, 0xEE);
  box.for_each([&](const std::vector<uint64_t>& g, size_t k) {
    element_bytes(g, salt, item_, source.data() + kGuard + k * item_ * step);
  });
  std::vector<int64_t> strides(box.count.size());
  int64_t s = static_cast<int64_t>(item_ * step);
  for (size_t d = strides.size(); d-- > 0;) {
    strides[d] = s;
    s *= static_cast<int64_t>(box.count[d]);
  }
  const size_t ndim = box.count.size();
  const int status = zarr_write_region_strided(a_, ndim, box.start.data(), box.count.data(),
                                               strided ? strides.data() : nullptr, source.data() + kGuard,
                                               n * item_ * step);
  if (status != ZARR_OK) return "writing " + list(box.start) + " + " + list(box.count) + ": " + status_text(status);
  writes_.boxes.push_back({box, salt});
  return "";
}

// Reads the box into a guarded buffer (`strided`: every other item of it)
// and checks every byte of it.
std::string Checker::read_back(const Box& box, bool strided) {
  const size_t n = static_cast<size_t>(box.elements()), step = strided ? 2 : 1;
  std::vector<uint8_t> out(2 * kGuard + n * item_ * step, kGuardByte);
  std::vector<int64_t> strides(box.count.size());
  int64_t s = static_cast<int64_t>(item_ * step);
  for (size_t d = strides.size(); d-- > 0;) {
    strides[d] = s;
    s *= static_cast<int64_t>(box.count[d]);
  }
  const std::string what = "reading " + list(box.start) + " + " + list(box.count) + (strided ? " (strided)" : "");
  const int status = zarr_read_region_strided(a_, box.count.size(), box.start.data(), box.count.data(),
                                              strided ? strides.data() : nullptr, out.data() + kGuard, n * item_ * step);
  if (status != ZARR_OK) return what + ": " + status_text(status);
  std::vector<uint8_t> expected(item_), used(out.size(), 0);
  std::string error;
  box.for_each([&](const std::vector<uint64_t>& g, size_t k) {
    const size_t at = kGuard + k * item_ * step;
    const int salt = writes_.salt_at(g);
    if (salt) element_bytes(g, salt, item_, expected.data()); else std::fill(expected.begin(), expected.end(), 0);
    if (error.empty() && std::memcmp(out.data() + at, expected.data(), item_) != 0) {
      error = what + ": element " + list(g) + " is not what was written";
    }
    std::fill(used.begin() + at, used.begin() + at + item_, 1);
  });
  for (size_t i = 0; i < out.size() && error.empty(); ++i) {
    if (!used[i] && out[i] != kGuardByte) error = what + ": byte " + std::to_string(i) + " of the buffer outside the region changed";
  }
  return error;
}

std::string Checker::write_strings(const Box& box, int salt) {
  std::vector<uint64_t> offsets(1, 0);
  std::vector<uint8_t> data(kGuard, kGuardByte);
  box.for_each([&](const std::vector<uint64_t>& g, size_t) {
    const std::string s = element_string(g, salt);
    data.insert(data.end(), s.begin(), s.end());
    offsets.push_back(data.size() - kGuard);
  });
  data.insert(data.end(), kGuard, kGuardByte);
  const int status = zarr_write_region_vlen(a_, box.count.size(), box.start.data(), box.count.data(), offsets.data(),
                                            offsets.size(), data.data() + kGuard, data.size() - 2 * kGuard);
  if (status != ZARR_OK) return "writing strings " + list(box.start) + " + " + list(box.count) + ": " + status_text(status);
  writes_.boxes.push_back({box, salt});
  return "";
}

std::string Checker::read_strings(const Box& box) {
  const size_t n = static_cast<size_t>(box.elements());
  const std::string what = "reading strings " + list(box.start) + " + " + list(box.count);
  std::vector<uint64_t> offsets(n + 5, 0xA5A5A5A5A5A5A5A5ull);  // 2 guard entries before, 2 after
  size_t needed = 0;
  int status = zarr_read_region_vlen(a_, box.count.size(), box.start.data(), box.count.data(), offsets.data() + 2,
                                     n + 1, nullptr, 0, &needed);
  if (status != ZARR_OK && status != ZARR_ERR_BUFFER_SIZE) return what + ": " + status_text(status);
  std::vector<uint8_t> data(2 * kGuard + needed, kGuardByte);
  status = zarr_read_region_vlen(a_, box.count.size(), box.start.data(), box.count.data(), offsets.data() + 2, n + 1,
                                 data.data() + kGuard, needed, &needed);
  if (status != ZARR_OK) return what + ": " + status_text(status);
  if (!guards_hold(data, kGuard, kGuard + needed)) return what + ": bytes outside the data buffer changed";
  for (size_t i : {size_t{0}, size_t{1}, n + 3, n + 4}) {
    if (offsets[i] != 0xA5A5A5A5A5A5A5A5ull) return what + ": entries outside the offsets buffer changed";
  }
  std::string error;
  box.for_each([&](const std::vector<uint64_t>& g, size_t k) {
    const int salt = writes_.salt_at(g);
    const std::string expected = salt ? element_string(g, salt) : "";
    const uint64_t begin = offsets[2 + k], end = offsets[3 + k];
    const bool same = begin <= end && end <= needed &&
                      std::string(reinterpret_cast<const char*>(data.data() + kGuard + begin), end - begin) == expected;
    if (!same && error.empty()) error = what + ": element " + list(g) + " is not what was written";
  });
  return error;
}

// A resize is accepted exactly when the new shape is representable; then
// the chunks wholly outside it are erased and no other; refused, it changes
// nothing.
std::string Checker::resize(std::vector<uint64_t>& shape, std::set<std::vector<uint64_t>>& stored) {
  const std::vector<uint64_t>& to = c_.resize_to;
  const int status = zarr_resize(a_, to.size(), to.data());
  if (representable(to) != (status == ZARR_OK)) {
    return "resize to " + list(to) + (status == ZARR_OK ? " was accepted" : " was refused: " + status_text(status));
  }
  if (status != ZARR_OK && status != ZARR_ERR_INVALID_ARGUMENT) return "resize refused with " + status_text(status);
  if (status != ZARR_OK) return "";
  shape = to;
  for (auto it = stored.begin(); it != stored.end();) {
    bool inside = true;
    for (size_t d = 0; d < to.size(); ++d) inside = inside && (*it)[d] < to[d] / c_.chunks[d] + (to[d] % c_.chunks[d] != 0);
    it = inside ? std::next(it) : stored.erase(it);
  }
  return "";
}

// One slice along axis 0, when it is small: accepted exactly when the grown
// shape is representable.
std::string Checker::append(std::vector<uint64_t>& shape, std::set<std::vector<uint64_t>>& stored) {
  Box slice{std::vector<uint64_t>(shape.size(), 0), shape};
  slice.start[0] = shape[0];
  slice.count[0] = 1;
  if (item_ == 0 || slice.elements() * item_ > 4096) return "";
  std::vector<uint64_t> grown = shape;
  const bool fits = shape[0] < UINT64_MAX;
  grown[0] = shape[0] + (fits ? 1 : 0);
  const size_t n = static_cast<size_t>(slice.elements());
  std::vector<uint8_t> data(2 * kGuard + n * item_, kGuardByte);
  slice.for_each([&](const std::vector<uint64_t>& g, size_t k) { element_bytes(g, 3, item_, data.data() + kGuard + k * item_); });
  const int status = zarr_append(a_, 0, slice.count.size(), slice.count.data(), data.data() + kGuard, n * item_);
  if ((fits && representable(grown)) != (status == ZARR_OK)) {
    return "append to " + list(shape) + (status == ZARR_OK ? " was accepted" : " was refused: " + status_text(status));
  }
  if (status != ZARR_OK) return status == ZARR_ERR_INVALID_ARGUMENT ? "" : "append refused with " + status_text(status);
  shape = grown;
  writes_.boxes.push_back({slice, 3});
  const std::set<std::vector<uint64_t>> added = chunks_of(slice, c_.chunks);
  stored.insert(added.begin(), added.end());
  return "";
}

std::string Checker::run() {
  int status = zarr_create(a_.out(), url_.c_str(), metadata().c_str());
  if (representable(c_.shape) != (status == ZARR_OK)) {
    return status == ZARR_OK ? "created an array whose shape cannot be represented"
                             : "refused a representable array: " + status_text(status);
  }
  if (status != ZARR_OK) {
    return status == ZARR_ERR_INVALID_METADATA && std::string(zarr_last_error()).find("'shape'") != std::string::npos
               ? ""
               : "refused without naming the shape: " + status_text(status);
  }
  std::vector<uint64_t> shape = c_.shape;
  const Box region = box_near_end(shape, c_.back, c_.count);
  std::set<std::vector<uint64_t>> stored = chunks_of(region, c_.chunks);
  std::string error = item_ ? write(region, 1, false) : write_strings(region, 1);
  if (error.empty() && item_) error = read_back(region, false);
  if (error.empty() && item_) error = write(region, 2, true);
  if (error.empty()) error = item_ ? read_back(window(shape), true) : read_strings(window(shape));
  if (error.empty()) error = check_info(shape, stored);
  if (error.empty() && !c_.resize_to.empty()) error = resize(shape, stored);
  if (error.empty() && c_.append) error = append(shape, stored);
  if (error.empty()) error = item_ ? read_back(window(shape), false) : read_strings(window(shape));
  if (error.empty()) error = check_info(shape, stored);
  return error;
}

// Bytes of a fuzzer's input, then zeros.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint64_t next() { return at_ < size_ ? data_[at_++] : 0; }
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

// An extent near one of the limits: 2^64 - 1 elements, the most elements of
// `item` bytes that 2^64 - 1 bytes hold (either side of it), 2^63, whole
// chunks up to that most, 2^32 (two such axes overflow), or small.
uint64_t extent_near_2_to_64(Reader& in, uint64_t chunk, size_t item) {
  const uint64_t delta = in.below(17);
  const uint64_t most = UINT64_MAX / std::max<size_t>(item, 1);
  switch (in.below(6)) {
    case 0: return UINT64_MAX - delta;
    case 1: return most + delta - 8;
    case 2: return (uint64_t{1} << 63) + delta - 8;
    case 3: return most / chunk * chunk - delta % 3;  // whole chunks, or one or two elements short
    case 4: return (uint64_t{1} << 32) + delta;
    default: return 1 + delta + in.below(24);
  }
}

}  // namespace

Outcome check(const Case& c, const std::string& url) {
  Checker checker(c, url);
  Outcome outcome;
  outcome.broken = checker.run();
  outcome.created = checker.created();
  return outcome;
}

Case case_from_bytes(const uint8_t* data, size_t size) {
  Reader in(data, size);
  static const char* const kTypes[] = {"uint8", "int16", "int32", "float64", "string"};
  Case c;
  c.zarr_format = in.below(2) ? 3 : 2;
  c.dtype = kTypes[in.below(5)];
  c.compressed = in.below(4) == 0;
  const bool sharded = c.zarr_format == 3 && in.below(2);
  const size_t ndim = 1 + in.below(3);
  const size_t big_axis = in.below(ndim);  // near 2^64; the others mostly small, else refusals prevail
  for (size_t d = 0; d < ndim; ++d) {
    uint64_t chunk = 1 + in.below(16);
    if (sharded) {
      const uint64_t inner = 1 + in.below(4);
      chunk = inner * (1 + in.below(4));
      c.inner.push_back(inner);
    }
    c.chunks.push_back(chunk);
    const bool big = d == big_axis || in.below(4) == 0;
    c.shape.push_back(big ? extent_near_2_to_64(in, chunk, item_size_of(c.dtype)) : 1 + in.below(40));
    c.back.push_back(1 + in.below(2 * chunk + 1));
    c.count.push_back(in.below(c.back.back() + 1));
  }
  if (in.below(2)) {
    for (size_t d = 0; d < ndim; ++d) {
      const uint64_t how = in.below(3);  // keep, near 2^64, small
      c.resize_to.push_back(how == 0 ? c.shape[d] : how == 1 ? extent_near_2_to_64(in, c.chunks[d], item_size_of(c.dtype)) : 1 + in.below(40));
    }
  }
  c.append = in.below(2);
  return c;
}

std::string describe(const Case& c) {
  return "v" + std::to_string(c.zarr_format) + " " + c.dtype + " shape " + list(c.shape) + " chunks " + list(c.chunks) +
         (c.inner.empty() ? "" : " inner " + list(c.inner)) + (c.compressed ? " compressed" : "") + " back " +
         list(c.back) + " count " + list(c.count) + (c.resize_to.empty() ? "" : " resize to " + list(c.resize_to)) +
         (c.append ? " append" : "");
}

}  // namespace index_arithmetic
