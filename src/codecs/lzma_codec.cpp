// "lzma": numcodecs.LZMA, which is Python's lzma.compress: an .xz stream
// (format 1, the default), a legacy .lzma "alone" file (format 2) or a raw
// stream (format 3), with a preset or a custom filter chain given as Python's
// filter dicts ({"id": 33, "preset": 1}, {"id": 3, "dist": 4}, ...).
#include <lzma.h>

#include <algorithm>
#include <cstdint>
#include <vector>

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

// One filter of a custom chain, with its options as liblzma takes them.
struct FilterSpec {
  lzma_vli id = LZMA_VLI_UNKNOWN;
  lzma_options_lzma lzma{};    // LZMA1, LZMA2
  lzma_options_delta delta{};  // delta
  lzma_options_bcj bcj{};      // the branch converters (x86, ARM, ...)
};

bool is_lzma_filter(lzma_vli id) { return id == LZMA_FILTER_LZMA1 || id == LZMA_FILTER_LZMA2; }

// A chain in liblzma's form (terminated by LZMA_VLI_UNKNOWN), pointing at its
// own copies of the options, since liblzma takes them as non-const void*.
class FilterArray {
 public:
  explicit FilterArray(const std::vector<FilterSpec>& specs) : specs_(specs) {
    for (size_t i = 0; i < specs_.size(); ++i) {
      FilterSpec& f = specs_[i];
      void* options = is_lzma_filter(f.id) ? static_cast<void*>(&f.lzma)
                      : f.id == LZMA_FILTER_DELTA ? static_cast<void*>(&f.delta)
                                                  : static_cast<void*>(&f.bcj);
      filters_[i] = lzma_filter{f.id, options};
    }
    filters_[specs_.size()] = lzma_filter{LZMA_VLI_UNKNOWN, nullptr};
  }
  FilterArray(const FilterArray&) = delete;
  FilterArray& operator=(const FilterArray&) = delete;
  const lzma_filter* get() const { return filters_; }

 private:
  std::vector<FilterSpec> specs_;
  lzma_filter filters_[LZMA_FILTERS_MAX + 1];
};

// Decode one raw stream after another until the input is used up: what
// Python's lzma.decompress does with FORMAT_RAW (a raw stream has no
// header, so the next one needs a fresh decoder).
void decode_raw(const std::vector<FilterSpec>& specs, ByteView in, OutputBuffer& out) {
  FilterArray chain(specs);
  do {
    Stream st;
    lzma_ret rc = lzma_raw_decoder(&st.s, chain.get());
    if (rc != LZMA_OK) codec_error(kId, "cannot start the decoder: " + lzma_message(rc));
    run(st, in, out);
    in = ByteView(st.s.next_in, st.s.avail_in);
  } while (in.size != 0);
}

class LzmaCodec final : public StreamingDecoderCodec {
 public:
  LzmaCodec(int format, int check, std::optional<int64_t> preset, std::vector<FilterSpec> filters,
            const rapidjson::Value& filters_json)
      : format_(format), check_(check), preset_(preset), filters_(std::move(filters)) {
    filters_json_.CopyFrom(filters_json, filters_json_.GetAllocator());
  }

  std::string id() const override { return kId; }

  // numcodecs' get_config(): the filters as they were given.
  std::string config_json() const override {
    ConfigWriter w(kId);
    w.add_int("format", format_).add_int("check", check_);
    if (preset_) {
      w.add_int("preset", *preset_);
    } else {
      w.add_null("preset");
    }
    return w.add_json("filters", filters_json_).str();
  }

  Bytes encode(ByteView decoded) const override {
    Stream st;
    lzma_ret rc = start_encoder(st);
    if (rc != LZMA_OK) codec_error(kId, "cannot start the encoder: " + lzma_message(rc));
    OutputBuffer out(kId, 0, lzma_stream_buffer_bound(decoded.size));
    run(st, decoded, out);
    return out.finish();
  }

  // The auto decoder reads both .xz (several concatenated streams too) and
  // .lzma, whichever format the config names; their headers name the filters.
  void decode_to(ByteView encoded, OutputBuffer& out) const override {
    if (format_ == kFormatRaw) return decode_raw(filters_, encoded, out);
    Stream st;
    lzma_ret rc = lzma_auto_decoder(&st.s, kDecoderMemLimit, LZMA_CONCATENATED);
    if (rc != LZMA_OK) codec_error(kId, "cannot start the decoder: " + lzma_message(rc));
    run(st, encoded, out);
  }

 private:
  uint32_t preset_value() const { return static_cast<uint32_t>(preset_.value_or(kDefaultPreset)); }
  lzma_check check_value() const {
    return check_ == kCheckDefault ? LZMA_CHECK_CRC64 : static_cast<lzma_check>(check_);
  }

