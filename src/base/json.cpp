#include "base/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include <rapidjson/encodedstream.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/error.h"
#include "base/utf8.h"

namespace zarr::json {

namespace {
// Numbers reach us as their text and are converted here (NumberConverter):
// RapidJSON 1.1.0's own full-precision conversion has undefined behaviour
// on a zero with a large exponent ("0e80"). NaN/Infinity literals are
// accepted because some writers (Python's json) emit them.
constexpr unsigned kParseFlags = rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseNanAndInfFlag;

std::string field_error(const std::string& where, const std::string& field, const char* expected) {
  return where + ": field '" + field + "' must be " + expected;
}
}  // namespace

namespace {
// Offset where the nesting of arrays and objects first exceeds kMaxDepth,
// or nullopt. Brackets inside strings do not count.
std::optional<size_t> too_deep_at(const std::string& text) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}
}  // namespace

namespace {

// A RapidJSON handler that turns each number's text into the value
// RapidJSON's own conversion would give, correctly rounded (std::from_chars),
// and forwards everything to the document being built.
struct NumberConverter {
  rapidjson::Document& doc;
  std::string& bad_number;  // the number that stopped the parse, if one did

  bool RawNumber(const char* text, rapidjson::SizeType length, bool) {
    const char* end = text + length;
    const bool integral = std::none_of(text, end, [](char c) { return c == '.' || c == 'e' || c == 'E' || c == 'N' || c == 'I'; });
    if (integral) {
      // As RapidJSON: an integer type when the value fits, else a double.
      if (text[0] == '-') {
        int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(text, end, value);
        if (ec == std::errc() && ptr == end) return doc.Int64(value);
      } else {
        uint64_t value = 0;
        const auto [ptr, ec] = std::from_chars(text, end, value);
        if (ec == std::errc() && ptr == end) return doc.Uint64(value);
      }
    }
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text, end, value);
    if (ec == std::errc() && ptr == end) return doc.Double(value);
    if (ec == std::errc::result_out_of_range && ptr == end && below_one(text, end)) {
      return doc.Double(text[0] == '-' ? -0.0 : 0.0);  // underflow: zero, as RapidJSON and Python give
    }
    bad_number.assign(text, length);
    return false;
  }
  // A number whose magnitude is below 1 (so an out-of-range one underflowed):
  // a negative exponent, or no exponent and an integer part of zero.
  static bool below_one(const char* text, const char* end) {
    const char* e = std::find_if(text, end, [](char c) { return c == 'e' || c == 'E'; });
    if (e != end) return e + 1 < end && e[1] == '-';
    const char* digits = text[0] == '-' ? text + 1 : text;
    return digits < end && digits[0] == '0';
  }

  bool Null() { return doc.Null(); }
  bool Bool(bool b) { return doc.Bool(b); }
  bool Int(int i) { return doc.Int(i); }
  bool Uint(unsigned u) { return doc.Uint(u); }
  bool Int64(int64_t i) { return doc.Int64(i); }
  bool Uint64(uint64_t u) { return doc.Uint64(u); }
  bool Double(double d) { return doc.Double(d); }
  bool String(const char* str, rapidjson::SizeType length, bool copy) { return doc.String(str, length, copy); }
  bool StartObject() { return doc.StartObject(); }
  bool Key(const char* str, rapidjson::SizeType length, bool copy) { return doc.Key(str, length, copy); }
  bool EndObject(rapidjson::SizeType members) { return doc.EndObject(members); }
  bool StartArray() { return doc.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) { return doc.EndArray(elements); }
};

}  // namespace

rapidjson::Document parse(const std::string& text, const std::string& where) {
  if (text.size() > kMaxDocumentBytes) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": document of " + std::to_string(text.size()) +
                                        " bytes is over the limit of " + std::to_string(kMaxDocumentBytes));
  }
  if (const std::optional<size_t> at = too_deep_at(text)) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": JSON nested deeper than " + std::to_string(kMaxDepth) +
                                        " levels at offset " + std::to_string(*at));
  }
  rapidjson::Document doc;
  rapidjson::ParseResult result;
  std::string bad_number;
  auto generate = [&](rapidjson::Document& handler) {
    rapidjson::MemoryStream bytes(text.data(), text.size());
    rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> input(bytes);
    NumberConverter converter{handler, bad_number};
    result = rapidjson::Reader().Parse<kParseFlags>(input, converter);
    return !result.IsError();
  };
  doc.Populate(generate);
  if (result.IsError()) {
    const std::string reason = bad_number.empty() ? rapidjson::GetParseError_En(result.Code())
                                                  : "number " + bad_number + " is out of the range of a double";
    fail(ZARR_ERR_INVALID_METADATA,
         where + ": malformed JSON at offset " + std::to_string(result.Offset()) + ": " + reason);
  }
  return doc;
}

