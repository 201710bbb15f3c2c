// "categorize": numcodecs.Categorize for fixed-length unicode arrays ("<U4":
// UTF-32 code points, NUL-padded). Encoding stores, for each string, 1 + the
// index of the label it equals (trailing NULs do not count, as in numpy's
// comparison; the last of equal labels wins) or 0 for none, as `astype`
// (default "|u1"). Decoding writes the label back, cut to the dtype's length
// as numpy does, or "" for codes that name no label. Object arrays ("|O")
// are ZARR_ERR_UNSUPPORTED: libzarr has no object dtype.
#include <cmath>
#include <map>

#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/numpy_arith.h"

namespace zarr::codecs {

namespace {

const std::string kId = "categorize";

struct UnicodeType {
  size_t chars = 0;
  bool big_endian = false;
  std::string str() const { return std::string(big_endian ? ">" : "<") + "U" + std::to_string(chars); }
  size_t size() const { return chars * 4; }
};

std::optional<UnicodeType> parse_unicode_type(const std::string& s) {
  size_t pos = 0;
  UnicodeType t;
  if (!s.empty() && (s[0] == '<' || s[0] == '>' || s[0] == '|' || s[0] == '=')) {
    t.big_endian = s[0] == '>';
    pos = 1;
  }
  if (pos >= s.size() || s[pos] != 'U' || pos + 1 >= s.size() || s.size() - pos - 1 > 9) return std::nullopt;
  for (size_t k = pos + 1; k < s.size(); ++k) {
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
    t.chars = t.chars * 10 + static_cast<size_t>(s[k] - '0');
  }
  if (t.chars == 0) return std::nullopt;
  return t;
}

// UTF-8 to code points; a malformed sequence becomes U+FFFD.
std::u32string utf8_to_utf32(const std::string& s) {
  std::u32string out;
  for (size_t k = 0; k < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[k]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || k + len > s.size()) {
      out += U'\uFFFD';
      ++k;
      continue;
    }
    char32_t cp = len == 1 ? c : c & (0x7f >> len);
    bool ok = true;
    for (size_t j = 1; j < len; ++j) {
      unsigned char d = static_cast<unsigned char>(s[k + j]);
      if ((d >> 6) != 2) ok = false;
      cp = (cp << 6) | (d & 0x3f);
    }
    out += ok ? cp : U'\uFFFD';
    k += ok ? len : 1;
  }
  return out;
}

std::u32string strip_nuls(std::u32string s) {
  while (!s.empty() && s.back() == 0) s.pop_back();
  return s;
}

class CategorizeCodec final : public BytesCodec {
 public:
  CategorizeCodec(std::vector<std::string> labels, UnicodeType dtype, NumType astype)
      : labels_(std::move(labels)), dtype_(dtype), astype_(astype) {
    for (size_t i = 0; i < labels_.size(); ++i) {
      std::u32string l = strip_nuls(utf8_to_utf32(labels_[i]));
      codes_[l] = i + 1;  // the last equal label wins, as numcodecs' loop
      std::u32string cut = utf8_to_utf32(labels_[i]).substr(0, dtype_.chars);
      cut.resize(dtype_.chars, 0);
      stored_.push_back(cut);
    }
  }

  std::string id() const override { return kId; }
  std::string config_json() const override {
    return FilterConfigWriter(kId)
        .add_strings("labels", labels_)
        .add_string("dtype", dtype_.str())
        .add_string("astype", astype_.str())
        .str();
  }

  Bytes encode(ByteView decoded) const override {
    size_t n = count_items(kId, decoded.size, dtype_.size(), "input", "dtype " + dtype_.str());
    Bytes out(n * astype_.size);
    const NumType i8{NumKind::Int, 8, false};
    std::u32string s;
    for (size_t k = 0; k < n; ++k) {
      s.clear();
      for (size_t c = 0; c < dtype_.chars; ++c) s += load_char(decoded.data + k * dtype_.size() + 4 * c);
      auto it = codes_.find(strip_nuls(s));
      Num code;
      code.i = it == codes_.end() ? 0 : it->second;
      store(out.data() + k * astype_.size, astype_, cast(code, i8, astype_));
    }
    return out;
  }

