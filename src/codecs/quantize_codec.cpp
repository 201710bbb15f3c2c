// "quantize": numcodecs.Quantize, lossy. Encoding reads the chunk as `dtype`
// (a float type) and stores round(x * 2^bits) / 2^bits as `astype` (a float
// type), where 2^bits is the power of two numcodecs derives from `digits`
// (the smallest one at least 10^digits, as computed in Python's floats);
// numpy computes in the promoted type of `dtype` and that Python float (so
// float16 data is computed in float32 from digits 5 on). Decoding only casts
// `astype` back to `dtype`.
#include <cmath>

#include "codecs/builtin_codecs.h"
#include "codecs/numpy_arith.h"

namespace zarr::codecs {

namespace {

const std::string kId = "quantize";

// numcodecs' scale, computed with the same double operations as its Python
// code (math.log(x, b) is log(x) / log(b) there).
double quantize_scale(int64_t digits) {
  double precision = std::pow(10.0, -static_cast<double>(digits));
  double exp = std::log(precision) / std::log(10.0);
  double e = exp < 0 ? std::floor(exp) : std::ceil(exp);
  double bits = std::ceil(std::log(std::pow(10.0, -e)) / std::log(2.0));
  return std::pow(2.0, bits);
}

class QuantizeCodec final : public BytesCodec {
 public:
  QuantizeCodec(int64_t digits, NumType dtype, NumType astype) : digits_(digits), dtype_(dtype), astype_(astype) {
    scale_.is_int = false;
    scale_.f = quantize_scale(digits_);
    work_ = result_type(dtype_.native(), scale_);
    scale_work_ = py_number_to(scale_, work_);
  }

  std::string id() const override { return kId; }
  std::string config_json() const override {
    return FilterConfigWriter(kId)
        .add_int("digits", digits_)
        .add_string("dtype", dtype_.str())
        .add_string("astype", astype_.str())
        .str();
  }

  Bytes encode(ByteView decoded) const override {
    size_t n = count_items(kId, decoded.size, dtype_.size, "input", "dtype " + dtype_.str());
    Bytes out(n * astype_.size);
    for (size_t k = 0; k < n; ++k) {
      Num v = cast(load(decoded.data + k * dtype_.size, dtype_), dtype_, work_);
      v = divide(round_even(multiply(scale_work_, v, work_), work_), scale_work_, work_);
      store(out.data() + k * astype_.size, astype_, cast_in_run(v, work_, astype_, k, n));
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
      Num v = load(encoded.data + k * astype_.size, astype_);
      store(out.data() + k * dtype_.size, dtype_, cast_in_run(v, astype_, dtype_, k, n));
    }
    return out;
  }

 private:
  int64_t digits_;
  NumType dtype_, astype_, work_;
  PyNumber scale_;
  Num scale_work_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_quantize_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  if (!cfg.find("digits")) missing_field(cfg, "digits");
  // Beyond +-300 numcodecs' own arithmetic overflows or underflows.
  int64_t digits = cfg.integer("digits", 0, -300, 300);
  NumType dtype = read_num_type(cfg, "dtype");
  NumType astype = read_num_type(cfg, "astype", dtype);
  for (auto [field, t] : {std::pair{"dtype", dtype}, {"astype", astype}}) {
    if (!t.is_float()) {
      cfg.invalid(field, "a float type (f2, f4, f8): quantize supports only those",
                  *cfg.find(field));
    }
  }
  return std::make_unique<QuantizeCodec>(digits, dtype, astype);
}

}  // namespace zarr::codecs
