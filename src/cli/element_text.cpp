#include "element_text.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include "cli_common.h"

namespace zarrtool {
namespace {

// Datetime arithmetic needs more than 64 bits: a count times its unit's
// multiplier, or in attoseconds, passes 2^63 long before it is absurd.
__extension__ typedef __int128 Wide;

template <typename T>
T load(const unsigned char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

Wide floor_div(Wide a, Wide b) {
  Wide q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

std::string wide_text(Wide value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  std::string digits;
  for (; value != 0; value /= 10) digits.insert(digits.begin(), static_cast<char>('0' + (negative ? -(value % 10) : value % 10)));
  return negative ? "-" + digits : digits;
}

std::string padded(Wide value, size_t width) {
  std::string digits = wide_text(value < 0 ? -value : value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return value < 0 ? "-" + digits : digits;
}

// "-1.2345e+02" (shortest scientific, as std::to_chars writes it) laid out as
// Python's repr: positional for exponents -4..15, else scientific. Python adds
// ".0" to whole floats but not to the parts of a complex.
std::string python_layout(const std::string& scientific, bool whole_gets_point_zero) {
  const bool negative = scientific[0] == '-';
  const size_t e = scientific.find('e');
  std::string digits;
  for (size_t i = negative ? 1 : 0; i < e; ++i) {
    if (scientific[i] != '.') digits += scientific[i];
  }
  const int exponent = std::stoi(scientific.substr(e + 1));
  std::string text;
  if (exponent < -4 || exponent >= 16) {
    text = digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "") + scientific.substr(e);
  } else if (exponent < 0) {
    text = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  } else {
    const size_t whole = static_cast<size_t>(exponent) + 1;
    if (digits.size() < whole) digits.append(whole - digits.size(), '0');
    text = digits.substr(0, whole);
    if (digits.size() > whole) {
      text += "." + digits.substr(whole);
    } else if (whole_gets_point_zero) {
      text += ".0";
    }
  }
  return negative ? "-" + text : text;
}

template <typename F>
std::string shortest_scientific(F value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  return std::string(buffer, result.ptr);
}

template <typename F>
std::string python_repr(F value, bool whole_gets_point_zero = true) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return python_layout(shortest_scientific(value), whole_gets_point_zero);
}

// IEEE half precision, by hand: C++17 has no half type.
double half_value(uint16_t h) {
  const double sign = (h >> 15) ? -1 : 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(mantissa | 0x400, exponent - 25);
}

double bfloat16_value(uint16_t b) {
  const uint32_t bits = uint32_t{b} << 16;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// The shortest decimal that rounds back to the 16-bit float `bits` (half or
// bfloat16, whose values value_of gives; inf_bits is infinity's magnitude):
// a candidate must fall between the midpoints to its neighbours (on one
// only when the mantissa is even: ties round to even).
std::string shortest_small_float(uint16_t bits, double (*value_of)(uint16_t), uint16_t inf_bits) {
  const uint16_t magnitude = bits & 0x7fff;
  if (magnitude > inf_bits) return "nan";
  const std::string sign = (bits & 0x8000) ? "-" : "";
  if (magnitude == inf_bits) return sign + "inf";
  const double value = value_of(magnitude);
  const double below = magnitude == 0 ? -value_of(1) : value_of(magnitude - 1);
  const double above = magnitude + 1 == inf_bits ? 2 * value - below : value_of(magnitude + 1);
  const double low_mid = (below + value) / 2, high_mid = (value + above) / 2;
  for (int precision = 0; precision <= 17; ++precision) {
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific, precision).ptr;
    double back = 0;
    std::from_chars(buffer, end, back);
    const bool tie = back == low_mid || back == high_mid;
    if ((back > low_mid && back < high_mid) || (tie && magnitude % 2 == 0)) {
      return python_layout(sign + std::string(buffer, end), true);
    }
  }
  return sign + python_repr(value);
}

// Code points to UTF-8; what is not a Unicode scalar value becomes U+FFFD.
void append_utf8(std::string& out, uint32_t c) {
  if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) c = 0xfffd;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xc0 | c >> 6);
    out += static_cast<char>(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xe0 | c >> 12);
    out += static_cast<char>(0x80 | (c >> 6 & 0x3f));
    out += static_cast<char>(0x80 | (c & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | c >> 18);
    out += static_cast<char>(0x80 | (c >> 12 & 0x3f));
    out += static_cast<char>(0x80 | (c >> 6 & 0x3f));
    out += static_cast<char>(0x80 | (c & 0x3f));
  }
}

std::string hex_text(const unsigned char* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string text = "0x";
  for (size_t i = 0; i < n; ++i) {
    text += digits[p[i] >> 4];
    text += digits[p[i] & 15];
  }
  return text;
}

// "2020-03-01" for days since 1970-01-01 in the proleptic Gregorian calendar:
// counted from 0000-03-01 in 400-year eras of 146097 days, so that the leap
// day ends each year.
std::string date_text(Wide days) {
  const Wide shifted = days + 719468;  // days from 0000-03-01 to 1970-01-01
  const Wide era = floor_div(shifted, 146097);
  const Wide day_of_era = shifted - era * 146097;
  const Wide year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const Wide day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const Wide month_from_march = (5 * day_of_year + 2) / 153;
  const Wide day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
  const Wide month = month_from_march < 10 ? month_from_march + 3 : month_from_march - 9;
  const Wide year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2);
}

