// "gzip": a gzip member (RFC 1952), as numcodecs.GZip writes it through
// Python's gzip.GzipFile. We write the same header Python does, except that
// the modification time is 0 so equal chunks give equal bytes (numcodecs
// stores the current time there; readers ignore it).
#include <zlib.h>

#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/codec_util.h"
#include "codecs/v3_numcodecs.h"
#include "codecs/zlib_stream.h"

namespace zarr::codecs {

namespace {

const std::string kId = "gzip";
constexpr size_t kHeaderSize = 10;
constexpr size_t kTrailerSize = 8;

void put_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Python's gzip header: magic, deflate, no flags, mtime, XFL (2 for the
// slowest level, 4 for the fastest), OS 255 "unknown".
void write_header(OutputBuffer& out, int level) {
  uint8_t h[kHeaderSize] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255};
  h[8] = level == 9 ? 2 : level == 1 ? 4 : 0;
  out.append(h, sizeof(h));
}

void write_trailer(OutputBuffer& out, ByteView in) {
  uint8_t t[kTrailerSize];
  put_le32(t, static_cast<uint32_t>(crc32_z(crc32_z(0, nullptr, 0), in.data, in.size)));
  put_le32(t + 4, static_cast<uint32_t>(in.size));  // ISIZE is the size modulo 2^32
  out.append(t, sizeof(t));
}

class GzipCodec final : public StreamingDecoderCodec {
 public:
  explicit GzipCodec(int level) : level_(level) {}

  std::string id() const override { return kId; }
  std::string config_json() const override { return ConfigWriter(kId).add_int("level", level_).str(); }

  Bytes encode(ByteView decoded) const override {
    OutputBuffer out(kId, 0, compressBound(decoded.size) + kHeaderSize + kTrailerSize);
    write_header(out, level_);
    deflate_into(kId, decoded, level_, -MAX_WBITS, out);
    write_trailer(out, decoded);
    return out.finish();
  }

  // A gzip file may hold several members, decoded one after the other, and
  // Python's reader skips zero padding after the last: so do we.
  void decode_to(ByteView encoded, OutputBuffer& out) const override {
    size_t pos = 0;
    do {
      ByteView rest(encoded.data + pos, encoded.size - pos);
      pos += inflate_stream(kId, rest, 16 + MAX_WBITS, out);
      while (pos < encoded.size && encoded.data[pos] == 0) ++pos;
    } while (pos < encoded.size);
  }

 private:
  int level_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_gzip_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  return std::make_unique<GzipCodec>(static_cast<int>(cfg.integer("level", 1, -1, 9)));
}

// ---- v3 ("gzip": {"level"}, as numcodecs' configuration) ----

V3Codec make_gzip_v3(const V3CodecRequest& request) {
  return v3_codec_from_v2("gzip", request, gzip_v3_json);
}

std::string gzip_v3_json(const BytesCodec& codec, size_t) {
  rapidjson::Document c = json::parse(codec.config_json(), "gzip");
  return "{\"name\":\"gzip\",\"configuration\":{\"level\":" + json::to_string(c["level"]) + "}}";
}

}  // namespace zarr::codecs