  // As Python's LZMACompressor: XZ streams with lzma_easy_encoder or
  // lzma_stream_encoder (streaming: its block headers carry no sizes, unlike
  // lzma_easy_buffer_encode's), .lzma with the preset's or the one LZMA1
  // filter's options, raw with the chain.
  lzma_ret start_encoder(Stream& st) const {
    FilterArray chain(filters_);
    if (format_ == kFormatRaw) return lzma_raw_encoder(&st.s, chain.get());
    if (format_ == kFormatXz) {
      if (filters_.empty()) return lzma_easy_encoder(&st.s, preset_value(), check_value());
      return lzma_stream_encoder(&st.s, chain.get(), check_value());
    }
    if (!filters_.empty()) return lzma_alone_encoder(&st.s, &filters_[0].lzma);
    lzma_options_lzma options;
    if (lzma_lzma_preset(&options, preset_value())) return LZMA_OPTIONS_ERROR;
    return lzma_alone_encoder(&st.s, &options);
  }

  int format_;
  int check_;
  std::optional<int64_t> preset_;
  std::vector<FilterSpec> filters_;  // empty: none given (JSON null)
  rapidjson::Document filters_json_;
};

constexpr const char* kPresetRule = "0..9, optionally plus 2147483648 (PRESET_EXTREME)";

bool valid_preset(int64_t preset) { return preset >= 0 && (preset & ~kPresetExtreme) <= 9; }

// 0..9, optionally with PRESET_EXTREME (2^31) set, as Python accepts.
std::optional<int64_t> read_preset(const ConfigReader& cfg) {
  std::optional<int64_t> preset = cfg.nullable_integer("preset", INT64_MIN, INT64_MAX);
  if (preset && !valid_preset(*preset)) cfg.invalid("preset", kPresetRule, *cfg.find("preset"));
  return preset;
}

int read_check(const ConfigReader& cfg, int format) {
  int check = static_cast<int>(cfg.integer("check", kCheckDefault, INT32_MIN, INT32_MAX));
  bool known = check == kCheckDefault || check == LZMA_CHECK_NONE || check == LZMA_CHECK_CRC32 ||
               check == LZMA_CHECK_CRC64 || check == LZMA_CHECK_SHA256;
  if (!known) cfg.invalid("check", "-1 (default), 0 (none), 1 (CRC32), 4 (CRC64) or 10 (SHA256)", *cfg.find("check"));
  // Only .xz has an integrity check field.
  if (format != kFormatXz && check != kCheckDefault && check != LZMA_CHECK_NONE) {
    cfg.invalid("check", format == kFormatAlone ? "-1 or 0 with format 2 (FORMAT_ALONE)"
                                                : "-1 or 0 with format 3 (FORMAT_RAW)",
                *cfg.find("check"));
  }
  return check;
}

// The keys Python's lzma module takes in each kind of filter dict; any other
// key is its TypeError.
void check_filter_keys(const ConfigReader& f, const rapidjson::Value& spec, std::vector<std::string> known) {
  known.push_back("id");
  for (const auto& m : spec.GetObject()) {
    std::string key(m.name.GetString(), m.name.GetStringLength());
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      f.invalid(key.c_str(), "absent: not an option of this filter", m.value);
    }
  }
}

uint32_t read_u32(const ConfigReader& f, const char* name, uint32_t fallback) {
  return static_cast<uint32_t>(f.integer(name, fallback, 0, UINT32_MAX));
}

// {"id": 33 (LZMA2) or 4611686018427387905 (LZMA1), "preset": p, ...}: the
// preset's options, then the keys given on top, as Python builds them.
void read_lzma_options(const ConfigReader& f, const rapidjson::Value& spec, lzma_options_lzma& o) {
  check_filter_keys(f, spec, {"preset", "dict_size", "lc", "lp", "pb", "mode", "nice_len", "mf", "depth"});
  int64_t preset = f.integer("preset", kDefaultPreset, 0, UINT32_MAX);
  if (!valid_preset(preset)) f.invalid("preset", kPresetRule, *f.find("preset"));
  lzma_lzma_preset(&o, static_cast<uint32_t>(preset));
  o.dict_size = read_u32(f, "dict_size", o.dict_size);
  o.lc = static_cast<uint32_t>(f.integer("lc", o.lc, 0, LZMA_LCLP_MAX));
  o.lp = static_cast<uint32_t>(f.integer("lp", o.lp, 0, LZMA_LCLP_MAX));
  o.pb = static_cast<uint32_t>(f.integer("pb", o.pb, 0, LZMA_PB_MAX));
  int64_t mode = f.integer("mode", o.mode, 0, INT64_MAX);
  if (mode != LZMA_MODE_FAST && mode != LZMA_MODE_NORMAL) {
    f.invalid("mode", "1 (MODE_FAST) or 2 (MODE_NORMAL)", *f.find("mode"));
  }
  o.mode = static_cast<lzma_mode>(mode);
  o.nice_len = read_u32(f, "nice_len", o.nice_len);
  int64_t mf = f.integer("mf", o.mf, 0, INT64_MAX);
  if (mf != LZMA_MF_HC3 && mf != LZMA_MF_HC4 && mf != LZMA_MF_BT2 && mf != LZMA_MF_BT3 && mf != LZMA_MF_BT4) {
    f.invalid("mf", "3 (MF_HC3), 4 (MF_HC4), 18 (MF_BT2), 19 (MF_BT3) or 20 (MF_BT4)", *f.find("mf"));
  }
  o.mf = static_cast<lzma_match_finder>(mf);
  o.depth = read_u32(f, "depth", o.depth);
}

