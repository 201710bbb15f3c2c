// The registry's "cast_value" codec (array->array): each element converted by
// its numerical value into the configuration's "data_type", and back on
// decoding. In order: the "scalar_map" (a value listed there becomes the
// value it is mapped to), a value the target holds exactly, else the value
// rounded by "rounding" and, outside the target's range, "out_of_range"
// (none: an error). NaN and infinities need a target that has them or a
// mapping. The fill value goes the same way, and must come back unchanged.
#include <cmath>
#include <vector>

#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/numeric_cast.h"
#include "dtype/convert.h"

namespace zarr::codecs {

namespace {

const char* const kRoundings[] = {"nearest-even", "towards-zero", "towards-positive", "towards-negative",
                                  "nearest-away"};

// One direction of the cast: from `from` into `to`, with its scalar map.
struct CastDirection {
  DataType from, to;
  Rounding rounding = Rounding::NearestEven;
  OutOfRange out_of_range = OutOfRange::Fail;
  std::vector<std::pair<long double, Bytes>> scalar_map;  // input value -> output item, first wins

  // The item `in` becomes at `out`; false when it cannot be cast.
  bool cast(const uint8_t* in, uint8_t* out) const {
    const long double v = load_real(in, from);
    for (const auto& entry : scalar_map) {
      if (entry.first == v || (std::isnan(entry.first) && std::isnan(v))) {
        std::copy(entry.second.begin(), entry.second.end(), out);
        return true;
      }
    }
    const std::optional<long double> r = cast_real(v, to, rounding, out_of_range);
    if (!r) return false;
    store_real(*r, out, to);
    return true;
  }

  Bytes cast_all(const Bytes& in, const char* doing) const {
    const size_t n = in.size() / from.item_size();
    Bytes out(n * to.item_size());
    for (size_t k = 0; k < n; ++k) {
      if (!cast(in.data() + k * from.item_size(), out.data() + k * to.item_size())) {
        fail(ZARR_ERR_CODEC, std::string("codec 'cast_value': ") + doing + " element " + std::to_string(k) + " (" +
                                 real_text(load_real(in.data() + k * from.item_size(), from)) + ") has no value in " +
                                 type_text(to) + failure_hint());
      }
    }
    return out;
  }

  std::string failure_hint() const {
    return out_of_range == OutOfRange::Fail ? " (no 'out_of_range' is set, and NaN and infinities need a target "
                                              "that has them or a 'scalar_map' entry)"
                                            : " (NaN and infinities need a target that has them or a 'scalar_map' entry)";
  }
};

class CastValueCodec final : public ArrayToArrayCodec {
 public:
  CastValueCodec(CastDirection encode, CastDirection decode, Bytes encoded_fill, std::string config_json)
      : encode_(std::move(encode)), decode_(std::move(decode)), encoded_fill_(std::move(encoded_fill)),
        config_json_(std::move(config_json)) {}

  std::string name() const override { return "cast_value"; }
  std::string v3_config_json() const override {
    return "{\"name\":\"cast_value\",\"configuration\":" + config_json_ + "}";
  }
  ArrayRepr encoded_repr(const ArrayRepr& decoded) const override {
    ArrayRepr encoded = decoded;
    encoded.dtype = encode_.to;
    encoded.fill_item = encoded_fill_;
    return encoded;
  }
  Bytes encode(Bytes chunk, const ArrayRepr&) const override { return encode_.cast_all(chunk, "encoding"); }
  Bytes decode(Bytes chunk, const ArrayRepr&) const override { return decode_.cast_all(chunk, "decoding"); }

 private:
  CastDirection encode_, decode_;
  Bytes encoded_fill_;
  std::string config_json_;
};

Rounding read_rounding(const rapidjson::Value& config, const std::string& where) {
  const rapidjson::Value* r = json::find(config, "rounding");
  if (!r) return Rounding::NearestEven;
  const std::string name = r->IsString() ? json::text(*r) : "";
  for (size_t i = 0; i < sizeof kRoundings / sizeof *kRoundings; ++i) {
    if (name == kRoundings[i]) return static_cast<Rounding>(i);
  }
  fail(ZARR_ERR_INVALID_METADATA, where + ": field 'rounding' must be one of \"nearest-even\", \"towards-zero\", "
                                          "\"towards-positive\", \"towards-negative\", \"nearest-away\"; got " +
                                      json::to_string(*r));
}

OutOfRange read_out_of_range(const rapidjson::Value& config, const DataType& target, const std::string& where) {
  const rapidjson::Value* o = json::find(config, "out_of_range");
  if (!o) return OutOfRange::Fail;
  const std::string name = o->IsString() ? json::text(*o) : "";
  if (name == "clamp") return OutOfRange::Clamp;
  if (name != "wrap") {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'out_of_range' must be \"clamp\" or \"wrap\", got " +
                                        json::to_string(*o));
  }
  if (!is_integral(target)) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'out_of_range' \"wrap\" needs an integer 'data_type', not " +
                                        type_text(target));
  }
  return OutOfRange::Wrap;
}

