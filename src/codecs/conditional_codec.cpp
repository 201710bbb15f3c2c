// "conditional" (zarr-extensions registry, bytes->bytes): nested bytes->bytes
// codecs switched on and off chunk by chunk. Each chunk starts with a bitmask
// of `header_bits` bits (header_bits / 8 bytes, bit i of the mask in byte
// i / 8, bit i % 8, least significant first): bit i set means codecs[i] was
// applied. Decoding undoes the applied ones in reverse order; a set bit with
// no codec (a reserved bit) is an error, as a newer writer's codec would be.
//
// The README leaves the choice of bits to the writer's decision function; the
// C API has no way to pass one, so libzarr always uses the README's
// "compress_if_smaller" heuristic, step by step: codecs[i] is applied when its
// output is smaller than its input (what the codecs before it left). A stored
// chunk is thus never more than the header longer than the chunk.
#include <algorithm>
#include <cstring>

#include "base/error.h"
#include "base/json.h"
#include "base/size_limits.h"
#include "codecs/builtin_codecs.h"
#include "codecs/codec_util.h"
#include "codecs/v3_chain.h"
#include "codecs/v3_numcodecs.h"

namespace zarr::codecs {

namespace {

const std::string kName = "conditional";
// A header of more bits is refused: a reader would otherwise read (and a
// writer write) whatever a hostile document asks before each chunk.
constexpr int64_t kMaxHeaderBits = 65536;

using Mask = std::vector<bool>;

class ConditionalCodec final : public BytesCodec {
 public:
  ConditionalCodec(std::vector<std::shared_ptr<const BytesCodec>> codecs, size_t header_bits, std::string config)
      : codecs_(std::move(codecs)), header_bytes_(header_bits / 8), config_(std::move(config)) {}

  std::string id() const override { return kName; }
  // The v3 configuration with the id (this codec has no v2 form).
  std::string config_json() const override { return R"({"id":"conditional",)" + config_.substr(1); }

  Bytes encode(ByteView decoded) const override {
    Mask mask(codecs_.size(), false);
    Bytes data = decoded.to_bytes();
    for (size_t i = 0; i < codecs_.size(); ++i) {
      Bytes trial = codecs_[i]->encode(data);
      if (trial.size() >= data.size()) continue;
      mask[i] = true;
      data = std::move(trial);
    }
    Bytes out(header_bytes_, 0);
    for (size_t i = 0; i < mask.size(); ++i) {
      if (mask[i]) out[i / 8] = static_cast<uint8_t>(out[i / 8] | (1u << (i % 8)));
    }
    out.insert(out.end(), data.begin(), data.end());
    return out;
  }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    return decode_held(encoded, expected_size, expected_size ? expected_size : SIZE_MAX);
  }
  Bytes decode_at_most(ByteView encoded, size_t max_size) const override {
    return decode_held(encoded, 0, max_size);
  }

  // Another writer may apply every codec whatever its output: the bound is
  // the header and the whole chain's worst case.
  std::optional<uint64_t> max_encoded_size(uint64_t decoded_size) const override {
    uint64_t most = decoded_size;
    for (const auto& codec : codecs_) {
      std::optional<uint64_t> next = codec->max_encoded_size(most);
      if (!next) return std::nullopt;
      most = std::max(most, *next);
    }
    return saturating_add(most, header_bytes_);
  }

 private:
  Mask read_mask(ByteView encoded) const {
    if (encoded.size < header_bytes_) {
      codec_error(kName, "chunk of " + std::to_string(encoded.size) + " bytes is shorter than its " +
                             std::to_string(header_bytes_) + "-byte header");
    }
    Mask mask(codecs_.size(), false);
    for (size_t bit = 0; bit < 8 * header_bytes_; ++bit) {
      if (!(encoded.data[bit / 8] >> (bit % 8) & 1)) continue;
      if (bit >= codecs_.size()) {
        codec_error(kName, "header bit " + std::to_string(bit) + " is set but there are only " +
                               std::to_string(codecs_.size()) + " codecs (a reserved bit must be 0)");
      }
      mask[bit] = true;
    }
    return mask;
  }

