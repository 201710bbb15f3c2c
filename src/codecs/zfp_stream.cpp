#include "codecs/zfp_stream.h"

#include <zfp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "base/error.h"

namespace zarr::codecs::zfp {

namespace {

struct FieldFree {
  void operator()(zfp_field* f) const { zfp_field_free(f); }
};
struct StreamClose {
  void operator()(zfp_stream* s) const { zfp_stream_close(s); }
};
struct BitsClose {
  void operator()(bitstream* b) const { stream_close(b); }
};
using FieldPtr = std::unique_ptr<zfp_field, FieldFree>;
using StreamPtr = std::unique_ptr<zfp_stream, StreamClose>;
using BitsPtr = std::unique_ptr<bitstream, BitsClose>;

static_assert(kMaxBlockBits == ZFP_MAX_BITS, "zfp_stream.h follows zfp.h");
constexpr size_t kWord = 8;  // zfp's bit stream reads and writes 64-bit words

// zfp's sizes are [nx, ny, nz, nw]: the C-order shape reversed.
FieldPtr make_field(void* data, const Field& f) {
  const zfp_type t = static_cast<zfp_type>(f.scalar);
  const std::vector<size_t>& s = f.shape;
  switch (s.size()) {
    case 1: return FieldPtr(zfp_field_1d(data, t, s[0]));
    case 2: return FieldPtr(zfp_field_2d(data, t, s[1], s[0]));
    case 3: return FieldPtr(zfp_field_3d(data, t, s[2], s[1], s[0]));
    case 4: return FieldPtr(zfp_field_4d(data, t, s[3], s[2], s[1], s[0]));
    default: fail(ZARR_ERR_INTERNAL, "zfp: a field has 1 to 4 dimensions");
  }
}

// zfp's own checks, as a message: false when zfp refuses the mode.
bool apply_mode(zfp_stream* zs, const Mode& m, const Field& f) {
  switch (m.kind) {
    case Mode::Reversible: zfp_stream_set_reversible(zs); return true;
    case Mode::Expert: return zfp_stream_set_params(zs, m.minbits, m.maxbits, m.maxprec, m.minexp) != 0;
    case Mode::FixedRate:
      return zfp_stream_set_rate(zs, m.value, static_cast<zfp_type>(f.scalar), static_cast<unsigned>(f.shape.size()),
                                 zfp_false) > 0;
    case Mode::FixedPrecision: zfp_stream_set_precision(zs, static_cast<unsigned>(m.value)); return true;
    case Mode::FixedAccuracy: zfp_stream_set_accuracy(zs, m.value); return true;
  }
  return false;
}

StreamPtr open_stream(const Mode& mode, const Field& field, const std::string& where) {
  StreamPtr zs(zfp_stream_open(nullptr));
  if (!zs) fail(ZARR_ERR_NO_MEMORY, where + ": zfp could not open a stream");
  if (!apply_mode(zs.get(), mode, field)) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": zfp refuses these parameters (expert mode needs "
                                            "minbits <= maxbits, maxprec 1..64 and minexp >= -1074; a rate must be > 0)");
  }
  return zs;
}

size_t blocks_of(const Field& f) {
  size_t blocks = 1;
  for (size_t n : f.shape) blocks *= (n + 3) / 4;
  return blocks;
}

// The most bytes zfp's decoder can read for `field` in the stream's mode,
// from `header_bits` on: per block its bit budget (at least minbits: short
// blocks are padded to it; at most maxbits, and twice zfp's own bound of
// what an encoder writes, since a corrupt stream can make the decoder read
// a group-test bit for each value of each bit plane besides the value
// bits), and a word of slack for the word-wide reads.
size_t most_read(zfp_stream* zs, zfp_field* field, const Field& f) {
  unsigned minbits = 0, maxbits = 0;
  zfp_stream_params(zs, &minbits, &maxbits, nullptr, nullptr);
  const size_t encoder_bound = zfp_stream_maximum_size(zs, field);
  const size_t blocks = blocks_of(f);
  const size_t budget = blocks * (std::max<size_t>(minbits, 1) + kWord * 8) / 8;
  return std::min<size_t>(blocks * (size_t{maxbits} / 8 + 1), 2 * encoder_bound) + budget + 4 * kWord;
}