// Digits after the second of the sub-second units; -1 for the others.
int fraction_digits(const std::string& unit) {
  static const char* const kUnits[] = {"ms", "us", "ns", "ps", "fs", "as"};
  for (int i = 0; i < 6; ++i) {
    if (unit == kUnits[i]) return 3 * (i + 1);
  }
  return -1;
}

Wide power_of_ten(int digits) {
  Wide p = 1;
  for (int i = 0; i < digits; ++i) p *= 10;
  return p;
}

// "[10ms]" of "<M8[10ms]" into unit "ms" and multiplier 10; "" for none.
void parse_time_unit(const std::string& type, std::string& unit, int64_t& multiplier) {
  const size_t open = type.find('[');
  if (open == std::string::npos || type.back() != ']') return;
  const std::string inside = type.substr(open + 1, type.size() - open - 2);
  const size_t letters = inside.find_first_not_of("0123456789");
  unit = letters == std::string::npos ? "" : inside.substr(letters);
  if (letters > 0 && letters != std::string::npos) multiplier = std::stoll(inside.substr(0, letters));
}

}  // namespace

std::string python_float(double value) { return python_repr(value); }

std::string iso_datetime(int64_t count, const std::string& unit, int64_t multiplier) {
  const Wide total = Wide{count} * multiplier;
  if (unit == "Y") return padded(1970 + total, 4);
  if (unit == "M") {
    const Wide years = floor_div(total, 12);
    return padded(1970 + years, 4) + "-" + padded(total - years * 12 + 1, 2);
  }
  if (unit == "W" || unit == "D") return date_text(unit == "W" ? total * 7 : total);
  const int digits = fraction_digits(unit);
  Wide seconds = unit == "h" ? total * 3600 : unit == "m" ? total * 60 : total;
  Wide fraction = 0;
  if (digits > 0) {
    seconds = floor_div(total, power_of_ten(digits));
    fraction = total - seconds * power_of_ten(digits);
  } else if (unit != "h" && unit != "m" && unit != "s") {
    return std::to_string(count);  // numpy's generic unit: a bare count
  }
  const Wide days = floor_div(seconds, 86400), of_day = seconds - days * 86400;
  std::string text = date_text(days) + "T" + padded(of_day / 3600, 2);
  if (unit != "h") text += ":" + padded(of_day / 60 % 60, 2);
  if (unit != "h" && unit != "m") text += ":" + padded(of_day % 60, 2);
  if (digits > 0) text += "." + padded(fraction, static_cast<size_t>(digits));
  return text;
}

std::string iso_duration(int64_t count, const std::string& unit, int64_t multiplier) {
  const Wide total = Wide{count} * multiplier;
  const std::string sign = total < 0 ? "-" : "";
  const Wide magnitude = total < 0 ? -total : total;
  if (unit == "Y" || unit == "M" || unit == "W" || unit == "D") return sign + "P" + wide_text(magnitude) + unit;
  if (unit == "h" || unit == "m" || unit == "s") {
    return sign + "PT" + wide_text(magnitude) + (unit == "h" ? "H" : unit == "m" ? "M" : "S");
  }
  const int digits = fraction_digits(unit);
  if (digits < 0) return std::to_string(count);  // numpy's generic unit
  const Wide scale = power_of_ten(digits);
  return sign + "PT" + wide_text(magnitude / scale) + "." + padded(magnitude % scale, static_cast<size_t>(digits)) + "S";
}

ElementFormatter::ElementFormatter(const std::string& data_type, size_t item_size, TextStyle style)
    : item_size_(item_size), style_(style) {
  std::string t = data_type;
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  if (t == "bool") {
    kind_ = Kind::kBool;
  } else if (t == "int2" || t == "int4" || t == "int8" || t == "int16" || t == "int32" || t == "int64") {
    kind_ = Kind::kSigned;  // int2 / int4: one sign-extended value per byte
  } else if (t == "uint2" || t == "uint4" || t == "uint8" || t == "uint16" || t == "uint32" || t == "uint64") {
    kind_ = Kind::kUnsigned;
  } else if (t == "float32" || t == "float64") {
    kind_ = Kind::kFloat;
  } else if (t == "float16") {
    kind_ = Kind::kHalf;
  } else if (t == "bfloat16") {
    kind_ = Kind::kBFloat16;
  } else if (t == "complex64" || t == "complex128" || t == "complex_float32" || t == "complex_float64") {
    kind_ = Kind::kComplex;
  } else if (t.size() >= 2 && (t[0] == '<' || t[0] == '>' || t[0] == '|')) {
    const char letter = t[1];
    if (letter == 'M' || letter == 'm') {
      kind_ = letter == 'M' ? Kind::kDatetime : Kind::kTimedelta;
      parse_time_unit(t, time_unit_, time_multiplier_);
    } else if (letter == 'S') {
      kind_ = Kind::kBytes;
    } else if (letter == 'U') {
      kind_ = Kind::kUnicode;
    }
  }
}

