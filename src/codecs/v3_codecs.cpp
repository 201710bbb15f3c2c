// Zarr v3 "codecs" lists. Core bytes->bytes codecs (gzip, zstd, blosc,
// crc32c) and every "numcodecs.<id>" run on the same implementations as v2:
// their v3 configuration is translated to the numcodecs one and back.
#include "codecs/v3_codecs.h"

#include <set>

#include "codecs/array_codecs.h"
#include "codecs/sharding_codec.h"
#include "codecs/vlen_codecs.h"
#include "core/error.h"
#include "core/json.h"

namespace zarr {

namespace {

constexpr const char* kNumcodecsPrefix = "numcodecs.";

// numcodecs filters that zarr-python 3 runs as array->array codecs.
const std::set<std::string> kNumcodecsArrayToArray = {"delta", "bitround", "fixedscaleoffset", "quantize", "astype"};

enum class Kind { ArrayToArray, ArrayToBytes, BytesToBytes };

const char* kind_name(Kind k) {
  return k == Kind::ArrayToArray ? "array->array" : k == Kind::ArrayToBytes ? "array->bytes" : "bytes->bytes";
}

struct CodecSpec {
  std::string name;
  const rapidjson::Value* configuration = nullptr;  // nullptr: absent
  std::string where;
};

// A bytes->bytes codec as the v3 metadata named it, so it is written back
// under the same name and configuration.
class V3NamedCodec final : public BytesCodec {
 public:
  V3NamedCodec(std::unique_ptr<BytesCodec> inner, std::string v3_json)
      : inner_(std::move(inner)), v3_json_(std::move(v3_json)) {}
  std::string id() const override { return inner_->id(); }
  std::string config_json() const override { return inner_->config_json(); }
  Bytes encode(ByteView decoded) const override { return inner_->encode(decoded); }
  Bytes decode(ByteView encoded, size_t expected_size) const override { return inner_->decode(encoded, expected_size); }
  const std::string& v3_json() const { return v3_json_; }

 private:
  std::unique_ptr<BytesCodec> inner_;
  std::string v3_json_;
};

// A numcodecs filter run as array->array: on the chunk's native bytes, as
// zarr-python 3 hands numcodecs the in-memory array. "astype" changes the
// element type of what the next codec sees.
class NumcodecsArrayCodec final : public ArrayToArrayCodec {
 public:
  NumcodecsArrayCodec(std::unique_ptr<BytesCodec> inner, std::string v3_json, std::optional<DataType> astype)
      : inner_(std::move(inner)), v3_json_(std::move(v3_json)), astype_(std::move(astype)) {}
  std::string name() const override { return kNumcodecsPrefix + inner_->id(); }
  std::string v3_config_json() const override { return v3_json_; }
  ArrayRepr encoded_repr(const ArrayRepr& decoded) const override {
    ArrayRepr encoded = decoded;
    if (astype_) encoded.dtype = *astype_;
    return encoded;
  }
  Bytes encode(Bytes chunk, const ArrayRepr&) const override { return inner_->encode(chunk); }
  Bytes decode(Bytes chunk, const ArrayRepr& decoded) const override {
    return inner_->decode(chunk, decoded.byte_size());
  }

