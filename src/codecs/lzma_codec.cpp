// "lzma": numcodecs.LZMA, which is Python's lzma.compress: an .xz stream
// (format 1, the default) or a legacy .lzma "alone" file (format 2). Raw
// streams (format 3) and custom filter chains are not supported.
#include <lzma.h>

#include <cstdint>

#include "base/json.h"
#include "codecs/builtin_codecs.h"
#include "codecs/codec_util.h"

namespace zarr::codecs {

namespace {

const std::string kId = "lzma";

// Python's lzma constants, which numcodecs stores verbatim in the config.
constexpr int kFormatXz = 1;
constexpr int kFormatAlone = 2;
constexpr int kFormatRaw = 3;
constexpr int kCheckDefault = -1;        // CRC64 for .xz, none for .lzma
constexpr int64_t kDefaultPreset = 6;    // PRESET_DEFAULT
constexpr int64_t kPresetExtreme = 1LL << 31;

// What the decoder may allocate: the largest standard preset (9e) needs 65
// MiB. A corrupt header asking for a huge dictionary fails cleanly instead.
constexpr uint64_t kDecoderMemLimit = uint64_t{1} << 30;

std::string lzma_message(lzma_ret rc) {
  switch (rc) {
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_MEMLIMIT_ERROR: return "corrupt input: it needs more than 1 GiB of decoder memory";
    case LZMA_FORMAT_ERROR: return "corrupt input: not an .xz or .lzma stream";
    case LZMA_OPTIONS_ERROR: return "unsupported or corrupt stream options";
    case LZMA_DATA_ERROR: return "corrupt input";
    case LZMA_BUF_ERROR: return "truncated input";
    case LZMA_UNSUPPORTED_CHECK: return "unsupported integrity check";
    default: return "liblzma error " + std::to_string(static_cast<int>(rc));
  }
}

// Owns an lzma_stream so every exit path releases liblzma's state.
struct Stream {
  lzma_stream s = LZMA_STREAM_INIT;
  ~Stream() { lzma_end(&s); }
};

// Run an initialised stream over all of `in`, writing to `out`.
void run(Stream& st, ByteView in, OutputBuffer& out) {
  // liblzma takes size_t lengths, so the whole input goes in at once.
  st.s.next_in = in.data;
  st.s.avail_in = in.size;
  for (;;) {
    st.s.next_out = out.next();
    size_t room = out.room();
    st.s.avail_out = room;
    lzma_ret rc = lzma_code(&st.s, LZMA_FINISH);
    out.commit(room - st.s.avail_out);
    if (rc == LZMA_STREAM_END) return;
    if (rc != LZMA_OK) codec_error(kId, lzma_message(rc));
  }
}

class LzmaCodec final : public StreamingDecoderCodec {
 public:
  LzmaCodec(int format, int check, std::optional<int64_t> preset)
      : format_(format), check_(check), preset_(preset) {}

  std::string id() const override { return kId; }

  std::string config_json() const override {
    ConfigWriter w(kId);
    w.add_int("format", format_).add_int("check", check_);
    if (preset_) {
      w.add_int("preset", *preset_);
    } else {
      w.add_null("preset");
    }
    return w.add_null("filters").str();
  }

  Bytes encode(ByteView decoded) const override {
    Stream st;
    lzma_ret rc = format_ == kFormatXz ? start_xz(st) : start_alone(st);
    if (rc != LZMA_OK) codec_error(kId, "cannot start the encoder: " + lzma_message(rc));
    OutputBuffer out(kId, 0, lzma_stream_buffer_bound(decoded.size));
    run(st, decoded, out);
    return out.finish();
  }

  // The auto decoder reads both .xz (several concatenated streams too) and
  // .lzma, whichever format the config names.
  void decode_to(ByteView encoded, OutputBuffer& out) const override {
    Stream st;
    lzma_ret rc = lzma_auto_decoder(&st.s, kDecoderMemLimit, LZMA_CONCATENATED);
    if (rc != LZMA_OK) codec_error(kId, "cannot start the decoder: " + lzma_message(rc));
    run(st, encoded, out);
  }

 private:
  uint32_t preset_value() const { return static_cast<uint32_t>(preset_.value_or(kDefaultPreset)); }

  // Python's lzma.compress with FORMAT_XZ: lzma_easy_encoder, streaming (its
  // block headers carry no sizes, unlike lzma_easy_buffer_encode's).
  lzma_ret start_xz(Stream& st) const {
    auto check = check_ == kCheckDefault ? LZMA_CHECK_CRC64 : static_cast<lzma_check>(check_);
    return lzma_easy_encoder(&st.s, preset_value(), check);
  }

  lzma_ret start_alone(Stream& st) const {
    lzma_options_lzma options;
    if (lzma_lzma_preset(&options, preset_value())) return LZMA_OPTIONS_ERROR;
    return lzma_alone_encoder(&st.s, &options);
  }

  int format_;
  int check_;
  std::optional<int64_t> preset_;
};

// 0..9, optionally with PRESET_EXTREME (2^31) set, as Python accepts.
std::optional<int64_t> read_preset(const ConfigReader& cfg) {
  std::optional<int64_t> preset = cfg.nullable_integer("preset", INT64_MIN, INT64_MAX);
  if (preset && (*preset < 0 || (*preset & ~kPresetExtreme) > 9)) {
    cfg.invalid("preset", "0..9, optionally plus 2147483648 (PRESET_EXTREME)", *cfg.find("preset"));
  }
  return preset;
}

int read_check(const ConfigReader& cfg, int format) {
  int check = static_cast<int>(cfg.integer("check", kCheckDefault, INT32_MIN, INT32_MAX));
  bool known = check == kCheckDefault || check == LZMA_CHECK_NONE || check == LZMA_CHECK_CRC32 ||
               check == LZMA_CHECK_CRC64 || check == LZMA_CHECK_SHA256;
  if (!known) cfg.invalid("check", "-1 (default), 0 (none), 1 (CRC32), 4 (CRC64) or 10 (SHA256)", *cfg.find("check"));
  // A .lzma file has no integrity check field.
  if (format == kFormatAlone && check != kCheckDefault && check != LZMA_CHECK_NONE) {
    cfg.invalid("check", "-1 or 0 with format 2 (FORMAT_ALONE)", *cfg.find("check"));
  }
  return check;
}

// Raw streams need the filter chain spelled out and custom chains need
// Python's filter-dict syntax mapped to liblzma: neither is implemented.
void reject_unsupported(const ConfigReader& cfg, int format) {
  std::string what;
  if (format == kFormatRaw) what = "format 3 (FORMAT_RAW)";
  const rapidjson::Value* filters = cfg.find("filters");
  if (filters && !filters->IsNull()) {
    what += (what.empty() ? "" : " and ") + std::string("custom filters ") + json::to_string(*filters);
  }
  if (!what.empty()) {
    cfg.unsupported(what + " not supported: libzarr reads and writes format 1 (XZ) or 2 (ALONE) with a preset");
  }
}

}  // namespace

std::unique_ptr<BytesCodec> make_lzma_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  int format = static_cast<int>(cfg.integer("format", kFormatXz, kFormatXz, kFormatRaw));
  reject_unsupported(cfg, format);
  int check = read_check(cfg, format);
  std::optional<int64_t> preset = read_preset(cfg);
  return std::make_unique<LzmaCodec>(format, check, preset);
}

}  // namespace zarr::codecs
