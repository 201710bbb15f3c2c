// The zfp library (Debian's libzfp-dev) as the two codecs that use it share
// it: the registry's "zfp" (zfp_codec.cpp: a headerless stream, its mode in
// the metadata) and numcodecs' "zfpy" (zfpy_codec.cpp: zfpy's compress_numpy
// stream, a full zfp header before the same kind of stream).
//
// zfp's bit stream reader has no end: it reads whole 64-bit words wherever
// the decoder's bit position leads, even past the buffer. Every decode here
// therefore runs on an aligned copy of the stored bytes, zero-padded to what
// the decoder can consume at most for the field and mode (each block stops
// at the mode's bit budget), after checking that a stream whose blocks have
// a minimum size (fixed rate) is long enough to hold them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/bytes.h"

namespace zarr::codecs::zfp {

// zfp's scalar types (the values of zfp_type).
enum class Scalar { Int32 = 1, Int64 = 2, Float = 3, Double = 4 };
size_t scalar_size(Scalar s);
// The most bits a block can take (ZFP_MAX_BITS: 4-d doubles, reversible).
inline constexpr unsigned kMaxBlockBits = 16658;

// A compression mode. `value` is the rate (FixedRate), precision
// (FixedPrecision) or tolerance (FixedAccuracy); Expert uses the four
// parameters of zfp_stream_set_params.
struct Mode {
  enum Kind { Reversible, Expert, FixedRate, FixedPrecision, FixedAccuracy } kind = Reversible;
  double value = 0;
  unsigned minbits = 0, maxbits = 0, maxprec = 0;
  int minexp = 0;
};

// A zfp field: its scalar type and sizes in C order ([ny, nx], 1 to 4 of them).
struct Field {
  Scalar scalar = Scalar::Float;
  std::vector<size_t> shape;
  size_t elements() const;
};

// The field of a chunk of `chunk_shape` (C order): a 0-d chunk is [1]; more
// than four dimensions is ZARR_ERR_UNSUPPORTED naming `where` (the README of
// the registry's zfp: a reshape codec before it can drop singleton axes).
std::vector<size_t> field_shape(const std::vector<uint64_t>& chunk_shape, const std::string& where);

// Checks `mode` as zfp would apply it to `field` (ZARR_ERR_INVALID_METADATA
// naming `where` and the parameter zfp refuses).
void check_mode(const Mode& mode, const Field& field, const std::string& where);

// `data` (field.elements() scalars, native byte order) compressed; with
// `header`, zfp's full header (magic, field, mode) comes first.
Bytes compress(const void* data, const Field& field, const Mode& mode, bool header);

// A headerless stream decoded into `out` (field.elements() scalars). Corrupt
// or truncated input: ZARR_ERR_CODEC naming `codec`.
void decompress(ByteView stored, const Field& field, const Mode& mode, void* out, const std::string& codec);

// A stream with a full header: the field it describes (type and shape) must
// have the scalar type `scalar` and `elements` values, else ZARR_ERR_CODEC
// naming `codec`; decoded into `out`. Returns the header's field shape.
std::vector<size_t> decompress_with_header(ByteView stored, Scalar scalar, size_t elements, void* out,
                                           const std::string& codec);

}  // namespace zarr::codecs::zfp
