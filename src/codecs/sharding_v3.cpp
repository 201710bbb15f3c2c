// The sharding codec built from its v3 configuration (sharding_codec.h):
// chunk_shape, codecs, index_codecs, index_location.

#include "base/error.h"
#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/sharding_internal.h"
#include "codecs/v3_chain.h"

namespace zarr {

namespace {

using codecs::inner_grid;

void check_members(const rapidjson::Value& c, const std::string& where) {
  json::check_members(c, {"chunk_shape", "codecs", "index_codecs", "index_location"}, ZARR_ERR_INVALID_METADATA,
                      where, "configuration member");
}

// "chunk_shape": of the shard's rank, positive, dividing the shard shape.
std::vector<uint64_t> read_inner_shape(const rapidjson::Value& c, const ArrayRepr& decoded, const std::string& where) {
  std::vector<uint64_t> inner_shape =
      json::get_uint_list(json::require(c, "chunk_shape", where), "chunk_shape", where);
  if (inner_shape.size() != decoded.shape.size()) {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'chunk_shape' " + list_text(inner_shape) + " has " +
                                        std::to_string(inner_shape.size()) + " dimensions but the shard shape " +
                                        list_text(decoded.shape) + " has " + std::to_string(decoded.shape.size()));
  }
  for (size_t d = 0; d < inner_shape.size(); ++d) {
    if (inner_shape[d] == 0) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field 'chunk_shape' item " + std::to_string(d) +
                                          " must be positive, got 0");
    }
    if (decoded.shape[d] % inner_shape[d] != 0) {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field 'chunk_shape' " + list_text(inner_shape) +
                                          " must divide the shard shape " + list_text(decoded.shape) +
                                          " (the array's chunk shape) in every dimension");
    }
  }
  return inner_shape;
}

// "index_location": true for "end" (the default).
bool read_index_at_end(const rapidjson::Value& c, const std::string& where) {
  std::optional<std::string> location = json::opt_string(c, "index_location", where);
  if (!location) return true;
  if (*location != "start" && *location != "end") {
    fail(ZARR_ERR_INVALID_METADATA, where + ": field 'index_location' must be \"start\" or \"end\", got " +
                                        json::quote(*location));
  }
  return *location == "end";
}

// The inner chunks' chain: the shard's type and fill value, the inner shape;
// "codecs" defaults to the vlen codec of a variable-length type, else bytes.
CodecChain make_inner_chain(const rapidjson::Value& c, const ArrayRepr& decoded,
                            const std::vector<uint64_t>& inner_shape, const std::string& where) {
  const ArrayRepr inner_repr{inner_shape, decoded.dtype, decoded.fill_item};
  rapidjson::Document defaults;
  const rapidjson::Value* codecs = json::find(c, "codecs");
  if (!codecs) {
    const DTypeKind kind = decoded.dtype.kind();
    defaults = json::parse(kind == DTypeKind::VarString   ? R"([{"name":"vlen-utf8","configuration":{}}])"
                           : kind == DTypeKind::VarBytes  ? R"([{"name":"vlen-bytes","configuration":{}}])"
                           : decoded.dtype.has_byte_order() ? R"([{"name":"bytes","configuration":{"endian":"little"}}])"
                                                            : R"([{"name":"bytes"}])",
                           where);
    codecs = &defaults;
  }
  CodecChain inner = make_v3_codec_chain(*codecs, inner_repr, where + ": field 'codecs'");
  if (decoded.dtype.is_variable_length()) {
    const std::string a2b = inner.array_to_bytes()->name();
    const char* needed = decoded.dtype.kind() == DTypeKind::VarString ? "vlen-utf8" : "vlen-bytes";
    if (a2b != needed && a2b != "sharding_indexed") {
      fail(ZARR_ERR_INVALID_METADATA, where + ": field 'codecs': variable-length elements need the \"" + needed +
                                          "\" codec, not " + json::quote(a2b));
    }
  }
  return inner;
}

// The index's chain: uint64 (offset, nbytes) pairs, shape = chunks per shard
// + [2]; "index_codecs" defaults to bytes + crc32c.
CodecChain make_index_chain(const rapidjson::Value& c, const ArrayRepr& decoded,
                            const std::vector<uint64_t>& inner_shape, const std::string& where) {
  std::vector<uint64_t> index_shape = inner_grid(decoded.shape, inner_shape, where);
  index_shape.push_back(2);
  const ArrayRepr index_repr{index_shape, *DataType::from_v3_name("uint64"), Bytes(8, 0xff)};
  rapidjson::Document index_defaults;
  const rapidjson::Value* index_codecs = json::find(c, "index_codecs");
  if (!index_codecs) {
    index_defaults = json::parse(R"([{"name":"bytes","configuration":{"endian":"little"}},{"name":"crc32c"}])", where);
    index_codecs = &index_defaults;
  }
  return make_v3_codec_chain(*index_codecs, index_repr, where + ": field 'index_codecs'");
}

}  // namespace

std::shared_ptr<const ArrayToBytesCodec> make_sharding_codec(const rapidjson::Value* configuration,
                                                             const ArrayRepr& decoded, const std::string& where) {
  if (!configuration) fail(ZARR_ERR_INVALID_METADATA, where + ": 'configuration' is required");
  const rapidjson::Value& c = *configuration;
  check_members(c, where);
  std::vector<uint64_t> inner_shape = read_inner_shape(c, decoded, where);
  const bool at_end = read_index_at_end(c, where);
  CodecChain inner = make_inner_chain(c, decoded, inner_shape, where);
  CodecChain index = make_index_chain(c, decoded, inner_shape, where);
  return std::make_shared<ShardingCodec>(decoded, std::move(inner_shape), std::move(inner), std::move(index), at_end,
                                         where);
}

namespace codecs {

V3Codec make_sharding_v3(const V3CodecRequest& request) {
  return V3Codec{nullptr, make_sharding_codec(request.configuration, request.decoded, request.where), nullptr};
}

}  // namespace codecs

}  // namespace zarr
