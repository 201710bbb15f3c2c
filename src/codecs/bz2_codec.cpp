// "bz2": a bzip2 stream, as numcodecs.BZ2 writes it through Python's
// bz2.compress (block size = level x 100k, default work factor).
#include <bzlib.h>

#include "codecs/builtin_codecs.h"
#include "codecs/codec_util.h"

namespace zarr::codecs {

namespace {

const std::string kId = "bz2";

std::string bz_message(int rc) {
  switch (rc) {
    case BZ_DATA_ERROR: return "corrupt input: data integrity error";
    case BZ_DATA_ERROR_MAGIC: return "corrupt input: not a bzip2 stream";
    case BZ_MEM_ERROR: return "out of memory";
    case BZ_PARAM_ERROR: return "bad parameter";
    default: return "libbz2 error " + std::to_string(rc);
  }
}

// Owns a bz_stream so every exit path releases libbz2's state.
struct Compressor {
  bz_stream s{};
  explicit Compressor(int level) {
    // Work factor 0 means libbz2's default (30), which Python uses too.
    int rc = BZ2_bzCompressInit(&s, level, 0, 0);
    if (rc != BZ_OK) codec_error(kId, "cannot start the compressor: " + bz_message(rc));
  }
  ~Compressor() { BZ2_bzCompressEnd(&s); }
};

struct Decompressor {
  bz_stream s{};
  Decompressor() {
    int rc = BZ2_bzDecompressInit(&s, 0, 0);
    if (rc != BZ_OK) codec_error(kId, "cannot start the decompressor: " + bz_message(rc));
  }
  ~Decompressor() { BZ2_bzDecompressEnd(&s); }
};

// Hands libbz2 the next piece of input (avail_in is 32-bit).
struct InputFeed {
  const uint8_t* pos;
  size_t left;
  explicit InputFeed(ByteView in) : pos(in.data), left(in.size) {}
  void refill(bz_stream& s) {
    if (s.avail_in != 0 || left == 0) return;
    s.next_in = reinterpret_cast<char*>(const_cast<uint8_t*>(pos));  // libbz2 is not const-correct
    s.avail_in = clamp_to<unsigned>(left);
    pos += s.avail_in;
    left -= s.avail_in;
  }
  size_t remaining(const bz_stream& s) const { return left + s.avail_in; }
};

// Point the stream at the free space of `out`; returns how much that is.
unsigned attach_output(bz_stream& s, OutputBuffer& out) {
  s.next_out = reinterpret_cast<char*>(out.next());
  s.avail_out = clamp_to<unsigned>(out.room());
  return s.avail_out;
}

// Decode one bzip2 stream from `feed` into `out`.
void decode_stream(InputFeed& feed, OutputBuffer& out) {
  Decompressor d;
  for (;;) {
    feed.refill(d.s);
    unsigned room = attach_output(d.s, out);
    int rc = BZ2_bzDecompress(&d.s);
    out.commit(room - d.s.avail_out);
    if (rc == BZ_STREAM_END) {
      // The feed must not lose what libbz2 had not read yet.
      feed.pos -= d.s.avail_in;
      feed.left += d.s.avail_in;
      return;
    }
    if (rc != BZ_OK) codec_error(kId, bz_message(rc));
    if (feed.remaining(d.s) == 0 && d.s.avail_out != 0) {
      codec_error(kId, "truncated input: the stream ends early after " + std::to_string(out.size()) +
                           " decoded bytes");
    }
  }
}

class Bz2Codec final : public StreamingDecoderCodec {
 public:
  explicit Bz2Codec(int level) : level_(level) {}

  std::string id() const override { return kId; }
  std::string config_json() const override { return ConfigWriter(kId).add_int("level", level_).str(); }

  Bytes encode(ByteView decoded) const override {
    Compressor c(level_);
    // bzip2's worst case is about 1% plus 600 bytes larger than the input.
    OutputBuffer out(kId, 0, decoded.size + decoded.size / 100 + 600);
    InputFeed feed(decoded);
    for (;;) {
      feed.refill(c.s);
      // BZ_RUN while input remains to be handed over: BZ_FINISH forbids
      // adding input afterwards.
      int action = feed.left == 0 ? BZ_FINISH : BZ_RUN;
      unsigned room = attach_output(c.s, out);
      int rc = BZ2_bzCompress(&c.s, action);
      out.commit(room - c.s.avail_out);
      if (rc == BZ_STREAM_END) return out.finish();
      if (rc != BZ_RUN_OK && rc != BZ_FINISH_OK) codec_error(kId, "compression failed: " + bz_message(rc));
    }
  }

  // Concatenated bzip2 streams decode one after the other, as with bzip2
  // and Python's bz2.decompress.
  void decode_to(ByteView encoded, OutputBuffer& out) const override {
    InputFeed feed(encoded);
    do {
      decode_stream(feed, out);
    } while (feed.left != 0);
  }

 private:
  int level_;
};

}  // namespace

std::unique_ptr<BytesCodec> make_bz2_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  return std::make_unique<Bz2Codec>(static_cast<int>(cfg.integer("level", 1, 1, 9)));
}

}  // namespace zarr::codecs
