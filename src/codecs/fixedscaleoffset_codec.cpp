// "fixedscaleoffset": numcodecs.FixedScaleOffset. Encoding reads the chunk as
// `dtype` and stores round((x - offset) * scale) as `astype`; decoding
// computes y / scale + offset and casts it to `dtype`. Every step follows
// numpy 1.24: the types of `x - offset`, `* scale`, `/ scale` and `+ offset`
// come from its value-based promotion of the Python numbers `offset` and
// `scale` (an int offset keeps a float32 array float32, a float one turns an
// int array float64), rounding is half to even, and the casts are numpy's.
#include "codecs/builtin_codecs.h"
#include "codecs/numpy_arith.h"

namespace zarr::codecs {

namespace {

const std::string kId = "fixedscaleoffset";

class FixedScaleOffsetCodec final : public BytesCodec {
 public:
  FixedScaleOffsetCodec(PyNumber offset, PyNumber scale, NumType dtype, NumType astype)
      : offset_(offset), scale_(scale), dtype_(dtype), astype_(astype) {
    // Encoding: (x - offset) in t1, then * scale in t2.
    t1_ = result_type(dtype_.native(), offset_);
    offset1_ = py_number_to(offset_, t1_);
    t2_ = result_type(t1_, scale_);
    scale2_ = py_number_to(scale_, t2_);
    // Decoding: true division gives a float (float64 for integers), then + offset.
    t3_ = result_type(astype_.native(), scale_);
    if (!t3_.is_float()) t3_ = NumType{NumKind::Float, 8, false};
    scale3_ = py_number_to(scale_, t3_);
    t4_ = result_type(t3_, offset_);
    offset4_ = py_number_to(offset_, t4_);
  }

  std::string id() const override { return kId; }
  std::string config_json() const override {
    return FilterConfigWriter(kId)
        .add_number("scale", scale_)
        .add_number("offset", offset_)
        .add_string("dtype", dtype_.str())
        .add_string("astype", astype_.str())
        .str();
  }

  Bytes encode(ByteView decoded) const override {
    size_t n = count_items(kId, decoded.size, dtype_.size, "input", "dtype " + dtype_.str());
    Bytes out(n * astype_.size);
    for (size_t k = 0; k < n; ++k) {
      Num v = cast(load(decoded.data + k * dtype_.size, dtype_), dtype_, t1_);
      v = cast(subtract(v, offset1_, t1_), t1_, t2_);
      v = round_even(multiply(v, scale2_, t2_), t2_);
      store(out.data() + k * astype_.size, astype_, cast_in_run(v, t2_, astype_, k, n));
    }
    return out;
  }

  std::optional<uint64_t> max_encoded_size(uint64_t n) const override {
    return converted_size(n, dtype_.size, astype_.size);
  }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    size_t n = count_items(kId, encoded.size, astype_.size, "input", "astype " + astype_.str());
    check_output_size(kId, n * dtype_.size, expected_size);
    Bytes out(n * dtype_.size);
    for (size_t k = 0; k < n; ++k) {
      Num v = cast(load(encoded.data + k * astype_.size, astype_), astype_, t3_);
      v = cast(divide(v, scale3_, t3_), t3_, t4_);
      v = add(v, offset4_, t4_);
      store(out.data() + k * dtype_.size, dtype_, cast_in_run(v, t4_, dtype_, k, n));
    }
    return out;
  }

 private:
  PyNumber offset_, scale_;
  NumType dtype_, astype_;
  NumType t1_, t2_, t3_, t4_;
  Num offset1_, scale2_, scale3_, offset4_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_fixedscaleoffset_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  PyNumber offset = read_py_number(cfg, "offset");
  PyNumber scale = read_py_number(cfg, "scale");
  NumType dtype = read_num_type(cfg, "dtype");
  NumType astype = read_num_type(cfg, "astype", dtype);
  return std::make_unique<FixedScaleOffsetCodec>(offset, scale, dtype, astype);
}

}  // namespace zarr::codecs