rapidjson::Document parse_object(const std::string& text, const std::string& where) {
  rapidjson::Document doc = parse(text, where);
  if (!doc.IsObject()) fail(ZARR_ERR_INVALID_METADATA, where + ": expected a JSON object");
  return doc;
}

std::string to_string(const rapidjson::Value& value) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>, rapidjson::UTF8<>,
                    rapidjson::CrtAllocator, rapidjson::kWriteNanAndInfFlag>
      writer(buf);
  value.Accept(writer);
  return std::string(buf.GetString(), buf.GetSize());
}

namespace {

// A string as json.dumps(ensure_ascii=True) writes it: printable ASCII as
// is (but '"' and '\\'), the short escapes, everything else (DEL and all
// non-ASCII included) as lowercase \uXXXX, a surrogate pair above the BMP.
// Text that is not UTF-8 (RapidJSON does not validate it) has each byte
// escaped, so the output is still ASCII JSON.
void append_python_string(std::string& out, const std::string& s) {
  auto unit = [&](uint32_t u) {
    static const char kHex[] = "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(u >> shift) & 0xfu];
  };
  out += '"';
  const auto code_points = utf8_to_utf32(s);
  if (!code_points) {
    for (unsigned char c : s) unit(c);
  } else {
    for (uint32_t cp : *code_points) {
      switch (cp) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
          if (cp >= 0x20 && cp <= 0x7e) {
            out += static_cast<char>(cp);
          } else if (cp < 0x10000) {
            unit(cp);
          } else {
            const uint32_t v = cp - 0x10000;
            unit(0xd800 + (v >> 10));
            unit(0xdc00 + (v & 0x3ff));
          }
      }
    }
  }
  out += '"';
}

void append_python_number(std::string& out, const rapidjson::Value& v, NonFinite non_finite) {
  if (v.IsInt64()) {
    out += std::to_string(v.GetInt64());
  } else if (v.IsUint64()) {
    out += std::to_string(v.GetUint64());
  } else if (non_finite == NonFinite::kQuoted && !std::isfinite(v.GetDouble())) {
    out += '"' + python_float_repr(v.GetDouble()) + '"';
  } else {
    out += python_float_repr(v.GetDouble());
  }
}

void append_python_json(std::string& out, const rapidjson::Value& v, int depth, int width, NonFinite non_finite) {
  const std::string indent = "\n" + std::string(static_cast<size_t>((depth + 1) * width), ' ');
  const std::string close = "\n" + std::string(static_cast<size_t>(depth * width), ' ');
  if (v.IsObject()) {
    if (v.MemberCount() == 0) {
      out += "{}";
      return;
    }
    out += '{';
    bool first = true;
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      out += first ? indent : "," + indent;
      first = false;
      append_python_string(out, std::string(it->name.GetString(), it->name.GetStringLength()));
      out += ": ";
      append_python_json(out, it->value, depth + 1, width, non_finite);
    }
    out += close + '}';
  } else if (v.IsArray()) {
    if (v.Empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      out += i ? "," + indent : indent;
      append_python_json(out, v[i], depth + 1, width, non_finite);
    }
    out += close + ']';
  } else if (v.IsString()) {
    append_python_string(out, std::string(v.GetString(), v.GetStringLength()));
  } else if (v.IsNumber()) {
    append_python_number(out, v, non_finite);
  } else if (v.IsBool()) {
    out += v.GetBool() ? "true" : "false";
  } else {
    out += "null";
  }
}

}  // namespace

std::string to_pretty_string(const rapidjson::Value& value, int indent, NonFinite non_finite) {
  std::string out;
  append_python_json(out, value, 0, indent, non_finite);
  return out;
}

std::string python_float_repr(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  // to_chars without a precision gives the shortest round-trip digits, as
  // Python's repr does; only the layout differs, so reformat them.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // "-1.2345e+16"
  std::string sign;
  if (!sci.empty() && sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  const size_t e_pos = sci.find('e');
  std::string digits = sci.substr(0, e_pos);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exp10 = std::stoi(sci.substr(e_pos + 1));  // value = d.ddd * 10^exp10
  if (exp10 < -4 || exp10 >= 16) {
    std::string out = sign + digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    const int magnitude = exp10 < 0 ? -exp10 : exp10;
    out += exp10 < 0 ? "e-" : "e+";
    if (magnitude < 10) out += "0";
    return out + std::to_string(magnitude);
  }
  const int point = exp10 + 1;  // digits before the decimal point
  if (point <= 0) return sign + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  if (static_cast<size_t>(point) >= digits.size()) {
    return sign + digits + std::string(static_cast<size_t>(point) - digits.size(), '0') + ".0";
  }
  return sign + digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
}

void sort_keys(rapidjson::Value& value) {
  if (value.IsArray()) {
    for (auto& item : value.GetArray()) sort_keys(item);
    return;
  }
  if (!value.IsObject()) return;
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) sort_keys(it->value);
  std::sort(value.MemberBegin(), value.MemberEnd(), [](const auto& a, const auto& b) {
    return text(a.name) < text(b.name);  // byte order is code point order in UTF-8, as Python sorts
  });
}