 private:
  std::unique_ptr<BytesCodec> inner_;
  std::string v3_json_;
  std::optional<DataType> astype_;
};

bool host_is_big_endian() {
  const uint16_t probe = 1;
  return *reinterpret_cast<const uint8_t*>(&probe) == 0;
}

std::string typestr_of(const DataType& t) {
  std::string s = t.fields().empty() ? t.to_v2_json() : "";
  return s.size() >= 2 ? s.substr(1, s.size() - 2) : s;
}

CodecSpec parse_spec(const rapidjson::Value& item, const std::string& where) {
  CodecSpec spec;
  spec.where = where;
  if (item.IsString()) {
    spec.name = item.GetString();
    return spec;
  }
  if (!item.IsObject()) fail(ZARR_ERR_INVALID_METADATA, where + " must be a name or an object");
  spec.name = json::get_string(json::require(item, "name", where), "name", where);
  spec.where = where + " ('" + spec.name + "')";
  for (auto it = item.MemberBegin(); it != item.MemberEnd(); ++it) {
    std::string key = it->name.GetString();
    if (key == "configuration") {
      if (!it->value.IsObject()) fail(ZARR_ERR_INVALID_METADATA, spec.where + ": 'configuration' must be an object");
      spec.configuration = &it->value;
    } else if (key != "name" && key != "must_understand") {
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": unknown member '" + key + "'");
    }
  }
  return spec;
}

// The configuration's members copied into a numcodecs (v2) configuration.
std::string v2_config(const std::string& id, const rapidjson::Value* configuration) {
  std::string out = "{\"id\":" + json::quote(id);
  if (configuration) {
    for (auto it = configuration->MemberBegin(); it != configuration->MemberEnd(); ++it) {
      if (std::string(it->name.GetString()) == "id") continue;
      out += "," + json::to_string(it->name) + ":" + json::to_string(it->value);
    }
  }
  return out + "}";
}

std::string v3_json(const std::string& name, const rapidjson::Value* configuration) {
  std::string out = "{\"name\":" + json::quote(name);
  if (configuration) out += ",\"configuration\":" + json::to_string(*configuration);
  return out + "}";
}

std::unique_ptr<BytesCodec> make_from_v2(const std::string& config, const ChunkRepr& repr, const CodecSpec& spec) {
  rapidjson::Document doc = json::parse(config, spec.where);
  try {
    return make_bytes_codec(doc, repr);
  } catch (const Error& e) {
    fail(e.code(), spec.where + ": " + e.what());
  }
}

// blosc's v3 configuration names its shuffle and carries the typesize.
std::unique_ptr<BytesCodec> make_blosc(const CodecSpec& spec, ChunkRepr repr) {
  if (!spec.configuration) fail(ZARR_ERR_INVALID_METADATA, spec.where + ": 'configuration' is required");
  const rapidjson::Value& c = *spec.configuration;
  std::string config = "{\"id\":\"blosc\"";
  for (const char* field : {"cname", "clevel", "blocksize"}) {
    if (const rapidjson::Value* v = json::find(c, field)) config += ",\"" + std::string(field) + "\":" + json::to_string(*v);
  }
  if (const rapidjson::Value* shuffle = json::find(c, "shuffle")) {
    std::string name = json::get_string(*shuffle, "shuffle", spec.where);
    int code = name == "noshuffle" ? 0 : name == "shuffle" ? 1 : name == "bitshuffle" ? 2 : -9;
    if (code == -9) {
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": field 'shuffle' must be \"noshuffle\", \"shuffle\" or "
                                                   "\"bitshuffle\", got " + json::quote(name));
    }
    config += ",\"shuffle\":" + std::to_string(code);
  }
  if (const rapidjson::Value* typesize = json::find(c, "typesize")) {
    uint64_t t = json::get_uint(*typesize, "typesize", spec.where);
    if (t == 0) fail(ZARR_ERR_INVALID_METADATA, spec.where + ": field 'typesize' must be positive");
    repr.item_size = static_cast<size_t>(t);
  }
  return make_from_v2(config + "}", repr, spec);
}

// The v3 JSON of a blosc codec from its numcodecs configuration.
std::string blosc_v3_json(const BytesCodec& codec, size_t typesize) {
  rapidjson::Document c = json::parse(codec.config_json(), "blosc");
  static const char* kShuffleNames[] = {"noshuffle", "shuffle", "bitshuffle"};
  int shuffle = c["shuffle"].GetInt();
  // Key order as zarr-python 3 writes it.
  return "{\"name\":\"blosc\",\"configuration\":{\"typesize\":" + std::to_string(typesize) +
         ",\"cname\":" + json::to_string(c["cname"]) + ",\"clevel\":" + json::to_string(c["clevel"]) +
         ",\"shuffle\":\"" + (shuffle >= 0 && shuffle <= 2 ? kShuffleNames[shuffle] : "shuffle") +
         "\",\"blocksize\":" + json::to_string(c["blocksize"]) + "}}";
}

