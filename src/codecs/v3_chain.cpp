// Zarr v3 "codecs" lists: parsing one into a chain, and writing a chain back.
// Each name resolves through the registry (codec.h); "numcodecs.<id>" and
// plugins' codecs run on their v2 implementations (v3_numcodecs.h).
#include "codecs/v3_chain.h"

#include <set>

#include "base/error.h"
#include "base/json.h"
#include "base/zarr_extensions.h"
#include "codecs/v3_numcodecs.h"
#include "dtype/byte_order.h"
#include "zarr_config.h"

namespace zarr {

namespace {

using codecs::configuration_of;
using codecs::kNumcodecsPrefix;
using codecs::make_from_v2;
using codecs::v2_config;
using codecs::V3NamedCodec;

// numcodecs filters that zarr-python 3 runs as array->array codecs.
const std::set<std::string> kNumcodecsArrayToArray = {"delta", "bitround", "fixedscaleoffset", "quantize", "astype"};

struct CodecSpec {
  std::string name;
  const rapidjson::Value* configuration = nullptr;  // nullptr: absent
  std::string where;
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

std::string typestr_of(const DataType& t) {
  std::string s = t.fields().empty() ? t.to_v2_json() : "";
  return s.size() >= 2 ? s.substr(1, s.size() - 2) : s;
}

CodecSpec parse_spec(const rapidjson::Value& item, const std::string& where) {
  CodecSpec spec;
  spec.where = where;
  if (item.IsString()) {
    spec.name = json::text(item);
    return spec;
  }
  if (!item.IsObject()) fail(ZARR_ERR_INVALID_METADATA, where + " must be a name or an object");
  spec.name = json::get_string(json::require(item, "name", where), "name", where);
  spec.where = where + " ('" + spec.name + "')";
  for (auto it = item.MemberBegin(); it != item.MemberEnd(); ++it) {
    std::string key = json::text(it->name);
    if (key == "configuration") {
      if (!it->value.IsObject()) fail(ZARR_ERR_INVALID_METADATA, spec.where + ": 'configuration' must be an object");
      spec.configuration = &it->value;
    } else if (key != "name" && key != "must_understand") {
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": " + json::unknown("member", key));
    }
  }
  return spec;
}

std::string v3_json(const std::string& name, const rapidjson::Value* configuration) {
  std::string out = "{\"name\":" + json::quote(name);
  if (configuration) out += ",\"configuration\":" + json::to_string(*configuration);
  return out + "}";
}

// The kind of a v3 name: registered core codecs know theirs; the numcodecs
// filters zarr-python 3 runs on arrays are array->array; every other name
// (numcodecs.*, plugins' codecs, unknown ones) is bytes->bytes.
CodecKind kind_of(const std::string& name) {
  if (std::optional<V3CodecEntry> entry = find_v3_codec(name)) return entry->kind;
  if (name.rfind(kNumcodecsPrefix, 0) == 0 && kNumcodecsArrayToArray.count(name.substr(10))) {
    return CodecKind::ArrayToArray;
  }
  return CodecKind::BytesToBytes;
}

// True when a v3 codec list may name `name`: a registered v3 codec, a
// numcodecs filter or compressor the v2 registry has, or a plugin's codec.
bool is_known_v3_codec(const std::string& name) {
  if (find_v3_codec(name) || kind_of(name) == CodecKind::ArrayToArray) return true;
  if (name.rfind(kNumcodecsPrefix, 0) == 0) return is_known_bytes_codec(name.substr(10));
  return is_registered_v3_name(name);
}

[[noreturn]] void fail_unknown_v3_codec(const CodecSpec& spec) {
#if !ZARR_HAVE_ZFP
  if (spec.name == "zfp" || spec.name == "numcodecs.zfpy") {
    fail(ZARR_ERR_UNSUPPORTED, spec.where + ": codec '" + spec.name +
                                   "': libzarr was built without it (libzfp was not found or -Dzfp=disabled was set)");
  }
#endif
  const bool numcodecs = spec.name.rfind(kNumcodecsPrefix, 0) == 0;
  fail(ZARR_ERR_UNSUPPORTED, spec.where + ": unsupported codec '" + spec.name + "'" +
                                 registered_but_unimplemented_note(ExtensionPoint::Codec, spec.name) +
                                 (numcodecs ? unimplemented_numcodecs_note(spec.name.substr(10)) : ""));
}

// A numcodecs filter run as array->array on the chunk's native bytes.
std::shared_ptr<const ArrayToArrayCodec> make_numcodecs_array_codec(const CodecSpec& spec, const ArrayRepr& decoded) {
  const std::string id = spec.name.substr(10);
  std::string config = v2_config(id, spec.configuration);
  ChunkRepr repr{decoded.dtype.item_size(), decoded.byte_size(), typestr_of(decoded.dtype)};
  std::optional<DataType> astype;
  if (spec.configuration) {
    if (const rapidjson::Value* a = json::find(*spec.configuration, "astype")) {
      astype = DataType::from_typestr(json::get_string(*a, "astype", spec.where), spec.where + ": field 'astype'")
                   .with_byte_order(dtype_detail::host_is_big_endian());
    }
  }
  return std::make_shared<NumcodecsArrayCodec>(make_from_v2(config, repr, spec.where),
                                               v3_json(spec.name, spec.configuration), astype);
}

// "numcodecs.<id>" and plugins' codecs: the v2 implementation, written back
// under the name given with the configuration filled in.
std::shared_ptr<const BytesCodec> make_named_bytes_codec(const CodecSpec& spec, const ChunkRepr& repr) {
  const bool numcodecs = spec.name.rfind(kNumcodecsPrefix, 0) == 0;
  if (!numcodecs && !is_registered_v3_name(spec.name)) fail_unknown_v3_codec(spec);
  const std::string id = numcodecs ? spec.name.substr(10) : spec.name;
  std::unique_ptr<BytesCodec> codec = make_from_v2(v2_config(id, spec.configuration), repr, spec.where);
  std::string v3 = "{\"name\":" + json::quote(spec.name) + ",\"configuration\":" + configuration_of(*codec) + "}";
  return std::make_shared<V3NamedCodec>(std::move(codec), v3);
}

// Any codec a v3 "codecs" list may name, for input `current` (array codecs)
// or `repr` (bytes->bytes codecs).
V3Codec make_codec(const CodecSpec& spec, const ArrayRepr& current, const ChunkRepr& repr) {
  if (std::optional<V3CodecEntry> entry = find_v3_codec(spec.name)) {
    return entry->factory(V3CodecRequest{spec.configuration, current, repr, spec.where});
  }
  if (kind_of(spec.name) == CodecKind::ArrayToArray) return V3Codec{make_numcodecs_array_codec(spec, current), nullptr, nullptr};
  return V3Codec{nullptr, nullptr, make_named_bytes_codec(spec, repr)};
}

}  // namespace

std::shared_ptr<const BytesCodec> make_v3_bytes_codec(const rapidjson::Value& item, const ChunkRepr& repr,
                                                      const std::string& where) {
  CodecSpec spec = parse_spec(item, where);
  const CodecKind kind = kind_of(spec.name);
  const bool numcodecs = spec.name.rfind(kNumcodecsPrefix, 0) == 0;
  if (kind != CodecKind::BytesToBytes && !numcodecs) {
    fail(ZARR_ERR_UNSUPPORTED, spec.where + ": codec '" + spec.name + "' is " + codec_kind_name(kind) +
                                   ": it needs an array's shape and data type, so it runs only inside an array");
  }
  if (kind == CodecKind::ArrayToArray) {  // numcodecs filters work on the bytes of their configured dtype
    return make_from_v2(v2_config(spec.name.substr(10), spec.configuration), repr, spec.where);
  }
  return make_codec(spec, ArrayRepr{}, repr).bytes_to_bytes;
}

namespace {

// zarrs' optional elements (a flag byte, then the value) have a stored form
// only through the optional codec: "bytes" would store the flag bytes and
// the missing elements' zeros, which no other reader takes for optional data.
void check_optional_serializer(const ArrayRepr& input, const ArrayToBytesCodec& codec, const std::string& where) {
  if (input.dtype.kind() != DTypeKind::Optional) return;
  const std::string name = codec.name();
  if (name == "optional" || name == "sharding_indexed") return;
  fail(ZARR_ERR_INVALID_METADATA, where + ": data type " + input.dtype.to_v3_json() +
                                      " is stored by the \"optional\" codec, not '" + name + "'");
}

}  // namespace

CodecChain make_v3_codec_chain(const rapidjson::Value& codecs, const ArrayRepr& decoded, const std::string& where) {
  if (!codecs.IsArray()) fail(ZARR_ERR_INVALID_METADATA, where + " must be a list of codecs");
  std::vector<std::shared_ptr<const ArrayToArrayCodec>> array_to_array;
  std::shared_ptr<const ArrayToBytesCodec> array_to_bytes;
  std::vector<std::shared_ptr<const BytesCodec>> bytes_to_bytes;
  ArrayRepr current = decoded;  // what the next codec receives
  for (rapidjson::SizeType i = 0; i < codecs.Size(); ++i) {
    CodecSpec spec = parse_spec(codecs[i], where + " item " + std::to_string(i));
    const CodecKind kind = kind_of(spec.name);
    // An unknown name has no kind: say so before judging its place in the chain.
    if (!is_known_v3_codec(spec.name)) fail_unknown_v3_codec(spec);
    // The order the spec requires: array->array*, one array->bytes, bytes->bytes*.
    if (kind != CodecKind::BytesToBytes && array_to_bytes) {
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": " + codec_kind_name(kind) + " codec '" + spec.name +
                                          "' cannot follow the array->bytes codec '" + array_to_bytes->name() + "'");
    }
    if (kind == CodecKind::BytesToBytes && !array_to_bytes) {
      fail(ZARR_ERR_INVALID_METADATA, spec.where + ": bytes->bytes codec '" + spec.name +
                                          "' must follow an array->bytes codec such as \"bytes\"");
    }
    ChunkRepr repr;
    if (kind == CodecKind::BytesToBytes) {
      const bool first = bytes_to_bytes.empty();
      repr = ChunkRepr{current.dtype.item_size(), first ? array_to_bytes->fixed_encoded_size(current) : 0,
                       typestr_of(current.dtype)};
    }
    V3Codec codec = make_codec(spec, current, repr);
    if (kind == CodecKind::ArrayToArray) {
      array_to_array.push_back(codec.array_to_array);
      current = array_to_array.back()->encoded_repr(current);
    } else if (kind == CodecKind::ArrayToBytes) {
      array_to_bytes = codec.array_to_bytes;
      check_optional_serializer(current, *array_to_bytes, spec.where);
    } else {
      bytes_to_bytes.push_back(codec.bytes_to_bytes);
    }
  }
  if (!array_to_bytes) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": an array->bytes codec (such as \"bytes\") is required");
  }
  return CodecChain(std::move(array_to_array), std::move(array_to_bytes), std::move(bytes_to_bytes), decoded);
}

std::string v3_codec_json(const BytesCodec& codec, size_t typesize) {
  const std::string id = codec.id();
  // A core v3 codec that runs on this v2 implementation writes its own form.
  std::optional<V3CodecEntry> core = find_v3_codec(id);
  if (core && core->v3_json_of_v2) return core->v3_json_of_v2(codec, typesize);
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
