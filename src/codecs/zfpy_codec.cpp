// numcodecs' "zfpy" (v2 compressor "zfpy", v3 "numcodecs.zfpy", an
// array->bytes codec in zarr-python 3): the stream zfpy's compress_numpy
// writes, zfp's full header (magic, field type and sizes, mode) then the
// compressed field. Configuration as numcodecs gives it: "mode" 2 (fixed
// rate, "rate"), 3 (fixed precision, "precision") or 4 (fixed accuracy,
// "tolerance", the default), the unused two -1, and "compression_kwargs"
// (numcodecs 0.11 and later write it; it is derived from the others and
// ignored when read). As compress_numpy does, a mode whose parameter is
// negative compresses reversibly; mode 5 (reversible) is read and written
// too, though numcodecs itself can only decode it. Types: zfpy's float32,
// float64, int32 and int64 in native byte order. The field is the chunk's
// shape when the codec sees the chunk itself (v3, or a v2 compressor without
// filters in order "C"), else one flat axis, which numcodecs decodes and
// zarr-python reshapes alike. Decoding trusts only the header's type and
// element count, checked against the array's.
#include <cmath>

#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/zfp_stream.h"
#include "dtype/byte_order.h"

namespace zarr::codecs {

namespace {

const std::string kId = "zfpy";

// A parameter as written: its JSON text (numcodecs' -1 stays an integer).
struct ZfpyParams {
  int64_t mode = 4;
  std::string tolerance = "-1", rate = "-1", precision = "-1";
  zfp::Mode zfp_mode;
};

std::optional<zfp::Scalar> scalar_of_typestr(const std::string& typestr) {
  const char native = dtype_detail::host_is_big_endian() ? '>' : '<';
  if (typestr.size() != 3 || (typestr[0] != native && typestr[0] != '=')) return std::nullopt;
  const std::string t = typestr.substr(1);
  if (t == "f4") return zfp::Scalar::Float;
  if (t == "f8") return zfp::Scalar::Double;
  if (t == "i4") return zfp::Scalar::Int32;
  if (t == "i8") return zfp::Scalar::Int64;
  return std::nullopt;
}

// The stream of `data` (scalars of `scalar`), a field of `shape` when that
// holds exactly the data's values and has 1 to 4 axes, else one flat axis.
Bytes encode_zfpy(ByteView data, zfp::Scalar scalar, const std::vector<uint64_t>& shape, const zfp::Mode& mode) {
  const size_t size = zfp::scalar_size(scalar);
  if (data.size % size != 0) {
    fail(ZARR_ERR_CODEC, "codec 'zfpy': " + std::to_string(data.size) + " bytes are not whole " +
                             std::to_string(size) + "-byte values");
  }
  zfp::Field field{scalar, {data.size / size}};
  uint64_t product = 1;
  for (uint64_t n : shape) product *= n;
  if (!shape.empty() && shape.size() <= 4 && product == field.shape[0]) field.shape.assign(shape.begin(), shape.end());
  if (field.shape[0] == 0) return {};
  return zfp::compress(data.data, field, mode, true);
}

Bytes decode_zfpy(ByteView encoded, zfp::Scalar scalar, size_t expected_size) {
  const size_t size = zfp::scalar_size(scalar);
  if (expected_size % size != 0) {
    fail(ZARR_ERR_CODEC, "codec 'zfpy': the decoded size " + std::to_string(expected_size) + " is not whole " +
                             std::to_string(size) + "-byte values");
  }
  Bytes out(expected_size);
  if (expected_size == 0) return out;
  zfp::decompress_with_header(encoded, scalar, expected_size / size, out.data(), kId);
  return out;
}

// A number member, or -1 when absent; its JSON text is kept for writing back.
std::string param_text(const rapidjson::Value& c, const char* name, bool integer, const std::string& where) {
  const rapidjson::Value* v = json::find(c, name);
  if (!v) return "-1";
  if (integer ? !v->IsInt64() : !(v->IsNumber() && std::isfinite(v->GetDouble()))) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field '" + name + "' must be " + (integer ? "an integer" : "a number") +
                                        ", got " + json::to_string(*v));
  }
  return json::to_string(*v);
}

ZfpyParams parse_zfpy(const rapidjson::Value& c, const std::string& where) {
  json::check_members(c, {"id", "mode", "tolerance", "rate", "precision", "compression_kwargs"},
                      ZARR_ERR_INVALID_METADATA, where, "configuration member");
  ZfpyParams p;
  if (const rapidjson::Value* m = json::find(c, "mode")) {
    p.mode = m->IsInt64() ? m->GetInt64() : 0;
    if (p.mode < 2 || p.mode > 5) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field 'mode' must be 2 (fixed rate), 3 (fixed precision), "
                                              "4 (fixed accuracy) or 5 (reversible), got " + json::to_string(*m));
    }
  }
  if (const rapidjson::Value* k = json::find(c, "compression_kwargs"); k && !k->IsObject() && !k->IsNull()) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'compression_kwargs' must be an object");
  }
  p.tolerance = param_text(c, "tolerance", false, where);
  p.rate = param_text(c, "rate", false, where);
  p.precision = param_text(c, "precision", true, where);
  // compress_numpy's rule: the mode's own parameter when it is >= 0, else reversible.
  const std::string& own = p.mode == 2 ? p.rate : p.mode == 3 ? p.precision : p.tolerance;
  const double value = std::stod(own);
  if (p.mode != 5 && value >= 0) {
    p.zfp_mode.kind = p.mode == 2 ? zfp::Mode::FixedRate : p.mode == 3 ? zfp::Mode::FixedPrecision : zfp::Mode::FixedAccuracy;
    p.zfp_mode.value = value;
    if (p.mode == 3 && value > 64) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'precision' must be at most 64");
  }
  return p;
}