  std::optional<uint64_t> max_encoded_size(uint64_t n) const override {
    return converted_size(n, dtype_.size(), astype_.size);
  }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    size_t n = count_items(kId, encoded.size, astype_.size, "input", "astype " + astype_.str());
    check_output_size(kId, n * dtype_.size(), expected_size);
    Bytes out(n * dtype_.size(), 0);
    for (size_t k = 0; k < n; ++k) {
      size_t label = label_of(load(encoded.data + k * astype_.size, astype_));
      if (label == 0) continue;  // "" is all NULs
      const std::u32string& s = stored_[label - 1];
      for (size_t c = 0; c < dtype_.chars; ++c) store_char(out.data() + k * dtype_.size() + 4 * c, s[c]);
    }
    return out;
  }

 private:
  char32_t load_char(const uint8_t* p) const {
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= uint32_t{p[dtype_.big_endian ? 3 - b : b]} << (8 * b);
    return v;
  }
  void store_char(uint8_t* p, char32_t c) const {
    for (int b = 0; b < 4; ++b) p[dtype_.big_endian ? 3 - b : b] = static_cast<uint8_t>(c >> (8 * b));
  }

  // 1 + the label index a code names, 0 for none (numpy compares exactly).
  size_t label_of(const Num& v) const {
    const size_t count = labels_.size();
    switch (astype_.kind) {
      case NumKind::Float:
        if (v.f >= 1 && v.f <= static_cast<double>(count) && std::floor(v.f) == v.f) return static_cast<size_t>(v.f);
        return 0;
      case NumKind::Int:
        if (static_cast<int64_t>(v.i) < 1) return 0;
        [[fallthrough]];
      default:
        return v.i >= 1 && v.i <= count ? static_cast<size_t>(v.i) : 0;
    }
  }

  std::vector<std::string> labels_;
  UnicodeType dtype_;
  NumType astype_;
  std::map<std::u32string, size_t> codes_;
  std::vector<std::u32string> stored_;  // labels as stored: cut or NUL-padded to the length
};

}  // namespace

std::unique_ptr<BytesCodec> make_categorize_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  const rapidjson::Value* labels_v = cfg.find("labels");
  if (!labels_v) missing_field(cfg, "labels");
  if (!labels_v->IsArray()) cfg.invalid("labels", "a list of strings", *labels_v);
  std::vector<std::string> labels;
  for (const auto& l : labels_v->GetArray()) {
    if (!l.IsString()) cfg.invalid("labels", "a list of strings", *labels_v);
    labels.emplace_back(l.GetString(), l.GetStringLength());
  }
  const rapidjson::Value* dtype_v = cfg.find("dtype");
  if (!dtype_v) missing_field(cfg, "dtype");
  if (!dtype_v->IsString()) cfg.invalid("dtype", "a unicode dtype string such as \"<U4\"", *dtype_v);
  std::string dtype_s(dtype_v->GetString(), dtype_v->GetStringLength());
  std::optional<UnicodeType> dtype = parse_unicode_type(dtype_s);
  if (!dtype) {
    if (dtype_s == "|O" || dtype_s == "O" || dtype_s == "object" || dtype_s == "<O" || dtype_s == ">O") {
      cfg.unsupported("field 'dtype': object arrays (" + json::quote(dtype_s) +
                      ") need an object codec, which libzarr lacks; only fixed-length unicode (\"<U4\") is supported");
    }
    cfg.invalid("dtype", "a fixed-length unicode dtype such as \"<U4\" (or \"|O\", unsupported)", *dtype_v);
  }
  NumType astype = read_num_type(cfg, "astype", NumType{NumKind::UInt, 1, false});
  return std::make_unique<CategorizeCodec>(std::move(labels), *dtype, astype);
}

}  // namespace zarr::codecs
