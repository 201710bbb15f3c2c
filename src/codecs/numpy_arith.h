// NumPy arithmetic emulation for the numcodecs filters (delta, fixedscaleoffset, quantize,
// astype, categorize, bitround): numpy's numeric data types, element values
// converted and computed the way numpy 1.24 does on x86-64, numcodecs' Python
// numbers in configurations, and a configuration writer for them.
//
// numcodecs filters reinterpret a chunk's bytes as their configured dtype and
// compute with numpy; the results (and so the stored bytes) depend on numpy's
// type promotion, its rounding and its casts, which these helpers reproduce:
//  - arithmetic happens in one numpy type: integers wrap around, floats round
//    to the type after every operation (float16 through float32, as numpy);
//  - casts follow numpy's C casts: float to integer truncates toward zero, and
//    out-of-range values give what numpy gives on x86-64 (see cast());
//  - a Python number meeting an array follows numpy 1.24's value-based
//    promotion (result_type()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/json.h"
#include "base/size_limits.h"
#include "codecs/codec_util.h"

namespace zarr::codecs {

// --- numeric data types -----------------------------------------------------------

enum class NumKind { Bool, Int, UInt, Float };

struct NumType {
  NumKind kind = NumKind::UInt;
  size_t size = 1;          // bytes: 1, 2, 4 or 8 (floats 2, 4, 8; bool 1)
  bool big_endian = false;  // byte order in memory (meaningless for 1 byte)

  // numpy's dtype.str: "|b1", "|u1", "<i2", ">f8".
  std::string str() const;
  bool is_float() const { return kind == NumKind::Float; }
  bool is_integer() const { return kind == NumKind::Int || kind == NumKind::UInt; }
  // The same type in native (little-endian) byte order, as numpy's results are.
  NumType native() const;
  bool operator==(const NumType& o) const {
    return kind == o.kind && size == o.size && (size == 1 || big_endian == o.big_endian);
  }
  bool operator!=(const NumType& o) const { return !(*this == o); }
};

// A numeric numpy typestr ("<i2", ">f8", "|b1", "u4" meaning native) or a
// numpy type name ("int16", "float32", "bool"); nullopt for anything else.
std::optional<NumType> parse_num_type(const std::string& s);

// The dtype in config field `field`: a string naming a numeric type.
// Absent: `fallback`, or ZARR_ERR_INVALID_METADATA "field '<field>' is
// required" without one. Not a string: ZARR_ERR_INVALID_METADATA. A dtype
// numpy knows but these filters do not: ZARR_ERR_UNSUPPORTED naming it.
NumType read_num_type(const ConfigReader& cfg, const char* field, std::optional<NumType> fallback = std::nullopt);

// ZARR_ERR_INVALID_METADATA "codec '<id>': field '<field>' is required".
[[noreturn]] void missing_field(const ConfigReader& cfg, const char* field);

// --- element values ----------------------------------------------------------------

// One element's value in a given NumType: integers as their two's complement
// bits (sign-extended for Int, zero-extended for UInt, 0/1 for Bool) in `i`,
// floats in `f` (a value the type can hold exactly).
struct Num {
  uint64_t i = 0;
  double f = 0;
};

Num load(const uint8_t* p, const NumType& t);
void store(uint8_t* p, const NumType& t, const Num& v);

// numpy's astype(): integer to integer wraps around; float to integer
// truncates toward zero, and NaN, infinities and out-of-range values give
// what numpy 1.24 gives on x86-64 (it converts through int32 for the types up
// to 32 bits, so e.g. 3e9 -> int16 is 0 and -1.5 -> uint8 is 255); anything to
// bool is "not zero"; to float rounds to nearest, ties to even.
Num cast(const Num& v, const NumType& from, const NumType& to);
// The same, as numpy's cast of a whole contiguous run of `run` elements
// converts element `index`: its loop converts 4 elements per step and the
// last run % 4 elements one by one, and the two disagree on out-of-range
// float32/float64 -> uint32 conversions (the per-element code keeps the low
// 32 bits of an int64 conversion). Measured on numpy 1.24 (Debian, x86-64).
Num cast_in_run(const Num& v, const NumType& from, const NumType& to, size_t index, size_t run);

// Arithmetic of two values of type t, in t (t native or not, it does not
// matter). Bool: add is "or", multiply "and"; subtract and divide are for
// numbers only. Integers wrap around; divide is for floats.
Num add(const Num& a, const Num& b, const NumType& t);
Num subtract(const Num& a, const Num& b, const NumType& t);
Num multiply(const Num& a, const Num& b, const NumType& t);
Num divide(const Num& a, const Num& b, const NumType& t);
// np.around(x): floats to the nearest integer, ties to even; others unchanged.
Num round_even(const Num& a, const NumType& t);

// numpy.promote_types for numeric types (the result is native).
NumType promote_types(const NumType& a, const NumType& b);

// --- Python numbers from configurations ---------------------------------------------

// A number in a codec's JSON configuration as numcodecs sees it: JSON
// integers are Python ints, anything with a fraction or exponent a float.
struct PyNumber {
  bool is_int = true;
  bool above_int64 = false;  // an int above INT64_MAX (held in u)
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;

  // The number as Python's json.dumps writes it: "10", "0.1", "1000.0", "1e+16".
  std::string json() const;
};

// The number in field `field` (required). Not a number, or an integer beyond
// uint64: ZARR_ERR_INVALID_METADATA naming the field.
PyNumber read_py_number(const ConfigReader& cfg, const char* field);

// numpy 1.24's result type of `array <op> number` for an array of type t
// (value-based casting: a Python number only widens the array's type when its
// value needs it or it is of a higher kind).
NumType result_type(const NumType& t, const PyNumber& n);
// The Python number converted to type t, as numpy converts it.
Num py_number_to(const PyNumber& n, const NumType& t);

// Python's repr() of a float, as json.dumps writes it ("NaN", "Infinity").
using zarr::json::python_float_repr;

// --- configuration output -----------------------------------------------------------

// {"id": ..., ...} with keys in the order added (numcodecs' get_config()
// order), numbers written as Python writes them.
class FilterConfigWriter {
 public:
  explicit FilterConfigWriter(const std::string& codec_id);
  FilterConfigWriter& add_int(const char* name, int64_t value);
  FilterConfigWriter& add_string(const char* name, const std::string& value);
  FilterConfigWriter& add_number(const char* name, const PyNumber& value);
  FilterConfigWriter& add_strings(const char* name, const std::vector<std::string>& values);
  std::string str();

 private:
  rapidjson::StringBuffer buf_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_;
};

// --- chunk sizes --------------------------------------------------------------------

// size / item, or ZARR_ERR_CODEC "codec '<id>': <what> of N bytes is not a
// multiple of the M-byte <type>" when it does not divide.
size_t count_items(const std::string& id, size_t size, size_t item, const std::string& what,
                   const std::string& type);

// ZARR_ERR_CODEC unless `expected` is 0 (unknown) or equals `size`; checked
// before a decoder allocates its output.
void check_output_size(const std::string& id, size_t size, size_t expected);

// The size of `size` bytes of from_item-byte items as to_item-byte items
// (a partial last item counted whole), UINT64_MAX when it does not fit: a
// filter's BytesCodec::max_encoded_size.
inline uint64_t converted_size(uint64_t size, uint64_t from_item, uint64_t to_item) {
  return saturating_mul(size / from_item + (size % from_item != 0), to_item);
}

}  // namespace zarr::codecs