Kind kind_of(const std::string& name) {
  if (name == "transpose") return Kind::ArrayToArray;
  if (name == "bytes" || name == "sharding_indexed" || name == "vlen-utf8" || name == "vlen-bytes") {
    return Kind::ArrayToBytes;
  }
  if (name.rfind(kNumcodecsPrefix, 0) == 0 && kNumcodecsArrayToArray.count(name.substr(10))) return Kind::ArrayToArray;
  return Kind::BytesToBytes;
}

std::vector<size_t> transpose_order(const CodecSpec& spec, size_t ndim) {
  if (!spec.configuration) fail(ZARR_ERR_INVALID_METADATA, spec.where + ": 'configuration' is required");
  const rapidjson::Value& order = json::require(*spec.configuration, "order", spec.where);
  if (order.IsString()) {  // early v3 drafts: "C" or "F"
    std::string o = order.GetString();
    if (o == "F") return fortran_order(ndim);
    if (o != "C") fail(ZARR_ERR_INVALID_METADATA, spec.where + ": field 'order' must be a permutation list");
    std::vector<size_t> identity(ndim);
    for (size_t i = 0; i < ndim; ++i) identity[i] = i;
    return identity;
  }
  std::vector<uint64_t> list = json::get_uint_list(order, "order", spec.where);
  return std::vector<size_t>(list.begin(), list.end());
}

std::shared_ptr<const ArrayToArrayCodec> make_array_to_array(const CodecSpec& spec, const ArrayRepr& decoded) {
  if (spec.name == "transpose") {
    try {
      return make_transpose_codec(transpose_order(spec, decoded.shape.size()), decoded.shape.size());
    } catch (const Error& e) {
      fail(e.code(), spec.where + ": " + e.what());
    }
  }
  const std::string id = spec.name.substr(10);
  std::string config = v2_config(id, spec.configuration);
  ChunkRepr repr{decoded.dtype.item_size(), decoded.byte_size(), typestr_of(decoded.dtype)};
  std::optional<DataType> astype;
  if (spec.configuration) {
    if (const rapidjson::Value* a = json::find(*spec.configuration, "astype")) {
      astype = DataType::from_typestr(json::get_string(*a, "astype", spec.where), spec.where + ": field 'astype'")
                   .with_byte_order(host_is_big_endian());
    }
  }
  return std::make_shared<NumcodecsArrayCodec>(make_from_v2(config, repr, spec), v3_json(spec.name, spec.configuration),
                                               astype);
}

std::shared_ptr<const ArrayToBytesCodec> make_array_to_bytes(const CodecSpec& spec, const ArrayRepr& decoded) {
  if (spec.name == "bytes") {
    std::optional<bool> big;
    if (spec.configuration) {
      if (const rapidjson::Value* e = json::find(*spec.configuration, "endian")) {
        std::string endian = json::get_string(*e, "endian", spec.where);
        if (endian != "little" && endian != "big") {
          fail(ZARR_ERR_INVALID_METADATA, spec.where + ": field 'endian' must be \"little\" or \"big\", got " +
                                              json::quote(endian));
        }
        big = endian == "big";
      }
    }
    DataType stored = decoded.dtype.with_byte_order(big.value_or(host_is_big_endian()));
    if (!big && stored.with_byte_order(!host_is_big_endian()).needs_byte_swap()) {
      const DataType& t = decoded.dtype;
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": field 'endian' is required for data type " +
                                          (t.v3_name() ? json::quote(*t.v3_name()) : t.to_v2_json()));
    }
    return make_bytes_layout_codec(stored, big);
  }
  if (spec.name == "vlen-utf8" || spec.name == "vlen-bytes") return vlen::make_vlen_codec(spec.name);
  if (spec.name == "sharding_indexed") return make_sharding_codec(spec.configuration, decoded, spec.where);
  fail(ZARR_ERR_UNSUPPORTED, spec.where + ": codec '" + spec.name + "' is not supported yet");
}