std::string ElementFormatter::quoted(const std::string& utf8) const {
  if (style_ != TextStyle::kCsv) return json_string(utf8);
  // CSV keeps line breaks and tabs inside quotes; other controls are shown
  // escaped as everywhere in zarrtool's text (--json and --raw are exact).
  std::string text = "\"";
  for (char c : terminal_safe(utf8, "\n\r\t")) text += c == '"' ? std::string("\"\"") : std::string(1, c);
  return text + "\"";
}

std::string ElementFormatter::number(const std::string& python_float) const {
  if (style_ != TextStyle::kJson) return python_float;
  if (python_float == "nan") return "\"NaN\"";
  if (python_float == "inf") return "\"Infinity\"";
  if (python_float == "-inf") return "\"-Infinity\"";
  return python_float;
}

std::string ElementFormatter::word(const std::string& text) const {
  return style_ == TextStyle::kJson ? json_string(text) : text;
}

static std::string integer_text(const unsigned char* p, size_t size, bool is_signed) {
  switch (size) {
    case 1: return is_signed ? std::to_string(load<int8_t>(p)) : std::to_string(load<uint8_t>(p));
    case 2: return is_signed ? std::to_string(load<int16_t>(p)) : std::to_string(load<uint16_t>(p));
    case 4: return is_signed ? std::to_string(load<int32_t>(p)) : std::to_string(load<uint32_t>(p));
    default: return is_signed ? std::to_string(load<int64_t>(p)) : std::to_string(load<uint64_t>(p));
  }
}

// Python's complex repr: "(1+2j)", "(nan-infj)"; JSON: [re, im].
template <typename F>
static std::string complex_text(const unsigned char* p, TextStyle style) {
  const F re = load<F>(p), im = load<F>(p + sizeof(F));
  if (style == TextStyle::kJson) {
    auto part = [](F v) {
      const std::string t = python_repr(v);
      return t == "nan" ? "\"NaN\"" : t == "inf" ? "\"Infinity\"" : t == "-inf" ? "\"-Infinity\"" : t;
    };
    return "[" + part(re) + "," + part(im) + "]";
  }
  std::string imag = python_repr(im, false);
  if (imag[0] != '-') imag = "+" + imag;
  return "(" + python_repr(re, false) + imag + "j)";
}

std::string ElementFormatter::format(const unsigned char* p) const {
  switch (kind_) {
    case Kind::kBool: return *p ? "true" : "false";
    case Kind::kSigned: return integer_text(p, item_size_, true);
    case Kind::kUnsigned: return integer_text(p, item_size_, false);
    case Kind::kFloat:
      return number(item_size_ == 4 ? python_repr(load<float>(p)) : python_repr(load<double>(p)));
    case Kind::kHalf: return number(shortest_small_float(load<uint16_t>(p), half_value, 0x7c00));
    case Kind::kBFloat16: return number(shortest_small_float(load<uint16_t>(p), bfloat16_value, 0x7f80));
    case Kind::kComplex:
      return item_size_ == 8 ? complex_text<float>(p, style_) : complex_text<double>(p, style_);
    case Kind::kDatetime:
    case Kind::kTimedelta: {
      const int64_t count = load<int64_t>(p);
      if (count == INT64_MIN) return word("NaT");
      if (time_unit_.empty()) return std::to_string(count);
      return word(kind_ == Kind::kDatetime ? iso_datetime(count, time_unit_, time_multiplier_)
                                           : iso_duration(count, time_unit_, time_multiplier_));
    }
    case Kind::kBytes: {
      size_t size = item_size_;
      while (size > 0 && p[size - 1] == 0) --size;  // numpy strips the padding
      return quoted(std::string(reinterpret_cast<const char*>(p), size));
    }
    case Kind::kUnicode: {
      std::vector<uint32_t> units(item_size_ / 4);
      std::memcpy(units.data(), p, units.size() * 4);
      while (!units.empty() && units.back() == 0) units.pop_back();
      std::string utf8;
      for (uint32_t c : units) append_utf8(utf8, c);
      return quoted(utf8);
    }
    case Kind::kHex: break;
  }
  return word(hex_text(p, item_size_));
}

std::string ElementFormatter::format_variable(const unsigned char* bytes, size_t size) const {
  return quoted(std::string(reinterpret_cast<const char*>(bytes), size));
}

}  // namespace zarrtool
