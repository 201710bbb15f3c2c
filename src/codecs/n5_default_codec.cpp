// "n5_default" (zarr-extensions registry): a chunk stored as an N5 block in
// default mode. The block starts with N5's header, big-endian: the mode
// (uint16, 0 = default), the number of dimensions (uint16) and each of the
// block's dimensions (uint32, in the array's order); the rest is the block
// encoded by the nested codecs, which the README fixes: a full transpose (N5
// stores F order), bytes big-endian, at most one bytes->bytes codec (N5's
// compression). N5 writers either pad edge blocks to the full block shape
// (zarr-python 2, TensorStore) or truncate them (N5's Java library): a block
// smaller than the chunk is decoded at its own shape and padded with the fill
// value. libzarr writes full (padded) blocks, as zarr-python 2 does.
#include <algorithm>
#include <cstring>

#include "base/error.h"
#include "base/json.h"
#include "base/size_limits.h"
#include "base/strided_copy.h"
#include "base/text.h"
#include "codecs/builtin_codecs.h"
#include "codecs/v3_chain.h"

namespace zarr {

namespace {

constexpr uint16_t kModeDefault = 0;
constexpr uint16_t kModeVarlength = 1;
constexpr uint16_t kModeObject = 2;

uint16_t load_be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
uint32_t load_be32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}
void append_be(Bytes& out, uint64_t value, int bytes) {
  for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(value >> shift));
}

size_t header_size(size_t ndim) { return 4 + 4 * ndim; }

[[noreturn]] void block_error(int code, const std::string& what) {
  fail(code, "codec 'n5_default': " + what);
}

// The block shape a header gives, checked against the chunk it decodes to:
// the default mode, the chunk's rank, no dimension beyond the chunk's.
std::vector<uint64_t> read_header(ByteView stored, const std::vector<uint64_t>& chunk_shape) {
  if (stored.size < 4) {
    block_error(ZARR_ERR_CODEC, "block of " + std::to_string(stored.size) + " bytes is shorter than N5's header");
  }
  const uint16_t mode = load_be16(stored.data);
  if (mode == kModeVarlength || mode == kModeObject) {
    block_error(ZARR_ERR_UNSUPPORTED, std::string("block mode ") + (mode == kModeVarlength ? "1 (varlength)" : "2 (object)") +
                                          ": only mode 0 (default) is read");
  }
  if (mode != kModeDefault) block_error(ZARR_ERR_CODEC, "block mode " + std::to_string(mode) + " is not an N5 mode");
  const size_t ndim = load_be16(stored.data + 2);
  if (ndim != chunk_shape.size()) {
    block_error(ZARR_ERR_CODEC, "block header has " + std::to_string(ndim) + " dimensions, the array " +
                                    std::to_string(chunk_shape.size()));
  }
  if (stored.size < header_size(ndim)) {
    block_error(ZARR_ERR_CODEC, "block of " + std::to_string(stored.size) + " bytes is shorter than its " +
                                    std::to_string(header_size(ndim)) + "-byte header");
  }
  std::vector<uint64_t> shape(ndim);
  for (size_t d = 0; d < ndim; ++d) shape[d] = load_be32(stored.data + 4 + 4 * d);
  for (size_t d = 0; d < ndim; ++d) {
    if (shape[d] > chunk_shape[d]) {
      block_error(ZARR_ERR_CODEC, "block shape " + list_text(shape) + " exceeds the chunk shape " +
                                      list_text(chunk_shape));
    }
  }
  return shape;
}

class N5DefaultCodec final : public ArrayToBytesCodec {
 public:
  N5DefaultCodec(CodecChain chunk_chain, rapidjson::Document codecs, std::string where)
      : chunk_chain_(std::move(chunk_chain)), codecs_(std::move(codecs)), where_(std::move(where)) {}

  std::string name() const override { return "n5_default"; }

  std::string v3_config_json() const override {
    return R"({"name":"n5_default","configuration":{"codecs":)" + v3_codecs_json(chunk_chain_) + "}}";
  }

  Bytes encode(Bytes chunk, const ArrayRepr& decoded) const override {
    Bytes out;
    out.reserve(header_size(decoded.shape.size()));
    append_be(out, kModeDefault, 2);
    append_be(out, decoded.shape.size(), 2);
    for (uint64_t extent : decoded.shape) append_be(out, extent, 4);
    EncodedChunk body = chunk_chain_.encode(std::move(chunk));
    out.insert(out.end(), body.view().data, body.view().data + body.size());
    return out;
  }

  Bytes decode(ByteView stored, const ArrayRepr& decoded) const override {
    const std::vector<uint64_t> block = read_header(stored, decoded.shape);
    const ByteView body(stored.data + header_size(block.size()), stored.size - header_size(block.size()));
    const std::string key = "n5 block " + list_text(block);
    if (block == decoded.shape) return chunk_chain_.decode(body, key);
    return pad(block_chain(block, decoded).decode(body, key), block, decoded);
  }

  std::optional<uint64_t> max_encoded_size(const ArrayRepr& decoded) const override {
    std::optional<uint64_t> body = chunk_chain_.max_stored_size();
    if (!body) return std::nullopt;
    return saturating_add(*body, header_size(decoded.shape.size()));
  }