// The codec's numcodecs configuration as a v3 "configuration" object: every
// member but "id", defaults filled in.
std::string configuration_of(const BytesCodec& codec) {
  rapidjson::Document c = json::parse(codec.config_json(), codec.id());
  c.RemoveMember("id");
  return json::to_string(c);
}

std::shared_ptr<const BytesCodec> make_bytes_to_bytes(const CodecSpec& spec, const ChunkRepr& repr) {
  if (spec.name == "blosc") {
    size_t typesize = repr.item_size;
    if (spec.configuration) {
      if (const rapidjson::Value* t = json::find(*spec.configuration, "typesize")) {
        typesize = static_cast<size_t>(json::get_uint(*t, "typesize", spec.where));
      }
    }
    std::unique_ptr<BytesCodec> codec = make_blosc(spec, repr);
    std::string v3 = v3_codec_json(*codec, typesize);
    return std::make_shared<V3NamedCodec>(std::move(codec), v3);
  }
  if (spec.name == "gzip" || spec.name == "zstd") {
    std::unique_ptr<BytesCodec> codec = make_from_v2(v2_config(spec.name, spec.configuration), repr, spec);
    std::string v3 = v3_codec_json(*codec, repr.item_size);
    return std::make_shared<V3NamedCodec>(std::move(codec), v3);
  }
  if (spec.name == "crc32c") {
    if (spec.configuration && spec.configuration->MemberCount() > 0) {
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": codec 'crc32c' takes no configuration");
    }
    // v3's crc32c appends the checksum, as numcodecs' CRC32C does by default.
    return std::make_shared<V3NamedCodec>(make_from_v2("{\"id\":\"crc32c\"}", repr, spec), "{\"name\":\"crc32c\"}");
  }
  if (spec.name.rfind(kNumcodecsPrefix, 0) == 0) {
    std::unique_ptr<BytesCodec> codec = make_from_v2(v2_config(spec.name.substr(10), spec.configuration), repr, spec);
    std::string v3 = "{\"name\":" + json::quote(spec.name) + ",\"configuration\":" + configuration_of(*codec) + "}";
    return std::make_shared<V3NamedCodec>(std::move(codec), v3);
  }
  if (is_registered_v3_name(spec.name)) {  // a plugin's codec: its v2 configuration is the v3 one plus "id"
    std::unique_ptr<BytesCodec> codec = make_from_v2(v2_config(spec.name, spec.configuration), repr, spec);
    std::string v3 = "{\"name\":" + json::quote(spec.name) + ",\"configuration\":" + configuration_of(*codec) + "}";
    return std::make_shared<V3NamedCodec>(std::move(codec), v3);
  }
  fail(ZARR_ERR_UNSUPPORTED, spec.where + ": unsupported codec '" + spec.name + "'");
}

}  // namespace

std::shared_ptr<const BytesCodec> make_v3_bytes_codec(const rapidjson::Value& item, const ChunkRepr& repr,
                                                      const std::string& where) {
  CodecSpec spec = parse_spec(item, where);
  const Kind kind = kind_of(spec.name);
  const bool numcodecs = spec.name.rfind(kNumcodecsPrefix, 0) == 0;
  if (kind != Kind::BytesToBytes && !numcodecs) {
    fail(ZARR_ERR_UNSUPPORTED, spec.where + ": codec '" + spec.name + "' is " + kind_name(kind) +
                                   ": it needs an array's shape and data type, so it runs only inside an array");
  }
  if (kind == Kind::ArrayToArray) {  // numcodecs filters work on the bytes of their configured dtype
    return make_from_v2(v2_config(spec.name.substr(10), spec.configuration), repr, spec);
  }
  return make_bytes_to_bytes(spec, repr);
}

