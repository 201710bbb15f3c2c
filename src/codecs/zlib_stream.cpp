#include "codecs/zlib_stream.h"

#include <zlib.h>

namespace zarr::codecs {

namespace {

// DEF_MEM_LEVEL of zlib and of Python's zlib and gzip modules: numcodecs'
// bytes come from those, so the same settings give the same bytes.
constexpr int kMemLevel = 8;

std::string zlib_message(const z_stream& s, int rc) {
  if (s.msg) return s.msg;
  return "zlib error " + std::to_string(rc);
}

// Owns a z_stream so every exit path releases zlib's state.
struct Deflater {
  z_stream s{};
  Deflater(const std::string& id, int level, int window_bits) {
    int rc = deflateInit2(&s, level, Z_DEFLATED, window_bits, kMemLevel, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) codec_error(id, "cannot start the compressor: " + zlib_message(s, rc));
  }
  ~Deflater() { deflateEnd(&s); }
};

struct Inflater {
  z_stream s{};
  Inflater(const std::string& id, int window_bits) {
    int rc = inflateInit2(&s, window_bits);
    if (rc != Z_OK) codec_error(id, "cannot start the decompressor: " + zlib_message(s, rc));
  }
  ~Inflater() { inflateEnd(&s); }
};

// Hands zlib the next piece of input once it used the previous one (avail_in
// is 32-bit, a chunk may be bigger).
struct InputFeed {
  const uint8_t* pos;
  size_t left;
  explicit InputFeed(ByteView in) : pos(in.data), left(in.size) {}
  void refill(z_stream& s) {
    if (s.avail_in != 0 || left == 0) return;
    s.next_in = const_cast<Bytef*>(pos);  // zlib's API is not const-correct
    s.avail_in = clamp_to<uInt>(left);
    pos += s.avail_in;
    left -= s.avail_in;
  }
  bool exhausted(const z_stream& s) const { return left == 0 && s.avail_in == 0; }
};

}  // namespace

void deflate_into(const std::string& id, ByteView in, int level, int window_bits, OutputBuffer& out) {
  Deflater d(id, level, window_bits);
  InputFeed feed(in);
  for (;;) {
    feed.refill(d.s);
    int flush = feed.left == 0 ? Z_FINISH : Z_NO_FLUSH;
    d.s.next_out = out.next();
    uInt room = clamp_to<uInt>(out.room());
    d.s.avail_out = room;
    int rc = deflate(&d.s, flush);
    out.commit(room - d.s.avail_out);
    if (rc == Z_STREAM_END) return;
    if (rc != Z_OK && rc != Z_BUF_ERROR) codec_error(id, "compression failed: " + zlib_message(d.s, rc));
  }
}

size_t inflate_stream(const std::string& id, ByteView in, int window_bits, OutputBuffer& out) {
  Inflater inf(id, window_bits);
  InputFeed feed(in);
  for (;;) {
    feed.refill(inf.s);
    inf.s.next_out = out.next();
    uInt room = clamp_to<uInt>(out.room());
    inf.s.avail_out = room;
    int rc = inflate(&inf.s, Z_NO_FLUSH);
    out.commit(room - inf.s.avail_out);
    if (rc == Z_STREAM_END) return in.size - feed.left - inf.s.avail_in;
    if (rc == Z_NEED_DICT) codec_error(id, "corrupt input: the stream needs a preset dictionary");
    if (rc != Z_OK && rc != Z_BUF_ERROR) codec_error(id, "corrupt input: " + zlib_message(inf.s, rc));
    // All input used and room left over, yet no end of stream: cut short.
    if (feed.exhausted(inf.s) && inf.s.avail_out != 0) {
      codec_error(id, "truncated input: the stream ends early after " + std::to_string(out.size()) +
                          " decoded bytes");
    }
  }
}

}  // namespace zarr::codecs
