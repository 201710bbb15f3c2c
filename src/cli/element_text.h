// One array element as text, for people (`cat`), CSV or JSON: numbers in the
// shortest form that reads back as the same value, datetimes and timedeltas
// in ISO 8601 at their unit's precision, strings quoted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace zarrtool {

enum class TextStyle {
  kText,  // as Python prints values: 10.0, nan, (1+2j), "text", 2020-01-01T00:00:00
  kCsv,   // the same, strings quoted as RFC 4180 does ("" for a quote)
  kJson,  // JSON values: "NaN"/"Infinity" strings, [re, im], ISO datetimes as strings
};

// Formats elements of a data type as zarr_data_type() names it. Types without
// a text form (raw bytes |V, structured records, TensorStore's float8 types)
// print as 0x-prefixed hex bytes.
class ElementFormatter {
 public:
  ElementFormatter(const std::string& data_type, size_t item_size, TextStyle style);

  // A fixed-size element of item_size bytes, native byte order.
  std::string format(const unsigned char* element) const;
  // A variable-length element (strings as UTF-8, bytes): quoted.
  std::string format_variable(const unsigned char* bytes, size_t size) const;

 private:
  enum class Kind { kBool, kSigned, kUnsigned, kFloat, kHalf, kBFloat16, kComplex, kDatetime, kTimedelta,
                    kBytes, kUnicode, kHex };
  std::string quoted(const std::string& utf8) const;
  std::string number(const std::string& python_float) const;
  std::string word(const std::string& text) const;  // a datetime, hex or NaT: a JSON string in JSON

  Kind kind_ = Kind::kHex;
  size_t item_size_;
  TextStyle style_;
  std::string time_unit_;  // "s", "ms", ... for datetimes and timedeltas; "" for numpy's generic unit
  int64_t time_multiplier_ = 1;
};

// Python's repr of a double ("10.0", "0.1", "1e+16", "nan", "-inf").
std::string python_float(double value);

// The ISO 8601 text of `count` units (unit as numpy names it, times
// multiplier) since 1970-01-01T00:00:00, at the unit's precision as numpy
// prints it ("2020-01-01" for days, "2020-01-01T00:00:00.000" for ms).
std::string iso_datetime(int64_t count, const std::string& unit, int64_t multiplier);
// An ISO 8601 duration: "P3D", "PT10S", "PT0.001S", "-PT1H".
std::string iso_duration(int64_t count, const std::string& unit, int64_t multiplier);

}  // namespace zarrtool