// numcodecs' get_config(), members in its order.
std::string zfpy_config(const ZfpyParams& p) {
  std::string kwargs;
  if (p.mode == 2) kwargs = "{\"rate\":" + p.rate + "}";
  if (p.mode == 3) kwargs = "{\"precision\":" + p.precision + "}";
  if (p.mode == 4) kwargs = "{\"tolerance\":" + p.tolerance + "}";
  return "{\"id\":\"zfpy\",\"mode\":" + std::to_string(p.mode) +
         (kwargs.empty() ? "" : ",\"compression_kwargs\":" + kwargs) + ",\"tolerance\":" + p.tolerance +
         ",\"rate\":" + p.rate + ",\"precision\":" + p.precision + "}";
}

zfp::Scalar scalar_or_fail(const std::string& typestr, const std::string& where) {
  std::optional<zfp::Scalar> s = scalar_of_typestr(typestr);
  if (!s) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": zfpy compresses float32, float64, int32 and int64 in native byte "
                                            "order, not " + (typestr.empty() ? std::string("this data type") : json::quote(typestr)));
  }
  return *s;
}

class ZfpyCodec final : public BytesCodec {
 public:
  ZfpyCodec(ZfpyParams params, zfp::Scalar scalar, ChunkRepr repr)
      : params_(std::move(params)), scalar_(scalar), repr_(std::move(repr)) {}
  std::string id() const override { return kId; }
  std::string config_json() const override { return zfpy_config(params_); }
  Bytes encode(ByteView decoded) const override { return encode_zfpy(decoded, scalar_, repr_.shape, params_.zfp_mode); }
  Bytes decode(ByteView encoded, size_t expected_size) const override {
    return decode_zfpy(encoded, scalar_, expected_size ? expected_size : repr_.decoded_size);
  }

 private:
  ZfpyParams params_;
  zfp::Scalar scalar_;
  ChunkRepr repr_;
};

// v3 "numcodecs.zfpy": the same stream, the chunk's shape from the chain.
// Written back as the metadata gave it (zarr-python 3 writes only "mode"
// and its parameter), or numcodecs' full form when it gave none.
class ZfpyArrayCodec final : public ArrayToBytesCodec {
 public:
  ZfpyArrayCodec(ZfpyParams params, zfp::Scalar scalar, std::string v3_json)
      : params_(std::move(params)), scalar_(scalar), v3_json_(std::move(v3_json)) {}
  std::string name() const override { return "numcodecs.zfpy"; }
  std::string v3_config_json() const override { return v3_json_; }
  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override {
    return encode_zfpy(ByteView(chunk.data(), chunk.size()), scalar_, decoded.shape, params_.zfp_mode);
  }
  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override {
    return decode_zfpy(stored, scalar_, decoded.byte_size());
  }

 private:
  ZfpyParams params_;
  zfp::Scalar scalar_;
  std::string v3_json_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_zfpy_codec(const rapidjson::Value& config, const ChunkRepr& repr) {
  const std::string where = "codec 'zfpy'";
  ZfpyParams params = parse_zfpy(config, where);
  const zfp::Scalar scalar = scalar_or_fail(repr.dtype, where);
  zfp::check_mode(params.zfp_mode, zfp::Field{scalar, {1}}, where);
  return std::make_unique<ZfpyCodec>(std::move(params), scalar, repr);
}

V3Codec make_zfpy_v3(const V3CodecRequest& request) {
  rapidjson::Value empty(rapidjson::kObjectType);
  const rapidjson::Value& c = request.configuration ? *request.configuration : empty;
  if (!c.IsObject()) fail(ZARR_ERR_INVALID_METADATA, request.where + ": 'configuration' must be an object");
  ZfpyParams params = parse_zfpy(c, request.where);
  const DataType& t = request.decoded.dtype;
  const size_t n = t.item_size();
  std::optional<zfp::Scalar> s;
  if (t.kind() == DTypeKind::Float && (n == 4 || n == 8)) s = n == 4 ? zfp::Scalar::Float : zfp::Scalar::Double;
  if (t.kind() == DTypeKind::Int && (n == 4 || n == 8)) s = n == 4 ? zfp::Scalar::Int32 : zfp::Scalar::Int64;
  if (!s) {
    fail(ZARR_ERR_INVALID_METADATA, request.where + ": zfpy compresses float32, float64, int32 and int64, not " +
                                        t.v3_name().value_or(t.to_v2_json()));
  }
  const zfp::Scalar scalar = *s;
  zfp::check_mode(params.zfp_mode, zfp::Field{scalar, {1}}, request.where);
  std::string configuration;
  if (request.configuration) {
    configuration = json::to_string(c);
  } else {
    rapidjson::Document full = json::parse(zfpy_config(params), "zfpy");
    full.EraseMember("id");  // keeping numcodecs' order (RemoveMember moves the last member up)
    configuration = json::to_string(full);
  }
  std::string v3 = "{\"name\":\"numcodecs.zfpy\",\"configuration\":" + configuration + "}";
  return V3Codec{nullptr, std::make_shared<ZfpyArrayCodec>(std::move(params), scalar, std::move(v3)), nullptr};
}

}  // namespace zarr::codecs