  // `exact`: the decoded size when known (0: unknown); `most`: the most it
  // may be (SIZE_MAX: open). Each applied step is held to what its input
  // can have been: the worst case of the applied codecs before it.
  Bytes decode_held(ByteView encoded, size_t exact, size_t most) const {
    const Mask mask = read_mask(encoded);
    std::vector<uint64_t> bound(codecs_.size() + 1, most);
    for (size_t i = 0; i < codecs_.size(); ++i) {
      std::optional<uint64_t> next = mask[i] ? codecs_[i]->max_encoded_size(bound[i]) : bound[i];
      bound[i + 1] = bound[i] == SIZE_MAX || !next ? SIZE_MAX : *next;
    }
    const auto first = std::find(mask.begin(), mask.end(), true);
    Bytes data(encoded.data + header_bytes_, encoded.data + encoded.size);
    for (size_t i = codecs_.size(); i-- > 0;) {
      if (!mask[i]) continue;
      if (exact && mask.begin() + static_cast<ptrdiff_t>(i) == first) {
        data = codecs_[i]->decode(data, exact);
      } else if (bound[i] == SIZE_MAX) {
        data = codecs_[i]->decode(data, 0);
      } else {
        data = codecs_[i]->decode_at_most(data, static_cast<size_t>(std::min<uint64_t>(bound[i], SIZE_MAX)));
      }
    }
    check_decoded_size(kName, data.size(), exact);
    if (most != SIZE_MAX) check_at_most(kName, data.size(), most);
    return data;
  }

  std::vector<std::shared_ptr<const BytesCodec>> codecs_;
  size_t header_bytes_;
  std::string config_;  // the v3 configuration object
};

std::string nested_name(const rapidjson::Value& item) {
  if (item.IsString()) return json::text(item);
  const rapidjson::Value* name = item.IsObject() ? json::find(item, "name") : nullptr;
  return name && name->IsString() ? json::text(*name) : "";
}

// The nested codecs, each bytes->bytes, seeing the conditional codec's input.
std::vector<std::shared_ptr<const BytesCodec>> read_codecs(const rapidjson::Value& list, const ChunkRepr& repr,
                                                           const std::string& where) {
  if (!list.IsArray()) fail(ZARR_ERR_INVALID_METADATA, where + ": field 'codecs' must be a list of codecs");
  std::vector<std::shared_ptr<const BytesCodec>> codecs;
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    const std::string item_where = where + ": field 'codecs' item " + std::to_string(i);
    std::optional<V3CodecEntry> entry = find_v3_codec(nested_name(list[i]));
    if (entry && entry->kind != CodecKind::BytesToBytes) {
      fail(ZARR_ERR_INVALID_METADATA, item_where + ": '" + nested_name(list[i]) + "' is " +
                                          codec_kind_name(entry->kind) + "; conditional holds bytes->bytes codecs only");
    }
    // Whether a codec runs depends on the chunk: the later ones cannot know their input size.
    ChunkRepr nested = repr;
    if (i > 0) nested.decoded_size = 0;
    codecs.push_back(make_v3_bytes_codec(list[i], nested, item_where));
  }
  return codecs;
}

// "header_bits": a multiple of 8, at least the number of codecs; by default
// the smallest such.
size_t read_header_bits(const rapidjson::Value& c, size_t count, const std::string& where) {
  const rapidjson::Value* v = json::find(c, "header_bits");
  const int64_t least = static_cast<int64_t>((count + 7) / 8 * 8);
  if (!v) return static_cast<size_t>(least);
  if (!v->IsInt64() || v->GetInt64() % 8 != 0 || v->GetInt64() < least || v->GetInt64() > kMaxHeaderBits) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'header_bits' must be a multiple of 8 from " +
                                        std::to_string(least) + " (the number of codecs, rounded up) to " +
                                        std::to_string(kMaxHeaderBits) + ", got " + json::to_string(*v));
  }
  return static_cast<size_t>(v->GetInt64());
}

// The nested codecs' v3 forms, as the chain writes them.
std::string nested_json(const std::vector<std::shared_ptr<const BytesCodec>>& codecs, size_t typesize) {
  std::string out = "[";
  for (size_t i = 0; i < codecs.size(); ++i) {
    const auto* named = dynamic_cast<const V3NamedCodec*>(codecs[i].get());
    out += (i ? "," : "") + (named ? named->v3_json() : v3_codec_json(*codecs[i], typesize));
  }
  return out + "]";
}

}  // namespace

V3Codec make_conditional_v3(const V3CodecRequest& request) {
  const std::string& where = request.where;
  if (!request.configuration) fail(ZARR_ERR_INVALID_METADATA, where + ": 'configuration' is required");
  const rapidjson::Value& c = *request.configuration;
  json::check_members(c, {"codecs", "header_bits"}, ZARR_ERR_INVALID_METADATA, where, "configuration member");
  std::vector<std::shared_ptr<const BytesCodec>> codecs =
      read_codecs(json::require(c, "codecs", where), request.bytes_repr, where);
  const size_t header_bits = read_header_bits(c, codecs.size(), where);
  std::string config = "{\"codecs\":" + nested_json(codecs, request.bytes_repr.item_size);
  if (json::find(c, "header_bits")) config += ",\"header_bits\":" + std::to_string(header_bits);
  config += "}";
  const std::string v3 = R"({"name":"conditional","configuration":)" + config + "}";
  return named_v2_codec(std::make_unique<ConditionalCodec>(std::move(codecs), header_bits, config), v3);
}

}  // namespace zarr::codecs