std::string quote(const std::string& s) {
  rapidjson::Value v(rapidjson::StringRef(s.data(), s.size()));
  return to_string(v);
}

std::string text(const rapidjson::Value& v) { return std::string(v.GetString(), v.GetStringLength()); }

std::string nul_free_text(const rapidjson::Value& v, const std::string& member) {
  std::string out = text(v);
  const size_t nul = out.find('\0');
  // The text itself is not shown: it may be a secret (a store's key).
  if (nul != std::string::npos) {
    fail(ZARR_ERR_INVALID_ARGUMENT, member + " holds a NUL byte (at byte " + std::to_string(nul) +
                                        "), where a path, URL or name would end");
  }
  return out;
}

const rapidjson::Value* find(const rapidjson::Value& obj, const char* name) {
  if (!obj.IsObject()) return nullptr;
  auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

const rapidjson::Value& require(const rapidjson::Value& obj, const char* name, const std::string& where) {
  const rapidjson::Value* v = find(obj, name);
  if (!v) fail(ZARR_ERR_INVALID_METADATA, where + ": missing required field '" + name + "'");
  return *v;
}

int64_t get_int(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  if (!v.IsInt64()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "an integer"));
  return v.GetInt64();
}

uint64_t get_uint(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  if (!v.IsUint64()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "a non-negative integer"));
  return v.GetUint64();
}

std::string get_string(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  if (!v.IsString()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "a string"));
  return text(v);
}

bool get_bool(const rapidjson::Value& v, const std::string& field, const std::string& where) {
  if (!v.IsBool()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "true or false"));
  return v.GetBool();
}

std::vector<uint64_t> get_uint_list(const rapidjson::Value& v, const std::string& field,
                                    const std::string& where) {
  if (!v.IsArray()) fail(ZARR_ERR_INVALID_METADATA, field_error(where, field, "a list of integers"));
  std::vector<uint64_t> out;
  out.reserve(v.Size());
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    if (!v[i].IsUint64()) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field '" + field + "' item " + std::to_string(i) +
                                          " must be a non-negative integer, got " + to_string(v[i]));
    }
    out.push_back(v[i].GetUint64());
  }
  return out;
}

std::optional<int64_t> opt_int(const rapidjson::Value& obj, const char* name, const std::string& where) {
  const rapidjson::Value* v = find(obj, name);
  if (!v || v->IsNull()) return std::nullopt;
  return get_int(*v, name, where);
}

std::optional<std::string> opt_string(const rapidjson::Value& obj, const char* name,
                                      const std::string& where) {
  const rapidjson::Value* v = find(obj, name);
  if (!v || v->IsNull()) return std::nullopt;
  return get_string(*v, name, where);
}

std::optional<bool> opt_bool(const rapidjson::Value& obj, const char* name, const std::string& where) {
  const rapidjson::Value* v = find(obj, name);
  if (!v || v->IsNull()) return std::nullopt;
  return get_bool(*v, name, where);
}

std::string unknown(const char* what, const std::string& name) {
  constexpr size_t kMaxName = 80;
  const std::string quoted = quote(name);
  const std::string shown = quoted.size() <= kMaxName ? quoted : quoted.substr(0, kMaxName) + "...";
  return std::string("unknown ") + what + " " + shown;
}

const char* kind_name(const rapidjson::Value& v) {
  switch (v.GetType()) {
    case rapidjson::kObjectType: return "an object";
    case rapidjson::kArrayType: return "an array";
    case rapidjson::kStringType: return "a string";
    case rapidjson::kNumberType: return "a number";
    case rapidjson::kTrueType: return "true";
    case rapidjson::kFalseType: return "false";
    default: return "null";
  }
}

void check_members(const rapidjson::Value& object, std::initializer_list<const char*> known, int code,
                   const std::string& where, const char* what) {
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
    const std::string name(it->name.GetString(), it->name.GetStringLength());
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return name == k; })) {
      fail(code, where + ": " + unknown(what, name));
    }
  }
}

}  // namespace zarr::json