// The stored bytes copied into a word-aligned buffer, zero-padded to `size`.
Bytes padded_copy(ByteView stored, size_t size) {
  Bytes buf(std::max(stored.size, size) / kWord * kWord + 2 * kWord, 0);
  if (stored.size) std::memcpy(buf.data(), stored.data, stored.size);
  return buf;
}

// A stream whose blocks are at least minbits long (fixed rate: exactly)
// must hold them all, or the decoder would skip past its end.
void check_min_length(zfp_stream* zs, const Field& f, size_t header_bits, ByteView stored, const std::string& codec) {
  unsigned minbits = 0;
  zfp_stream_params(zs, &minbits, nullptr, nullptr, nullptr);
  const double need_bits = static_cast<double>(header_bits) + static_cast<double>(blocks_of(f)) * minbits;
  if (static_cast<double>(stored.size) * 8 < need_bits) {
    fail(ZARR_ERR_CODEC, "codec '" + codec + "': stream is truncated (" + std::to_string(stored.size) +
                             " bytes, its mode needs at least " + std::to_string(static_cast<uint64_t>(need_bits / 8)) + ")");
  }
}

// Decodes the field from the stream's current position in `buf` (stored,
// padded by most_read). libzfp is not instrumented by the sanitizers, so the
// decoder's final position is checked against the padded buffer too: past
// it would mean most_read's bound is wrong (ZARR_ERR_INTERNAL, which the
// hostile-stream tests would report).
void run_decoder(zfp_stream* zs, zfp_field* field, ByteView stored, const Bytes& buf, const std::string& codec) {
  const size_t used = zfp_decompress(zs, field);
  if (used == 0) fail(ZARR_ERR_CODEC, "codec '" + codec + "': zfp could not decode the stream");
  if (used > buf.size()) {
    fail(ZARR_ERR_INTERNAL, "codec '" + codec + "': zfp read " + std::to_string(used) + " bytes of a " +
                                std::to_string(buf.size()) + "-byte padded buffer");
  }
  if (used > (stored.size + kWord - 1) / kWord * kWord) {
    fail(ZARR_ERR_CODEC, "codec '" + codec + "': stream is truncated (" + std::to_string(stored.size) +
                             " bytes, decoding needed " + std::to_string(used) + ")");
  }
}

}  // namespace

size_t scalar_size(Scalar s) { return s == Scalar::Int32 || s == Scalar::Float ? 4 : 8; }

size_t Field::elements() const {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

std::vector<size_t> field_shape(const std::vector<uint64_t>& chunk_shape, const std::string& where) {
  if (chunk_shape.empty()) return {1};
  if (chunk_shape.size() > 4) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": zfp compresses chunks of 1 to 4 dimensions, not " +
                                   std::to_string(chunk_shape.size()) +
                                   " (a \"reshape\" codec before it can drop axes of size 1)");
  }
  return std::vector<size_t>(chunk_shape.begin(), chunk_shape.end());
}

void check_mode(const Mode& mode, const Field& field, const std::string& where) {
  open_stream(mode, field, where);
}

Bytes compress(const void* data, const Field& field, const Mode& mode, bool header) {
  if (field.elements() == 0) return {};
  FieldPtr f = make_field(const_cast<void*>(data), field);
  if (!f) fail(ZARR_ERR_NO_MEMORY, "zfp: could not open a field");
  StreamPtr zs = open_stream(mode, field, "zfp");
  Bytes out(zfp_stream_maximum_size(zs.get(), f.get()) + kWord);
  BitsPtr bits(stream_open(out.data(), out.size()));
  if (!bits) fail(ZARR_ERR_NO_MEMORY, "zfp: could not open a bit stream");
  zfp_stream_set_bit_stream(zs.get(), bits.get());
  zfp_stream_rewind(zs.get());
  if (header && zfp_write_header(zs.get(), f.get(), ZFP_HEADER_FULL) == 0) {
    fail(ZARR_ERR_CODEC, "zfp: could not write the stream header");
  }
  const size_t size = zfp_compress(zs.get(), f.get());
  if (size == 0) fail(ZARR_ERR_CODEC, "zfp: compression failed");
  out.resize(size);
  return out;
}

