// zarrs' experimental "optional" codec (array->bytes; an open
// zarr-extensions proposal, zarrs 0.23), the only codec of the "optional"
// data type (dtype/optional_type.cpp):
//
//   {"name": "optional", "configuration": {
//      "mask_codecs": [{"name": "packbits"}],
//      "data_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}}
//
// A stored chunk is: the mask's encoded length (uint64, little-endian), the
// data's encoded length (uint64, little-endian), the mask, the data. The
// mask is the chunk's presence flags as a flat bool array of every element
// (C order), encoded by mask_codecs; the data is the present elements only,
// in order, as a flat array of the inner type encoded by data_codecs (whose
// array->bytes codec may be "optional" again for optional<optional<T>>). A
// chunk without present elements has empty data (length 0), as zarrs writes.
//
// Reading is always on; writing only with ZARR_EXPERIMENTAL_OPTIONAL=1
// (codecs/experimental.h): the proposal may still change.
#include <cstdlib>
#include <cstring>

#include "base/error.h"
#include "base/json.h"
#include "base/size_limits.h"
#include "codecs/builtin_codecs.h"
#include "codecs/experimental.h"
#include "codecs/v3_chain.h"

namespace zarr {

bool optional_writes_enabled() {
  const char* value = std::getenv(kExperimentalOptionalVariable);
  return value && std::strcmp(value, "1") == 0;
}

void require_optional_writes(const std::string& what) {
  if (optional_writes_enabled()) return;
  fail(ZARR_ERR_UNSUPPORTED, what + ": writing zarrs' experimental \"optional\" data type and codec is off (its "
                                    "specification is a proposal that may change); set " +
                                    kExperimentalOptionalVariable + "=1 to write it");
}

namespace {

constexpr size_t kHeaderSize = 16;

uint64_t load_le64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

void append_le64(Bytes& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

[[noreturn]] void corrupt(const std::string& what) { fail(ZARR_ERR_CODEC, "codec 'optional': " + what); }

// The stored chunk's two parts, their lengths checked against its size.
struct Parts {
  ByteView mask;
  ByteView data;
};

Parts split(ByteView stored) {
  if (stored.size < kHeaderSize) {
    corrupt("chunk of " + std::to_string(stored.size) + " bytes is shorter than its 16-byte header (mask length, "
            "data length)");
  }
  const uint64_t mask_length = load_le64(stored.data);
  const uint64_t data_length = load_le64(stored.data + 8);
  const uint64_t rest = stored.size - kHeaderSize;
  if (mask_length > rest) {
    corrupt("mask length " + std::to_string(mask_length) + " is more than the " + std::to_string(rest) +
            " bytes after the header");
  }
  if (data_length != rest - mask_length) {
    corrupt("data length " + std::to_string(data_length) + " does not match the " + std::to_string(rest - mask_length) +
            " bytes after the mask (mask length " + std::to_string(mask_length) + ")");
  }
  const uint8_t* mask = stored.data + kHeaderSize;
  return Parts{ByteView(mask, static_cast<size_t>(mask_length)),
               ByteView(mask + mask_length, static_cast<size_t>(data_length))};
}

class OptionalCodec final : public ArrayToBytesCodec {
 public:
  OptionalCodec(CodecChain mask_chain, CodecChain full_data_chain, rapidjson::Document data_codecs,
                std::string v3_json, std::string where)
      : mask_chain_(std::move(mask_chain)),
        full_data_chain_(std::move(full_data_chain)),
        data_codecs_(std::move(data_codecs)),
        v3_json_(std::move(v3_json)),
        where_(std::move(where)) {}

  std::string name() const override { return "optional"; }
  std::string v3_config_json() const override { return v3_json_; }

  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override {
    require_optional_writes("codec 'optional'");
    const size_t item = decoded.dtype.item_size();
    const size_t inner = item - 1;
    const uint64_t n = decoded.elements();
    if (chunk.size() != decoded.byte_size()) {
      fail(ZARR_ERR_INTERNAL, "codec 'optional': chunk of " + std::to_string(chunk.size()) + " bytes, expected " +
                                  std::to_string(decoded.byte_size()));
    }
    Bytes mask(static_cast<size_t>(n));
    Bytes data;
    for (size_t i = 0; i < mask.size(); ++i) {
      const uint8_t flag = chunk[i * item];
      if (flag > 1) {
        fail(ZARR_ERR_INVALID_ARGUMENT, "codec 'optional': element " + std::to_string(i) + " of the chunk has flag byte " +
                                            std::to_string(flag) + ", neither 0 (missing) nor 1 (present)");
      }
      mask[i] = flag;
      if (flag) data.insert(data.end(), chunk.begin() + i * item + 1, chunk.begin() + (i + 1) * item);
    }
    const Bytes mask_stored = mask_chain_.encode_bytes(std::move(mask));
    const size_t present = inner ? data.size() / inner : 0;
    Bytes data_stored;
    if (present > 0) data_stored = data_chain(present).encode_bytes(std::move(data));
    Bytes out;
    out.reserve(kHeaderSize + mask_stored.size() + data_stored.size());
    append_le64(out, mask_stored.size());
    append_le64(out, data_stored.size());
    out.insert(out.end(), mask_stored.begin(), mask_stored.end());
    out.insert(out.end(), data_stored.begin(), data_stored.end());
    return out;
  }

  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override {
    const Parts parts = split(stored);
    const Bytes mask = mask_chain_.decode(parts.mask, "mask of an 'optional' chunk");
    size_t present = 0;
    for (size_t i = 0; i < mask.size(); ++i) {
      if (mask[i] > 1) corrupt("mask value " + std::to_string(mask[i]) + " of element " + std::to_string(i) + " is not a bool");
      present += mask[i];
    }
    const size_t item = decoded.dtype.item_size();
    const size_t inner = item - 1;
    Bytes data;
    if (present > 0) {
      data = data_chain(present).decode(parts.data, "data of an 'optional' chunk");
    } else if (parts.data.size != 0) {
      corrupt("data of " + std::to_string(parts.data.size) + " bytes for a chunk without present elements");
    }
    Bytes out(decoded.byte_size(), 0);
    size_t next = 0;
    for (size_t i = 0; i < mask.size(); ++i) {
      if (!mask[i]) continue;
      out[i * item] = 1;
      std::memcpy(out.data() + i * item + 1, data.data() + next * inner, inner);
      ++next;
    }
    return out;
  }

  std::optional<uint64_t> max_encoded_size(const ArrayRepr&) const override {
    const std::optional<uint64_t> mask = mask_chain_.max_stored_size();
    const std::optional<uint64_t> data = full_data_chain_.max_stored_size();
    if (!mask || !data) return std::nullopt;
    return saturating_add(saturating_add(*mask, *data), kHeaderSize);
  }

 private:
  // The data_codecs for `present` elements (the full chunk's chain is kept).
  CodecChain data_chain(size_t present) const {
    const ArrayRepr& full = full_data_chain_.decoded();
    if (present == full.elements()) return full_data_chain_;
    ArrayRepr repr = full;
    repr.shape = {present};
    CodecChain chain = make_v3_codec_chain(data_codecs_, repr, where_ + ": field 'data_codecs'");
    chain.limit_open_sizes(full_data_chain_.open_limit());
    return chain;
  }

  CodecChain mask_chain_;
  CodecChain full_data_chain_;
  rapidjson::Document data_codecs_;
  std::string v3_json_;
  std::string where_;
};

const rapidjson::Value& codec_list(const rapidjson::Value& c, const char* member, const std::string& where) {
  const rapidjson::Value& list = json::require(c, member, where);
  if (!list.IsArray() || list.Empty()) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field '" + member + "' must be a non-empty list of codecs, got " +
                                        json::to_string(list));
  }
  return list;
}

}  // namespace

