// The array codecs every format uses: "bytes" (array->bytes: the stored byte
// order) and "transpose" (array->array: the order of dimensions).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "codecs/codec.h"

namespace zarr {

// The "bytes" codec: the chunk's items laid out one after another in the byte
// order of `stored` (a v2 dtype as stored, or a v3 type with the codec's
// endian). `endian_big` is what the v3 configuration says (nullopt: absent,
// allowed for types without byte order).
std::shared_ptr<const ArrayToBytesCodec> make_bytes_layout_codec(const DataType& stored,
                                                                 std::optional<bool> endian_big);

// The "transpose" codec: encoded dimension i is decoded dimension order[i].
// order must be a permutation of 0..ndim-1 (ZARR_ERR_INVALID_METADATA naming
// the codec otherwise).
std::shared_ptr<const ArrayToArrayCodec> make_transpose_codec(std::vector<size_t> order, size_t ndim);

// Zarr v2's "order": "F": the chunk is stored with its dimensions reversed.
std::vector<size_t> fortran_order(size_t ndim);

}  // namespace zarr