CodecChain make_v3_codec_chain(const rapidjson::Value& codecs, const ArrayRepr& decoded, const std::string& where) {
  if (!codecs.IsArray()) fail(ZARR_ERR_INVALID_METADATA, where + " must be a list of codecs");
  std::vector<std::shared_ptr<const ArrayToArrayCodec>> array_to_array;
  std::shared_ptr<const ArrayToBytesCodec> array_to_bytes;
  std::vector<std::shared_ptr<const BytesCodec>> bytes_to_bytes;
  ArrayRepr current = decoded;  // what the next codec receives
  for (rapidjson::SizeType i = 0; i < codecs.Size(); ++i) {
    CodecSpec spec = parse_spec(codecs[i], where + " item " + std::to_string(i));
    Kind kind = kind_of(spec.name);
    // The order the spec requires: array->array*, one array->bytes, bytes->bytes*.
    if (kind != Kind::BytesToBytes && array_to_bytes) {
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": " + kind_name(kind) + " codec '" + spec.name +
                                          "' cannot follow the array->bytes codec '" + array_to_bytes->name() + "'");
    }
    if (kind == Kind::BytesToBytes && !array_to_bytes) {
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": bytes->bytes codec '" + spec.name +
                                          "' must follow an array->bytes codec such as \"bytes\"");
    }
    if (kind == Kind::ArrayToArray) {
      array_to_array.push_back(make_array_to_array(spec, current));
      current = array_to_array.back()->encoded_repr(current);
    } else if (kind == Kind::ArrayToBytes) {
      array_to_bytes = make_array_to_bytes(spec, current);
    } else {
      const bool first = bytes_to_bytes.empty();
      ChunkRepr repr{current.dtype.item_size(), first ? array_to_bytes->fixed_encoded_size(current) : 0,
                     typestr_of(current.dtype)};
      bytes_to_bytes.push_back(make_bytes_to_bytes(spec, repr));
    }
  }
  if (!array_to_bytes) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": an array->bytes codec (such as \"bytes\") is required");
  }
  return CodecChain(std::move(array_to_array), std::move(array_to_bytes), std::move(bytes_to_bytes), decoded);
}

std::string v3_codec_json(const BytesCodec& codec, size_t typesize) {
  const std::string id = codec.id();
  if (id == "blosc") return blosc_v3_json(codec, typesize);
  if (id == "gzip" || id == "zstd") {
    rapidjson::Document c = json::parse(codec.config_json(), id);
    std::string config = "{\"level\":" + json::to_string(c["level"]);
    if (id == "zstd") {
      const rapidjson::Value* checksum = json::find(c, "checksum");
      config += std::string(",\"checksum\":") + (checksum && checksum->IsBool() && checksum->GetBool() ? "true" : "false");
    }
    return "{\"name\":\"" + id + "\",\"configuration\":" + config + "}}";
  }
  return "{\"name\":\"" + std::string(kNumcodecsPrefix) + id + "\",\"configuration\":" + configuration_of(codec) + "}";
}

std::string v3_codecs_json(const CodecChain& chain) {
  std::string out = "[";
  auto add = [&](const std::string& item) { out += (out.size() > 1 ? "," : "") + item; };
  for (const auto& c : chain.array_to_array()) add(c->v3_config_json());
  add(chain.array_to_bytes()->v3_config_json());
  for (const auto& c : chain.bytes_to_bytes()) {
    // Codecs from v2 metadata carry no v3 name: numcodecs.<id> is theirs.
    const auto* named = dynamic_cast<const V3NamedCodec*>(c.get());
    add(named ? named->v3_json() : v3_codec_json(*c, chain.bytes_to_bytes_typesize()));
  }
  return out + "]";
}

}  // namespace zarr
