// "zlib": a zlib stream (RFC 1950), as numcodecs.Zlib writes it through
// Python's zlib.compress.
#include <zlib.h>

#include "codecs/builtin_codecs.h"
#include "codecs/codec_util.h"
#include "codecs/zlib_stream.h"

namespace zarr::codecs {

namespace {

const std::string kId = "zlib";

class ZlibCodec final : public StreamingDecoderCodec {
 public:
  explicit ZlibCodec(int level) : level_(level) {}

  std::string id() const override { return kId; }
  std::string config_json() const override { return ConfigWriter(kId).add_int("level", level_).str(); }

  Bytes encode(ByteView decoded) const override {
    OutputBuffer out(kId, 0, compressBound(decoded.size));
    deflate_into(kId, decoded, level_, MAX_WBITS, out);
    return out.finish();
  }

  void decode_to(ByteView encoded, OutputBuffer& out) const override {
    // Bytes after the end of the stream are ignored, as Python's
    // zlib.decompress (numcodecs' decoder) ignores them.
    inflate_stream(kId, encoded, MAX_WBITS, out);
  }

 private:
  int level_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_zlib_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  // -1 is zlib's default level (6); Python accepts -1..9 and so do we.
  return std::make_unique<ZlibCodec>(static_cast<int>(cfg.integer("level", 1, -1, 9)));
}

}  // namespace zarr::codecs
