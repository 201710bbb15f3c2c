// "zstd": one or more Zstandard frames, as numcodecs.Zstd writes them.
#include <zstd.h>
#include <zstd_errors.h>

#include <climits>

#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/codec_util.h"
#include "codecs/v3_numcodecs.h"

namespace zarr::codecs {

namespace {

const std::string kId = "zstd";

// Any int is a valid level: zstd clamps levels above its maximum.
constexpr int64_t kMinLevel = INT_MIN;
constexpr int64_t kMaxLevel = INT_MAX;

// numcodecs 0.11 compresses levels <= 0 as level 1 (later versions pass
// them on: 0 = zstd's default, negative = the fast modes). Doing the same
// keeps our chunks byte-identical to the reference; either way any zstd
// reader decodes them.
int effective_level(int level) { return level <= 0 ? 1 : level; }

void check(size_t rc, const char* what) {
  if (ZSTD_isError(rc)) codec_error(kId, std::string(what) + ": " + ZSTD_getErrorName(rc));
}

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};
using CCtx = std::unique_ptr<ZSTD_CCtx, CCtxFree>;
using DCtx = std::unique_ptr<ZSTD_DCtx, DCtxFree>;

// One context of each kind per thread, kept across chunks: creating one
// costs about 100 KiB of allocation and initialisation, as much as decoding
// a small chunk. A context finishes each call in a clean state (a failed
// call included: the next call starts a new frame), so reusing it is safe.
ZSTD_DCtx* thread_dctx() {
  thread_local DCtx d(ZSTD_createDCtx());
  if (!d) codec_error(kId, "cannot create a decompression context");
  return d.get();
}

ZSTD_CCtx* thread_cctx() {
  thread_local CCtx c(ZSTD_createCCtx());
  if (!c) codec_error(kId, "cannot create a compression context");
  return c.get();
}

// The decoded size the frame headers state in total: ZSTD_CONTENTSIZE_UNKNOWN
// when a frame omits it, ZSTD_CONTENTSIZE_ERROR for a corrupt or cut frame.
// (ZSTD_findDecompressedSize does this but is not in the stable API.)
unsigned long long claimed_size(ByteView in) {
  unsigned long long total = 0;
  bool unknown = false;
  for (size_t pos = 0; pos < in.size;) {
    const uint8_t* frame = in.data + pos;
    size_t left = in.size - pos;
    unsigned long long content = ZSTD_getFrameContentSize(frame, left);
    size_t frame_size = ZSTD_findFrameCompressedSize(frame, left);
    if (content == ZSTD_CONTENTSIZE_ERROR || ZSTD_isError(frame_size)) return ZSTD_CONTENTSIZE_ERROR;
    if (content == ZSTD_CONTENTSIZE_UNKNOWN) {
      unknown = true;
    } else if (total + content < total) {
      return ZSTD_CONTENTSIZE_ERROR;  // sizes that overflow cannot be real
    } else {
      total += content;
    }
    pos += frame_size;
  }
  return unknown ? ZSTD_CONTENTSIZE_UNKNOWN : total;
}

// Exactly `expected` bytes: one call into `out`, a buffer of that size. The
// frame headers' total, when they state it, must agree before anything is done.
void decode_known_size(ByteView in, uint8_t* out, size_t expected) {
  unsigned long long claimed = claimed_size(in);
  if (claimed == ZSTD_CONTENTSIZE_ERROR) codec_error(kId, "corrupt or truncated input: no valid zstd frame");
  if (claimed != ZSTD_CONTENTSIZE_UNKNOWN && claimed != expected) {
    codec_error(kId, "frame header claims " + std::to_string(claimed) + " decoded bytes, expected " +
                         std::to_string(expected));
  }
  size_t n = ZSTD_decompressDCtx(thread_dctx(), out, expected, in.data, in.size);
  if (ZSTD_isError(n) && ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall) {
    codec_error(kId, "decoded more than the expected " + std::to_string(expected) + " bytes");
  }
  check(n, "corrupt or truncated input");
  check_decoded_size(kId, n, expected);
}

// Unknown size: stream, so memory follows the output actually produced
// (frames need not state their content size, and when they do it may lie),
// up to `most` bytes.
Bytes decode_streaming(ByteView in, size_t most = SIZE_MAX) {
  ZSTD_DCtx* d = thread_dctx();
  // A stream a previous call left half-way (an error) must not carry over.
  check(ZSTD_DCtx_reset(d, ZSTD_reset_session_only), "cannot reset the decompression context");
  OutputBuffer out(kId, 0, initial_decode_guess(in.size), most);
  ZSTD_inBuffer src{in.data, in.size, 0};
  for (;;) {
    ZSTD_outBuffer dst{out.next(), out.room(), 0};
    size_t rc = ZSTD_decompressStream(d, &dst, &src);
    check(rc, "corrupt input");
    out.commit(dst.pos);
    bool input_done = src.pos == src.size;
    // rc == 0: a frame ended exactly here; more input starts another frame.
    if (rc == 0 && input_done) return out.finish();
    // Input used up and the decoder left room unused: it waits for more.
    if (input_done && dst.pos < dst.size) {
      codec_error(kId, "truncated input: the frame ends early after " + std::to_string(out.size()) +
                           " decoded bytes");
    }
  }
}

class ZstdCodec final : public BytesCodec {
 public:
  ZstdCodec(int level, bool checksum) : level_(level), checksum_(checksum) {}

