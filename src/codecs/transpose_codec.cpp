// The v3 "transpose" codec, also Zarr v2's "order": "F".
#include <algorithm>
#include <numeric>

#include "base/error.h"
#include "base/json.h"
#include "base/strided_copy.h"
#include "codecs/array_codecs.h"
#include "codecs/builtin_codecs.h"

namespace zarr {

namespace {

class TransposeCodec final : public ArrayToArrayCodec {
 public:
  explicit TransposeCodec(std::vector<size_t> order) : order_(std::move(order)) {}

  std::string name() const override { return "transpose"; }

  std::string v3_config_json() const override {
    std::string out = "{\"name\":\"transpose\",\"configuration\":{\"order\":[";
    for (size_t i = 0; i < order_.size(); ++i) out += (i ? "," : "") + std::to_string(order_[i]);
    return out + "]}}";
  }

  ArrayRepr encoded_repr(const ArrayRepr& decoded) const override {
    ArrayRepr encoded = decoded;
    for (size_t i = 0; i < order_.size(); ++i) encoded.shape[i] = decoded.shape[order_[i]];
    return encoded;
  }

  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override { return permute(chunk, decoded, true); }
  Bytes decode(Bytes chunk, const ArrayRepr& decoded) const override { return permute(chunk, decoded, false); }

 private:
  // Walk the encoded (permuted) shape in C order; a step along encoded
  // dimension i is a step along decoded dimension order_[i].
  Bytes permute(const Bytes& in, const ArrayRepr& decoded, bool encoding) const {
    const size_t item = decoded.dtype.item_size();
    ArrayRepr encoded = encoded_repr(decoded);
    std::vector<int64_t> decoded_strides = c_order_strides(decoded.shape, item);
    std::vector<int64_t> encoded_strides = c_order_strides(encoded.shape, item);
    std::vector<int64_t> walk(order_.size());
    for (size_t i = 0; i < order_.size(); ++i) walk[i] = decoded_strides[order_[i]];
    if (in.size() != decoded.byte_size()) {
      fail(ZARR_ERR_CODEC, "codec 'transpose': chunk is " + std::to_string(in.size()) + " bytes, expected " +
                               std::to_string(decoded.byte_size()));
    }
    Bytes out(in.size());
    if (encoding) {
      strided_copy(encoded.shape, item, in.data(), walk, out.data(), encoded_strides);
    } else {
      strided_copy(encoded.shape, item, in.data(), encoded_strides, out.data(), walk);
    }
    return out;
  }

  std::vector<size_t> order_;
};

}  // namespace

std::shared_ptr<const ArrayToArrayCodec> make_transpose_codec(std::vector<size_t> order, size_t ndim) {
  std::vector<size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<size_t> identity(ndim);
  std::iota(identity.begin(), identity.end(), 0);
  if (sorted != identity) {
    fail(ZARR_ERR_INVALID_METADATA, "codec 'transpose': field 'order' must be a permutation of 0.." +
                                        std::to_string(ndim == 0 ? 0 : ndim - 1) + " for a " + std::to_string(ndim) +
                                        "-dimensional array");
  }
  return std::make_shared<TransposeCodec>(std::move(order));
}

std::vector<size_t> fortran_order(size_t ndim) {
  std::vector<size_t> order(ndim);
  for (size_t i = 0; i < ndim; ++i) order[i] = ndim - 1 - i;
  return order;
}

namespace codecs {

namespace {

// {"order": [permutation]}, or "C"/"F" as early v3 drafts wrote it.
std::vector<size_t> transpose_order(const V3CodecRequest& request, size_t ndim) {
  if (!request.configuration) fail(ZARR_ERR_INVALID_METADATA, request.where + ": 'configuration' is required");
  const rapidjson::Value& order = json::require(*request.configuration, "order", request.where);
  if (order.IsString()) {
    const std::string o = json::text(order);
    if (o == "F") return fortran_order(ndim);
    if (o != "C") fail(ZARR_ERR_INVALID_METADATA, request.where + ": field 'order' must be a permutation list");
    std::vector<size_t> identity(ndim);
    std::iota(identity.begin(), identity.end(), size_t{0});
    return identity;
  }
  const std::vector<uint64_t> list = json::get_uint_list(order, "order", request.where);
  return std::vector<size_t>(list.begin(), list.end());
}

}  // namespace

V3Codec make_transpose_v3(const V3CodecRequest& request) {
  const size_t ndim = request.decoded.shape.size();
  try {
    return V3Codec{make_transpose_codec(transpose_order(request, ndim), ndim), nullptr, nullptr};
  } catch (const Error& e) {
    fail(e.code(), request.where + ": " + e.what());
  }
}

}  // namespace codecs

}  // namespace zarr
