// "delta": numcodecs.Delta. The chunk is read as `dtype`; the first element
// is stored as is and each further one as its difference from the previous
// (computed in `dtype`: integers wrap around, bool uses "not equal" as
// np.diff does), each converted to `astype`. Decoding converts back to `dtype`
// takes the running sum, as np.cumsum(enc, out=dec) does: in the promoted
// type of `dtype` and `astype` (for bool a running "or", so bool deltas do
// not round-trip, in numcodecs neither), each partial sum cast to `dtype`.
#include <cstring>

#include "codecs/builtin_codecs.h"
#include "codecs/numpy_arith.h"
#include "dtype/byte_order.h"

namespace zarr::codecs {

namespace {

const std::string kId = "delta";

// numcodecs sets the first element with `enc[0] = arr[0]`, a scalar
// assignment: numpy converts a float to a signed integer through a Python
// int, failing for NaN, infinities and values beyond int64 (so numcodecs
// cannot encode such a chunk, nor can libzarr), then wraps it to the width;
// an unsigned integer takes the C cast of numpy's scalar code (which for
// uint32 keeps the low bits of an int64 conversion). Everything else is the
// array cast.
Num cast_first(const Num& v, const NumType& from, const NumType& to) {
  if (from.kind != NumKind::Float || !to.is_integer()) return cast(v, from, to);
  const NumType i8{NumKind::Int, 8, false};
  if (to.kind == NumKind::Int) {
    if (!(v.f >= -9223372036854775808.0 && v.f < 9223372036854775808.0)) {
      codec_error(kId, "cannot convert the first element (" + python_float_repr(v.f) + ") to the integer astype " +
                           to.str() + " (numcodecs fails on it too)");
    }
    Num t;
    t.i = static_cast<uint64_t>(static_cast<int64_t>(v.f));
    return cast(t, i8, to);
  }
  if (to.size == 4) {
    Num t = cast(v, from, i8);  // the low 32 bits of an int64 conversion
    return cast(t, i8, to);
  }
  return cast(v, from, to);
}

// The common case, an integer delta stored in its own type and byte order:
// wrapping differences and a wrapping running sum in the unsigned type of the
// width, the bytes numpy gives, in loops the compiler vectorises.
template <typename U>
void integer_diff(const uint8_t* in, uint8_t* out, size_t n) {
  if (n == 0) return;
  std::memcpy(out, in, sizeof(U));
  for (size_t k = 1; k < n; ++k) {
    U x, prev;
    std::memcpy(&x, in + k * sizeof(U), sizeof(U));
    std::memcpy(&prev, in + (k - 1) * sizeof(U), sizeof(U));
    const U d = static_cast<U>(x - prev);
    std::memcpy(out + k * sizeof(U), &d, sizeof(U));
  }
}

template <typename U>
void integer_cumsum(const uint8_t* in, uint8_t* out, size_t n) {
  U sum = 0;
  for (size_t k = 0; k < n; ++k) {
    U d;
    std::memcpy(&d, in + k * sizeof(U), sizeof(U));
    sum = static_cast<U>(sum + d);
    std::memcpy(out + k * sizeof(U), &sum, sizeof(U));
  }
}

using IntegerLoop = void (*)(const uint8_t*, uint8_t*, size_t);

struct IntegerLoops {
  IntegerLoop diff = nullptr, cumsum = nullptr;  // both null: use the general path
};

IntegerLoops integer_loops(const NumType& dtype, const NumType& astype) {
  const bool native = dtype.size == 1 || dtype.big_endian == dtype_detail::host_is_big_endian();
  if (dtype != astype || !dtype.is_integer() || !native) return {};
  switch (dtype.size) {
    case 1: return {integer_diff<uint8_t>, integer_cumsum<uint8_t>};
    case 2: return {integer_diff<uint16_t>, integer_cumsum<uint16_t>};
    case 4: return {integer_diff<uint32_t>, integer_cumsum<uint32_t>};
    case 8: return {integer_diff<uint64_t>, integer_cumsum<uint64_t>};
    default: return {};
  }
}

class DeltaCodec final : public BytesCodec {
 public:
  DeltaCodec(NumType dtype, NumType astype)
      : dtype_(dtype), astype_(astype), fast_(integer_loops(dtype, astype)) {}

  std::string id() const override { return kId; }
  std::string config_json() const override {
    return FilterConfigWriter(kId).add_string("dtype", dtype_.str()).add_string("astype", astype_.str()).str();
  }

  Bytes encode(ByteView decoded) const override {
    size_t n = count_items(kId, decoded.size, dtype_.size, "input", "dtype " + dtype_.str());
    Bytes out(n * astype_.size);
    if (fast_.diff) {
      fast_.diff(decoded.data, out.data(), n);
      return out;
    }
    const NumType work = dtype_.native();
    Num prev;
    for (size_t k = 0; k < n; ++k) {
      Num x = load(decoded.data + k * dtype_.size, dtype_);
      // enc[1:] = np.diff(arr): one cast of a run of n - 1 elements
      Num d = k == 0 ? cast_first(x, work, astype_) : cast_in_run(subtract(x, prev, work), work, astype_, k - 1, n - 1);
      store(out.data() + k * astype_.size, astype_, d);
      prev = x;
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
    if (fast_.cumsum) {
      fast_.cumsum(encoded.data, out.data(), n);
      return out;
    }
    // numpy accumulates in a buffer of the promoted type and casts at the end.
    const NumType work = promote_types(dtype_, astype_);
    Num sum;
    for (size_t k = 0; k < n; ++k) {
      Num d = cast(load(encoded.data + k * astype_.size, astype_), astype_, work);
      sum = k == 0 ? d : add(sum, d, work);
      store(out.data() + k * dtype_.size, dtype_, cast_in_run(sum, work, dtype_, k, n));
    }
    return out;
  }

 private:
  NumType dtype_;
  NumType astype_;
  IntegerLoops fast_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_delta_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  NumType dtype = read_num_type(cfg, "dtype");
  NumType astype = read_num_type(cfg, "astype", dtype);
  return std::make_unique<DeltaCodec>(dtype, astype);
}

}  // namespace zarr::codecs