namespace codecs {

V3Codec make_optional_v3(const V3CodecRequest& request) {
  const std::string& where = request.where;
  const ArrayRepr& decoded = request.decoded;
  const DataType* inner = decoded.dtype.optional_inner();
  if (!inner) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": codec 'optional' needs an \"optional\" data type, got " +
                                        decoded.dtype.to_v3_json());
  }
  if (!request.configuration) fail(ZARR_ERR_INVALID_METADATA, where + ": codec 'optional' needs a 'configuration'");
  const rapidjson::Value& c = *request.configuration;
  json::check_members(c, {"mask_codecs", "data_codecs"}, ZARR_ERR_INVALID_METADATA, where, "configuration member");
  const rapidjson::Value& mask_codecs = codec_list(c, "mask_codecs", where);
  const rapidjson::Value& data_codecs = codec_list(c, "data_codecs", where);

  const uint64_t n = decoded.elements();
  const ArrayRepr mask_repr{{n}, *DataType::from_v3_name("bool"), Bytes{0}, decoded.vlen_limit};
  CodecChain mask_chain = make_v3_codec_chain(mask_codecs, mask_repr, where + ": field 'mask_codecs'");
  Bytes inner_fill(inner->item_size(), 0);
  if (decoded.fill_item.size() == decoded.dtype.item_size()) {
    std::copy(decoded.fill_item.begin() + 1, decoded.fill_item.end(), inner_fill.begin());
  }
  const ArrayRepr data_repr{{n}, *inner, inner_fill, decoded.vlen_limit};
  CodecChain data_chain = make_v3_codec_chain(data_codecs, data_repr, where + ": field 'data_codecs'");

  rapidjson::Document copy;
  copy.CopyFrom(data_codecs, copy.GetAllocator());
  const std::string v3_json = "{\"name\":\"optional\",\"configuration\":{\"mask_codecs\":" +
                              v3_codecs_json(mask_chain) + ",\"data_codecs\":" + v3_codecs_json(data_chain) + "}}";
  return V3Codec{nullptr,
                 std::make_shared<OptionalCodec>(std::move(mask_chain), std::move(data_chain), std::move(copy), v3_json,
                                                 where),
                 nullptr};
}

}  // namespace codecs

}  // namespace zarr
