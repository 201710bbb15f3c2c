#include "array_walk.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <sstream>

#include "base/checked_math.h"
#include "cli_common.h"

namespace zarrtool {

void for_each_chunk_row(const Box& box, uint64_t row_height, const std::function<void(const Box&)>& visit) {
  if (box.count.empty()) {  // 0-d: one element, one piece
    visit(box);
    return;
  }
  // The box lies inside the array, so its end fits; the next chunk boundary
  // may not (the last chunk of an axis of 2^64 - 1): each piece's extent is
  // what is left of its chunk row, up to the box's end.
  const uint64_t end = box.start[0] + box.count[0];
  uint64_t row = box.start[0];
  while (row < end) {
    Box piece = box;
    piece.start[0] = row;
    piece.count[0] = zarr::extent_below(row, row_height - row % row_height, end);
    visit(piece);
    row += piece.count[0];
  }
}

uint64_t chunk_count(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks) {
  return product(zarr::ceil_div(shape, chunks));  // at most the element count, which fits
}

ChunkAt chunk_at(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks, uint64_t linear) {
  const size_t ndim = shape.size();
  ChunkAt chunk{std::vector<uint64_t>(ndim), Box{std::vector<uint64_t>(ndim), std::vector<uint64_t>(ndim)}};
  // C order: the last dimension varies fastest.
  for (size_t d = ndim; d-- > 0;) {
    const uint64_t per_dim = zarr::ceil_div(shape[d], chunks[d]);
    chunk.index[d] = linear % per_dim;
    linear /= per_dim;
    chunk.box.start[d] = chunk.index[d] * chunks[d];  // inside the shape
    chunk.box.count[d] = zarr::extent_below(chunk.box.start[d], chunks[d], shape[d]);
  }
  return chunk;
}

void for_each_chunk(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks,
                    const std::function<void(const std::vector<uint64_t>&, const Box&)>& visit) {
  const uint64_t total = chunk_count(shape, chunks);
  for (uint64_t i = 0; i < total; ++i) {
    const ChunkAt chunk = chunk_at(shape, chunks, i);
    visit(chunk.index, chunk.box);
  }
}

ElementFormatter::ElementFormatter(std::string data_type, size_t item_size)
    : type_(std::move(data_type)), item_size_(item_size) {}

template <typename T>
static T load(const unsigned char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// IEEE half precision to float, by hand: C++17 has no half type.
static float half_to_float(uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
}

// Shortest text that reads back as the same value, as Python's repr gives.
template <typename F>
static std::string float_text(F value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  for (int precision = 1; precision <= 17; ++precision) {
    std::ostringstream out;
    out.precision(precision);
    out << value;
    std::istringstream back(out.str());
    F parsed{};
    back >> parsed;
    if (parsed == value) return out.str();
  }
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

template <typename F>
static std::string complex_text(const unsigned char* p) {
  F re = load<F>(p), im = load<F>(p + sizeof(F));
  std::string imag = float_text(im);
  if (imag[0] != '-') imag = "+" + imag;
  return "(" + float_text(re) + imag + "j)";
}

static std::string hex_text(const unsigned char* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string text = "0x";
  for (size_t i = 0; i < n; ++i) {
    text += digits[p[i] >> 4];
    text += digits[p[i] & 15];
  }
  return text;
}

std::string ElementFormatter::format(const unsigned char* p) const {
  const std::string& t = type_;
  if (t == "bool") return *p ? "true" : "false";
  if (t == "int8") return std::to_string(load<int8_t>(p));
  if (t == "uint8") return std::to_string(load<uint8_t>(p));
  if (t == "int16") return std::to_string(load<int16_t>(p));
  if (t == "uint16") return std::to_string(load<uint16_t>(p));
  if (t == "int32") return std::to_string(load<int32_t>(p));
  if (t == "uint32") return std::to_string(load<uint32_t>(p));
  if (t == "int64") return std::to_string(load<int64_t>(p));
  if (t == "uint64") return std::to_string(load<uint64_t>(p));
  if (t == "float16") return float_text(half_to_float(load<uint16_t>(p)));
  if (t == "float32") return float_text(load<float>(p));
  if (t == "float64") return float_text(load<double>(p));
  if (t == "complex64") return complex_text<float>(p);
  if (t == "complex128") return complex_text<double>(p);
  return hex_text(p, item_size_);
}

}  // namespace zarrtool

#include "cli_common.h"

namespace zarrtool {

std::string box_text(const Box& box) {
  std::string text = "[";
  for (size_t d = 0; d < box.start.size(); ++d) {
    if (d) text += ", ";
    text += std::to_string(box.start[d]) + ":" + std::to_string(box.start[d] + box.count[d]);
  }
  return text + "]";
}

static PieceData read_vlen_piece(zarr_array* array, const Box& box, const std::string& what) {
  PieceData piece;
  const size_t ndim = box.count.size();
  const uint64_t elements = product(box.count);
  buffer_bytes(elements, sizeof(uint64_t), what + " " + box_text(box));  // then one offset more fits too
  piece.offsets.resize(elements + 1);
  size_t needed = 0;
  // First call sizes the data buffer; ZARR_ERR_BUFFER_SIZE is expected then.
  int status = zarr_read_region_vlen(array, ndim, box.start.data(), box.count.data(), piece.offsets.data(),
                                     piece.offsets.size(), nullptr, 0, &needed);
  if (status != ZARR_ERR_BUFFER_SIZE) check(status, what + " " + box_text(box));
  if (status == ZARR_OK) return piece;
  piece.bytes.resize(needed);
  check(zarr_read_region_vlen(array, ndim, box.start.data(), box.count.data(), piece.offsets.data(),
                              piece.offsets.size(), piece.bytes.data(), piece.bytes.size(), &needed),
        what + " " + box_text(box));
  return piece;
}

PieceData read_piece(zarr_array* array, const Box& box, const std::string& what) {
  const size_t item_size = zarr_item_size(array);
  if (item_size == 0) return read_vlen_piece(array, box, what);
  PieceData piece;
  piece.item_size = item_size;
  piece.bytes.resize(buffer_bytes(product(box.count), item_size, what + " " + box_text(box)));
  check(zarr_read_region(array, box.count.size(), box.start.data(), box.count.data(), piece.bytes.data(),
                         piece.bytes.size()),
        what + " " + box_text(box));
  return piece;
}

}  // namespace zarrtool