// A scalar in the fill value encoding of t, or "+Infinity", which the
// README's own example writes for "Infinity".
Bytes parse_scalar(const DataType& t, const rapidjson::Value& v, const std::string& where) {
  if (v.IsString() && json::text(v) == "+Infinity") return t.parse_fill_value_v3(rapidjson::Value("Infinity"), where);
  return t.parse_fill_value_v3(v, where);
}

// scalar_map's "encode" or "decode": [[input, output], ...], each scalar in
// the fill value encoding of its type.
std::vector<std::pair<long double, Bytes>> read_scalar_map(const rapidjson::Value& config, const char* direction,
                                                           const DataType& from, const DataType& to,
                                                           const std::string& where) {
  std::vector<std::pair<long double, Bytes>> map;
  const rapidjson::Value* m = json::find(config, "scalar_map");
  if (!m) return map;
  const std::string at = where + ": field 'scalar_map'";
  if (!m->IsObject()) fail(ZARR_ERR_INVALID_METADATA, at + " must be an object");
  json::check_members(*m, {"encode", "decode"}, ZARR_ERR_INVALID_METADATA, at);
  const rapidjson::Value* list = json::find(*m, direction);
  if (!list) return map;
  const std::string field = at + " '" + direction + "'";
  if (!list->IsArray()) fail(ZARR_ERR_INVALID_METADATA, field + " must be a list of [input, output] pairs");
  for (const rapidjson::Value& pair : list->GetArray()) {
    const std::string item = field + " item " + std::to_string(map.size());
    if (!pair.IsArray() || pair.Size() != 2) fail(ZARR_ERR_INVALID_METADATA, item + " must be an [input, output] pair");
    const Bytes input = parse_scalar(from, pair[0], item + " input");
    map.emplace_back(load_real(input.data(), from), parse_scalar(to, pair[1], item + " output"));
  }
  return map;
}

DataType read_target(const rapidjson::Value& config, const DataType& input, const std::string& where) {
  const DataType target = DataType::parse_v3(json::require(config, "data_type", where), where + ": field 'data_type'");
  for (const DataType* t : {&input, &target}) {
    if (!is_real_numeric(*t)) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": cast_value converts integers and real floats, not " + type_text(*t) +
                                          (t == &target ? " (field 'data_type')" : " (the array's data type)"));
    }
  }
  return target;
}

// The fill value cast forward, checked to come back unchanged.
Bytes encoded_fill(const CastDirection& encode, const CastDirection& decode, const Bytes& fill, const std::string& where) {
  if (fill.size() != encode.from.item_size()) return Bytes(encode.to.item_size(), 0);
  Bytes forward(encode.to.item_size()), back(encode.from.item_size());
  const bool ok = encode.cast(fill.data(), forward.data()) && decode.cast(forward.data(), back.data());
  const long double was = load_real(fill.data(), encode.from);
  const long double is = ok ? load_real(back.data(), encode.from) : 0;
  if (!ok || !(was == is || (std::isnan(was) && std::isnan(is)))) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": the fill value " + real_text(was) + " does not survive the cast to " +
                                        type_text(encode.to) + " and back" +
                                        (ok ? " (it comes back as " + real_text(is) + ")" : ""));
  }
  return forward;
}

}  // namespace

V3Codec make_cast_value_v3(const V3CodecRequest& request) {
  const std::string& where = request.where;
  if (!request.configuration) fail(ZARR_ERR_INVALID_METADATA, where + ": 'configuration' is required");
  const rapidjson::Value& config = *request.configuration;
  json::check_members(config, {"data_type", "rounding", "out_of_range", "scalar_map"}, ZARR_ERR_INVALID_METADATA,
                      where, "configuration member");
  const DataType& input = request.decoded.dtype;
  const DataType target = read_target(config, input, where);
  CastDirection encode{input, target, read_rounding(config, where), read_out_of_range(config, target, where),
                       read_scalar_map(config, "encode", input, target, where)};
  CastDirection decode{target, input, encode.rounding, encode.out_of_range,
                       read_scalar_map(config, "decode", target, input, where)};
  Bytes fill = encoded_fill(encode, decode, request.decoded.fill_item, where);
  return V3Codec{std::make_shared<CastValueCodec>(std::move(encode), std::move(decode), std::move(fill),
                                                  json::to_string(config)),
                 nullptr, nullptr};
}

}  // namespace zarr::codecs