void decompress(ByteView stored, const Field& field, const Mode& mode, void* out, const std::string& codec) {
  if (field.elements() == 0) return;
  FieldPtr f = make_field(out, field);
  if (!f) fail(ZARR_ERR_NO_MEMORY, "zfp: could not open a field");
  StreamPtr zs = open_stream(mode, field, "codec '" + codec + "'");
  check_min_length(zs.get(), field, 0, stored, codec);
  Bytes buf = padded_copy(stored, most_read(zs.get(), f.get(), field));
  BitsPtr bits(stream_open(buf.data(), buf.size()));
  if (!bits) fail(ZARR_ERR_NO_MEMORY, "zfp: could not open a bit stream");
  zfp_stream_set_bit_stream(zs.get(), bits.get());
  zfp_stream_rewind(zs.get());
  run_decoder(zs.get(), f.get(), stored, buf, codec);
}

namespace {

// The field a header describes, checked against what the array expects.
Field header_field(const zfp_field* f, Scalar scalar, size_t elements, const std::string& codec) {
  if (zfp_field_type(f) != static_cast<zfp_type>(scalar)) {
    fail(ZARR_ERR_CODEC, "codec '" + codec + "': the stream holds zfp type " + std::to_string(zfp_field_type(f)) +
                             ", the array's data type is zfp type " + std::to_string(static_cast<int>(scalar)));
  }
  size_t sizes[4] = {0, 0, 0, 0};
  zfp_field_size(f, sizes);
  const unsigned dims = zfp_field_dimensionality(f);
  Field field{scalar, {}};
  size_t product = 1;
  for (unsigned i = dims; i-- > 0;) {
    if (sizes[i] == 0 || sizes[i] > elements || product > elements / sizes[i]) product = elements + 1;
    else product *= sizes[i];
    field.shape.push_back(sizes[i]);
  }
  if (dims < 1 || dims > 4 || product != elements) {
    fail(ZARR_ERR_CODEC, "codec '" + codec + "': the stream's header describes a field of other than the chunk's " +
                             std::to_string(elements) + " values");
  }
  return field;
}

}  // namespace

std::vector<size_t> decompress_with_header(ByteView stored, Scalar scalar, size_t elements, void* out,
                                           const std::string& codec) {
  Bytes buf = padded_copy(stored, ZFP_HEADER_MAX_BITS / 8 + kWord);
  BitsPtr bits(stream_open(buf.data(), buf.size()));
  StreamPtr zs(zfp_stream_open(bits.get()));
  FieldPtr f(zfp_field_alloc());
  if (!bits || !zs || !f) fail(ZARR_ERR_NO_MEMORY, "zfp: could not open a field or bit stream");
  const size_t header_bits = zfp_read_header(zs.get(), f.get(), ZFP_HEADER_FULL);
  if (header_bits == 0 || header_bits > stored.size * 8) {
    fail(ZARR_ERR_CODEC, "codec '" + codec + "': the stream does not start with a zfp header (magic, field, mode)");
  }
  const Field field = header_field(f.get(), scalar, elements, codec);
  check_min_length(zs.get(), field, header_bits, stored, codec);
  // Again over a copy padded for the whole field, now that its size is known.
  buf = padded_copy(stored, most_read(zs.get(), f.get(), field));
  bits.reset(stream_open(buf.data(), buf.size()));
  if (!bits) fail(ZARR_ERR_NO_MEMORY, "zfp: could not open a bit stream");
  zfp_stream_set_bit_stream(zs.get(), bits.get());
  zfp_stream_rewind(zs.get());
  zfp_read_header(zs.get(), f.get(), ZFP_HEADER_FULL);
  zfp_field_set_pointer(f.get(), out);
  run_decoder(zs.get(), f.get(), stored, buf, codec);
  return field.shape;
}

}  // namespace zarr::codecs::zfp
