// The registry's "packbits" codec (array->bytes), not numcodecs' packbits
// (bools only, bytes->bytes: packbits_codec.cpp). Each component of each
// element (two for complex types) gives its bits first_bit..last_bit, packed
// one after another from the least significant bit of each byte up; the
// sequence is padded with 0 bits to whole bytes, and "padding_encoding" may
// add a byte holding the number of padding bits before or after it. Decoding
// shifts the bits back to first_bit and sign-extends signed integers. Sub-byte
// types are one element per byte in memory (sub_byte_int.h, float8.h).
//
// The README and the registry's schema.json disagree on the spelling
// ("first_byte"/"last_byte", "first_bit"/"last_bit" against "start_byte"/
// "end_byte", "start_bit"/"end_bit"): both are read, and the configuration is
// written back as it was given.
#include <cstring>

#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/native_word.h"
#include "dtype/convert.h"
#include "dtype/float8.h"

namespace zarr::codecs {

namespace {

enum class Padding { None, FirstByte, LastByte };

// How one element is packed.
struct PackLayout {
  size_t components = 1;      // 2 for complex types
  size_t component_size = 1;  // bytes of one component in memory
  unsigned bits = 8;          // N: bits per component
  bool is_signed = false;     // sign-extend on decoding
  unsigned first_bit = 0, last_bit = 7;
  unsigned packed() const { return last_bit - first_bit + 1; }  // b
};

uint64_t low_mask(unsigned n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

class PackBitsCodec final : public ArrayToBytesCodec {
 public:
  PackBitsCodec(PackLayout layout, Padding padding, std::string v3_json)
      : layout_(layout), padding_(padding), v3_json_(std::move(v3_json)) {}

  std::string name() const override { return "packbits"; }
  std::string v3_config_json() const override { return v3_json_; }
  size_t fixed_encoded_size(const ArrayRepr& decoded) const override {
    return packed_bytes(decoded) + (padding_ == Padding::None ? 0 : 1);
  }
  std::optional<uint64_t> max_encoded_size(const ArrayRepr& decoded) const override {
    return fixed_encoded_size(decoded);
  }

  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override {
    const size_t bytes = packed_bytes(decoded);
    Bytes out(fixed_encoded_size(decoded), 0);
    uint8_t* packed = out.data() + (padding_ == Padding::FirstByte ? 1 : 0);
    const size_t values = chunk.size() / layout_.component_size;
    uint64_t pos = 0;
    for (size_t k = 0; k < values; ++k) {
      uint64_t v = load_native_word(chunk.data() + k * layout_.component_size, layout_.component_size);
      v = (v >> layout_.first_bit) & low_mask(layout_.packed());
      for (unsigned left = layout_.packed(); left > 0;) {
        const unsigned offset = static_cast<unsigned>(pos % 8), take = std::min(8 - offset, left);
        packed[pos / 8] = static_cast<uint8_t>(packed[pos / 8] | ((v & low_mask(take)) << offset));
        v >>= take;
        pos += take;
        left -= take;
      }
    }
    if (padding_ != Padding::None) out[padding_ == Padding::FirstByte ? 0 : bytes] = padding_bits(decoded);
    return out;
  }

  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override {
    if (stored.size != fixed_encoded_size(decoded)) {
      fail(ZARR_ERR_CODEC, "codec 'packbits': chunk is " + std::to_string(stored.size) + " bytes, expected " +
                               std::to_string(fixed_encoded_size(decoded)));
    }
    if (padding_ != Padding::None) {
      const uint8_t recorded = stored.data[padding_ == Padding::FirstByte ? 0 : stored.size - 1];
      if (recorded != padding_bits(decoded)) {
        fail(ZARR_ERR_CODEC, "codec 'packbits': the padding byte says " + std::to_string(recorded) +
                                 " padding bits, the chunk has " + std::to_string(padding_bits(decoded)));
      }
    }
    const uint8_t* packed = stored.data + (padding_ == Padding::FirstByte ? 1 : 0);
    Bytes out(decoded.byte_size());
    const size_t values = out.size() / layout_.component_size;
    uint64_t pos = 0;
    for (size_t k = 0; k < values; ++k) {
      uint64_t v = 0;
      for (unsigned got = 0; got < layout_.packed();) {
        const unsigned offset = static_cast<unsigned>(pos % 8), take = std::min(8 - offset, layout_.packed() - got);
        v |= static_cast<uint64_t>((packed[pos / 8] >> offset) & low_mask(take)) << got;
        pos += take;
        got += take;
      }
      v <<= layout_.first_bit;
      if (layout_.is_signed && layout_.last_bit < 63 && ((v >> layout_.last_bit) & 1)) v |= ~low_mask(layout_.last_bit + 1);
      store_native_word(out.data() + k * layout_.component_size, layout_.component_size, v);
    }
    return out;
  }

 private:
  uint64_t packed_bits(const ArrayRepr& decoded) const {
    return decoded.elements() * layout_.components * layout_.packed();
  }
  size_t packed_bytes(const ArrayRepr& decoded) const { return static_cast<size_t>((packed_bits(decoded) + 7) / 8); }
  uint8_t padding_bits(const ArrayRepr& decoded) const {
    return static_cast<uint8_t>(packed_bytes(decoded) * 8 - packed_bits(decoded));
  }

  PackLayout layout_;
  Padding padding_;
  std::string v3_json_;
};

// The bits of one component of t's kind, or 0 for types packbits does not take.
unsigned component_bits(DTypeKind kind, size_t size, const DataType& t) {
  switch (kind) {
    case DTypeKind::Bool: return 1;
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt: return static_cast<unsigned>(t.sub_byte_bits());
    case DTypeKind::Float8: return static_cast<unsigned>(dtype_detail::float8_value_bits(t.float8_format()));
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::Float:
    case DTypeKind::BFloat16: return static_cast<unsigned>(size * 8);
    default: return 0;
  }
}

PackLayout layout_for(const DataType& t, const std::string& where) {
  PackLayout l;
  const bool complex = t.kind() == DTypeKind::Complex;
  l.components = complex ? 2 : 1;
  l.component_size = t.item_size() / l.components;
  l.bits = component_bits(complex ? t.complex_component_kind() : t.kind(), l.component_size, t);
  l.is_signed = t.kind() == DTypeKind::Int || t.kind() == DTypeKind::SubByteInt;
  if (l.bits == 0) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": packbits packs bool, integers, floats and complex types, not the "
                                            "data type " + type_text(t));
  }
  return l;
}

// "first_bit" (or "start_bit") / "last_bit" (or "end_bit"): null or absent
// gives `fallback`.
unsigned read_bit(const rapidjson::Value* config, const char* name, const char* alias, unsigned fallback,
                  const std::string& where) {
  if (!config) return fallback;
  const rapidjson::Value* v = json::find(*config, name);
  const char* field = name;
  if (!v && (v = json::find(*config, alias))) field = alias;
  if (!v || v->IsNull()) return fallback;
  if (!v->IsUint()) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field '" + field + "' must be a bit index or null, got " +
                                        json::to_string(*v));
  }
  return v->GetUint();
}

