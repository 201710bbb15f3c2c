// The registry's "reshape" codec (array->array): the chunk's elements keep
// their C order and only the shape changes, so encoding and decoding leave
// the bytes alone. The configuration's "shape" gives each output dimension
// as a size, a list of input dimensions whose sizes multiply, or -1 (once:
// whatever makes the element counts equal).
#include <optional>

#include "base/checked_math.h"
#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"

namespace zarr::codecs {

namespace {

class ReshapeCodec final : public ArrayToArrayCodec {
 public:
  ReshapeCodec(std::string config_json, std::vector<uint64_t> shape)
      : config_json_(std::move(config_json)), shape_(std::move(shape)) {}

  std::string name() const override { return "reshape"; }
  std::string v3_config_json() const override {
    return "{\"name\":\"reshape\",\"configuration\":{\"shape\":" + config_json_ + "}}";
  }
  ArrayRepr encoded_repr(const ArrayRepr& decoded) const override {
    ArrayRepr encoded = decoded;
    encoded.shape = shape_;
    return encoded;
  }
  Bytes encode(Bytes chunk, const ArrayRepr&) const override { return chunk; }
  Bytes decode(Bytes chunk, const ArrayRepr&) const override { return chunk; }

 private:
  std::string config_json_;  // "shape" as given, written back unchanged
  std::vector<uint64_t> shape_;
};

// One item of "shape": a size (-1: to be determined) or a list of input dimensions.
struct OutputDim {
  std::optional<uint64_t> size;       // nullopt: -1
  std::vector<uint64_t> input_dims;   // when given as a list
  bool is_list = false;
};

uint64_t product(const std::vector<uint64_t>& shape, size_t begin, size_t end, const std::string& where) {
  uint64_t p = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i) {
    std::optional<uint64_t> next = checked_mul<uint64_t>(p, shape[i]);
    if (!next) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'shape': the element count overflows");
    p = *next;
  }
  return p;
}

std::vector<OutputDim> parse_dims(const rapidjson::Value& shape, const std::vector<uint64_t>& input,
                                  const std::string& where) {
  if (!shape.IsArray()) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'shape' must be a list");
  std::vector<OutputDim> dims;
  std::optional<uint64_t> last_input;  // input dimensions strictly increase over the whole list
  bool have_auto = false;
  for (const rapidjson::Value& item : shape.GetArray()) {
    OutputDim d;
    const std::string at = where + ": field 'shape' item " + std::to_string(dims.size());
    if (item.IsArray()) {
      d.is_list = true;
      d.input_dims = json::get_uint_list(item, "shape", at);
      for (uint64_t k : d.input_dims) {
        if (k >= input.size()) {
          fail(ZARR_ERR_INVALID_METADATA, at + ": input dimension " + std::to_string(k) + " of a " +
                                              std::to_string(input.size()) + "-dimensional chunk");
        }
        if (last_input && k <= *last_input) {
          fail(ZARR_ERR_INVALID_METADATA, at + ": input dimensions must increase strictly over the whole "
                                               "list (reshape never transposes)");
        }
        last_input = k;
      }
      std::vector<uint64_t> sizes;
      for (uint64_t k : d.input_dims) sizes.push_back(input[k]);
      d.size = product(sizes, 0, sizes.size(), at);
    } else if (item.IsInt64() && item.GetInt64() == -1) {
      if (have_auto) fail(ZARR_ERR_INVALID_METADATA, at + ": -1 may occur only once");
      have_auto = true;
    } else if (item.IsUint64() && item.GetUint64() > 0) {
      d.size = item.GetUint64();
    } else {
      fail(ZARR_ERR_INVALID_METADATA, at + " must be a positive integer, -1 or a list of input dimensions, got " +
                                          json::to_string(item));
    }
    dims.push_back(d);
  }
  return dims;
}

// The output shape, -1 resolved, every constraint of the README checked.
std::vector<uint64_t> output_shape(const std::vector<OutputDim>& dims, const std::vector<uint64_t>& input,
                                   const std::string& where) {
  const uint64_t total = product(input, 0, input.size(), where);
  std::vector<uint64_t> out;
  uint64_t known = 1;
  for (const OutputDim& d : dims) {
    out.push_back(d.size.value_or(1));
    known = product({known, out.back()}, 0, 2, where);
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].size) continue;
    if (known == 0 || total % known != 0) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field 'shape': no size for -1 gives the chunk's " +
                                          std::to_string(total) + " elements");
    }
    out[i] = total / known;
    known = total;
  }
  if (known != total) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'shape' gives " + std::to_string(known) +
                                        " elements, the chunk has " + std::to_string(total));
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!dims[i].is_list || dims[i].input_dims.empty()) continue;
    const std::vector<uint64_t>& k = dims[i].input_dims;
    if (product(out, 0, i, where) != product(input, 0, k.front(), where) ||
        product(out, i + 1, out.size(), where) != product(input, k.back() + 1, input.size(), where)) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field 'shape' item " + std::to_string(i) +
                                          ": the dimensions before and after it do not match those around its "
                                          "input dimensions");
    }
  }
  return out;
}

}  // namespace

V3Codec make_reshape_v3(const V3CodecRequest& request) {
  const std::string& where = request.where;
  if (!request.configuration) fail(ZARR_ERR_INVALID_METADATA, where + ": 'configuration' is required");
  json::check_members(*request.configuration, {"shape"}, ZARR_ERR_INVALID_METADATA, where, "configuration member");
  const rapidjson::Value& shape = json::require(*request.configuration, "shape", where);
  const std::vector<uint64_t>& input = request.decoded.shape;
  std::vector<uint64_t> out = output_shape(parse_dims(shape, input, where), input, where);
  return V3Codec{std::make_shared<ReshapeCodec>(json::to_string(shape), std::move(out)), nullptr, nullptr};
}

}  // namespace zarr::codecs