bool is_bcj_filter(lzma_vli id) {
  return id == LZMA_FILTER_X86 || id == LZMA_FILTER_POWERPC || id == LZMA_FILTER_IA64 || id == LZMA_FILTER_ARM ||
         id == LZMA_FILTER_ARMTHUMB || id == LZMA_FILTER_SPARC;
}

FilterSpec read_filter(const rapidjson::Value& spec, size_t index) {
  ConfigReader f(spec, kId, "filters[" + std::to_string(index) + "].");
  FilterSpec out;
  const rapidjson::Value* id = f.find("id");
  if (!id) f.invalid("id", "present (a filter id)", spec);
  out.id = static_cast<lzma_vli>(f.integer("id", 0, 0, INT64_MAX));
  if (is_lzma_filter(out.id)) {
    read_lzma_options(f, spec, out.lzma);
  } else if (out.id == LZMA_FILTER_DELTA) {
    check_filter_keys(f, spec, {"dist"});
    out.delta.type = LZMA_DELTA_TYPE_BYTE;
    out.delta.dist = static_cast<uint32_t>(f.integer("dist", 1, LZMA_DELTA_DIST_MIN, LZMA_DELTA_DIST_MAX));
  } else if (is_bcj_filter(out.id)) {
    check_filter_keys(f, spec, {"start_offset"});
    out.bcj.start_offset = read_u32(f, "start_offset", 0);
  } else {
    f.invalid("id",
              "a filter id: 4611686018427387905 (LZMA1), 33 (LZMA2), 3 (DELTA), 4 (X86), 5 (POWERPC), "
              "6 (IA64), 7 (ARM), 8 (ARMTHUMB) or 9 (SPARC)",
              *id);
  }
  return out;
}

// The chain as liblzma takes it; null (none) gives an empty one. Each
// format's rules are Python's: a raw stream needs a chain, .lzma a single
// LZMA1 filter, and a chain excludes a preset.
std::vector<FilterSpec> read_filters(const ConfigReader& cfg, int format, bool has_preset) {
  const rapidjson::Value* json = cfg.find("filters");
  if (!json || json->IsNull()) {
    if (format == kFormatRaw) cfg.invalid("filters", "a filter chain with format 3 (FORMAT_RAW)", rapidjson::Value());
    return {};
  }
  if (!json->IsArray() || json->Empty() || json->Size() > LZMA_FILTERS_MAX) {
    cfg.invalid("filters", "null or a list of 1 to 4 filter objects", *json);
  }
  if (has_preset) cfg.invalid("preset", "null when 'filters' is given", *cfg.find("preset"));
  std::vector<FilterSpec> filters;
  for (rapidjson::SizeType i = 0; i < json->Size(); ++i) filters.push_back(read_filter((*json)[i], i));
  if (format == kFormatAlone && (filters.size() != 1 || filters[0].id != LZMA_FILTER_LZMA1)) {
    cfg.invalid("filters", "a single LZMA1 filter with format 2 (FORMAT_ALONE)", *json);
  }
  // liblzma's own rules (order: LZMA1/2 last, options in range), as its
  // encoder applies them, the stricter ones: numcodecs wrote every stream
  // with that encoder. Then what the raw decoder, which has no memory limit
  // of its own, would allocate.
  FilterArray chain(filters);
  if (lzma_raw_encoder_memusage(chain.get()) == UINT64_MAX) {
    cfg.invalid("filters", "a chain liblzma accepts (LZMA1 or LZMA2 last, options in range)", *json);
  }
  if (format == kFormatRaw && lzma_raw_decoder_memusage(chain.get()) > kDecoderMemLimit) {
    cfg.invalid("filters", "a chain whose decoder needs at most 1 GiB (its 'dict_size')", *json);
  }
  return filters;
}

}  // namespace

std::unique_ptr<BytesCodec> make_lzma_codec(const rapidjson::Value& config, const ChunkRepr&) {
  ConfigReader cfg(config, kId);
  int format = static_cast<int>(cfg.integer("format", kFormatXz, kFormatXz, kFormatRaw));
  int check = read_check(cfg, format);
  std::optional<int64_t> preset = read_preset(cfg);
  std::vector<FilterSpec> filters = read_filters(cfg, format, preset.has_value());
  const rapidjson::Value* json = cfg.find("filters");
  rapidjson::Value null_value;
  return std::make_unique<LzmaCodec>(format, check, preset, std::move(filters), json ? *json : null_value);
}

}  // namespace zarr::codecs