Padding read_padding(const rapidjson::Value* config, const std::string& where) {
  const rapidjson::Value* v = config ? json::find(*config, "padding_encoding") : nullptr;
  if (!v) return Padding::None;
  const std::string name = v->IsString() ? json::text(*v) : "";
  if (name == "none") return Padding::None;
  if (name == "first_byte" || name == "start_byte") return Padding::FirstByte;
  if (name == "last_byte" || name == "end_byte") return Padding::LastByte;
  fail(ZARR_ERR_INVALID_METADATA, where + ": field 'padding_encoding' must be \"none\", \"first_byte\" or "
                                          "\"last_byte\", got " + json::to_string(*v));
}

}  // namespace

V3Codec make_packbits_v3(const V3CodecRequest& request) {
  const std::string& where = request.where;
  const rapidjson::Value* config = request.configuration;
  if (config) {
    json::check_members(*config, {"padding_encoding", "first_bit", "last_bit", "start_bit", "end_bit"},
                        ZARR_ERR_INVALID_METADATA, where, "configuration member");
  }
  PackLayout l = layout_for(request.decoded.dtype, where);
  l.first_bit = read_bit(config, "first_bit", "start_bit", 0, where);
  l.last_bit = read_bit(config, "last_bit", "end_bit", l.bits - 1, where);
  if (l.last_bit >= l.bits) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'last_bit' must be below the " + std::to_string(l.bits) +
                                        " bits of " + type_text(request.decoded.dtype) + ", got " +
                                        std::to_string(l.last_bit));
  }
  if (l.last_bit < l.first_bit) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'last_bit' (" + std::to_string(l.last_bit) +
                                        ") is below field 'first_bit' (" + std::to_string(l.first_bit) + ")");
  }
  const Padding padding = read_padding(config, where);
  std::string v3 = "{\"name\":\"packbits\"";
  if (config) v3 += ",\"configuration\":" + json::to_string(*config);
  return V3Codec{nullptr, std::make_shared<PackBitsCodec>(l, padding, v3 + "}"), nullptr};
}

}  // namespace zarr::codecs