  std::string id() const override { return kId; }

  // "checksum" only when set: numcodecs 0.11 knows no such key and would
  // refuse the whole .zarray; later numcodecs default it to false.
  std::string config_json() const override {
    ConfigWriter w(kId);
    w.add_int("level", level_);
    if (checksum_) w.add_bool("checksum", true);
    return w.str();
  }

  Bytes encode(ByteView decoded) const override { return encode_through_bound(*this, decoded); }

  size_t encoded_bound(size_t decoded_size) const override { return ZSTD_compressBound(decoded_size); }

  size_t encode_into(ByteView decoded, uint8_t* out, size_t capacity) const override {
    size_t n = checksum_ ? compress_with_checksum(decoded, out, capacity)
                         : ZSTD_compressCCtx(thread_cctx(), out, capacity, decoded.data, decoded.size,
                                             effective_level(level_));
    check(n, "compression failed");
    return n;
  }

  Bytes decode(ByteView encoded, size_t expected_size) const override {
    // An empty buffer holds no frame; zstd would call it 0 decoded bytes.
    if (encoded.size == 0) codec_error(kId, "truncated input: empty");
    if (expected_size == 0) return decode_streaming(encoded);
    Bytes out(expected_size);
    decode_known_size(encoded, out.data(), expected_size);
    return out;
  }

  Bytes decode_at_most(ByteView encoded, size_t max_size) const override {
    if (encoded.size == 0) codec_error(kId, "truncated input: empty");
    return decode_streaming(encoded, max_size);
  }

  std::optional<uint64_t> max_encoded_size(uint64_t decoded_size) const override {
    return compressed_size_bound(decoded_size);
  }

  void decode_into(ByteView encoded, uint8_t* out, size_t out_size) const override {
    if (encoded.size == 0) codec_error(kId, "truncated input: empty");
    if (out_size == 0) {  // a frame that decodes to nothing: check it all the same
      if (!decode_streaming(encoded).empty()) codec_error(kId, "decoded more than the expected 0 bytes");
      return;
    }
    decode_known_size(encoded, out, out_size);
  }

 private:
  // Newer numcodecs' path for checksum=true: the advanced API, which
  // otherwise gives the same frame as ZSTD_compress.
  size_t compress_with_checksum(ByteView in, uint8_t* out, size_t capacity) const {
    ZSTD_CCtx* c = thread_cctx();
    // The thread's context is shared by every zstd codec: start from defaults.
    check(ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters), "cannot reset the compression context");
    check(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, effective_level(level_)), "bad level");
    check(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1), "cannot enable the checksum");
    return ZSTD_compress2(c, out, capacity, in.data, in.size);
  }

  int level_;
  bool checksum_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_zstd_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  int level = static_cast<int>(cfg.integer("level", 1, kMinLevel, kMaxLevel));
  bool checksum = cfg.boolean("checksum", false);
  return std::make_unique<ZstdCodec>(level, checksum);
}

// ---- v3 ("zstd": {"level", "checksum"}, as numcodecs' configuration) ----

V3Codec make_zstd_v3(const V3CodecRequest& request) {
  return v3_codec_from_v2("zstd", request, zstd_v3_json);
}

std::string zstd_v3_json(const BytesCodec& codec, size_t) {
  rapidjson::Document c = json::parse(codec.config_json(), "zstd");
  const rapidjson::Value* checksum = json::find(c, "checksum");
  const bool with_checksum = checksum && checksum->IsBool() && checksum->GetBool();
  return "{\"name\":\"zstd\",\"configuration\":{\"level\":" + json::to_string(c["level"]) +
         ",\"checksum\":" + (with_checksum ? "true" : "false") + "}}";
}

}  // namespace zarr::codecs