 private:
  // The nested codecs for a block of another shape than the chunk's.
  CodecChain block_chain(const std::vector<uint64_t>& block, const ArrayRepr& decoded) const {
    ArrayRepr repr = decoded;
    repr.shape = block;
    CodecChain chain = make_v3_codec_chain(codecs_, repr, where_ + ": field 'codecs'");
    chain.limit_open_sizes(chunk_chain_.open_limit());
    return chain;
  }

  // A smaller block placed at the chunk's origin, the rest the fill value.
  static Bytes pad(const Bytes& block_data, const std::vector<uint64_t>& block, const ArrayRepr& decoded) {
    const size_t item = decoded.dtype.item_size();
    Bytes chunk(decoded.byte_size());
    const std::vector<int64_t> strides = c_order_strides(decoded.shape, item);
    const Bytes fill = decoded.fill_item.size() == item ? decoded.fill_item : Bytes(item, 0);
    strided_fill(decoded.shape, fill, chunk.data(), strides);
    strided_copy(block, item, block_data.data(), c_order_strides(block, item), chunk.data(), strides);
    return chunk;
  }

  CodecChain chunk_chain_;     // the nested codecs for a full chunk
  rapidjson::Document codecs_;  // their JSON, for blocks of other shapes
  std::string where_;
};

const char* const kN5Types[] = {"uint8", "uint16", "uint32", "uint64", "int8",
                                "int16", "int32",  "int64",  "float32", "float64"};

// What N5 can hold: its data types, a rank in uint16 and extents in uint32.
void check_n5_array(const ArrayRepr& decoded, const std::string& where) {
  const std::optional<std::string> type = decoded.dtype.v3_name();
  if (!type || std::find(std::begin(kN5Types), std::end(kN5Types), *type) == std::end(kN5Types)) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": data type " + (type ? json::quote(*type) : decoded.dtype.to_v2_json()) +
                                   " is not one N5 has (uint8..64, int8..64, float32, float64)");
  }
  if (decoded.shape.size() > UINT16_MAX) fail(ZARR_ERR_UNSUPPORTED, where + ": N5 blocks have at most 65535 dimensions");
  for (uint64_t extent : decoded.shape) {
    if (extent > UINT32_MAX) {
      fail(ZARR_ERR_UNSUPPORTED, where + ": chunk shape " + list_text(decoded.shape) +
                                     " has an extent N5's header cannot hold (at most 4294967295)");
    }
  }
}

std::string codec_name(const rapidjson::Value& item) {
  if (item.IsString()) return json::text(item);
  const rapidjson::Value* name = item.IsObject() ? json::find(item, "name") : nullptr;
  return name && name->IsString() ? json::text(*name) : "";
}

// The README's rules for "codecs": a full transpose, bytes (big-endian, or
// without "endian" for one-byte types), at most one codec more.
void check_nested_codecs(const rapidjson::Value& codecs, size_t ndim, const std::string& where) {
  const std::string field = where + ": field 'codecs'";
  if (!codecs.IsArray() || codecs.Size() < 2 || codecs.Size() > 3) {
    fail(ZARR_ERR_INVALID_METADATA,
         field + " must list a transpose, a bytes codec and at most one bytes->bytes codec, got " +
             json::to_string(codecs));
  }
  std::vector<uint64_t> reversed(ndim);
  for (size_t d = 0; d < ndim; ++d) reversed[d] = ndim - 1 - d;
  const rapidjson::Value* config = codecs[0].IsObject() ? json::find(codecs[0], "configuration") : nullptr;
  const rapidjson::Value* order = config && config->IsObject() ? json::find(*config, "order") : nullptr;
  if (codec_name(codecs[0]) != "transpose" || !order || !order->IsArray() ||
      json::to_string(*order) != list_text(reversed, ",")) {
    fail(ZARR_ERR_INVALID_METADATA, field + " item 0 must be a transpose with order " + list_text(reversed) +
                                        " (N5 blocks are in F order), got " + json::to_string(codecs[0]));
  }
  config = codecs[1].IsObject() ? json::find(codecs[1], "configuration") : nullptr;
  const rapidjson::Value* endian = config && config->IsObject() ? json::find(*config, "endian") : nullptr;
  if (codec_name(codecs[1]) != "bytes" || (endian && !(endian->IsString() && json::text(*endian) == "big"))) {
    fail(ZARR_ERR_INVALID_METADATA,
         field + " item 1 must be a bytes codec with endian \"big\" (N5 is big-endian), got " + json::to_string(codecs[1]));
  }
}

}  // namespace

namespace codecs {

V3Codec make_n5_default_v3(const V3CodecRequest& request) {
  const std::string& where = request.where;
  if (!request.configuration) fail(ZARR_ERR_INVALID_METADATA, where + ": 'configuration' is required");
  const rapidjson::Value& c = *request.configuration;
  json::check_members(c, {"codecs"}, ZARR_ERR_INVALID_METADATA, where, "configuration member");
  const rapidjson::Value& codecs = json::require(c, "codecs", where);
  check_nested_codecs(codecs, request.decoded.shape.size(), where);
  check_n5_array(request.decoded, where);
  CodecChain chain = make_v3_codec_chain(codecs, request.decoded, where + ": field 'codecs'");
  rapidjson::Document copy;
  copy.CopyFrom(codecs, copy.GetAllocator());
  return V3Codec{nullptr, std::make_shared<N5DefaultCodec>(std::move(chain), std::move(copy), where), nullptr};
}

}  // namespace codecs

}  // namespace zarr
