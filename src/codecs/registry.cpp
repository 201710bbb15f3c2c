// The codec registry: v2 ids -> bytes-codec factories and v3 core names ->
// factories of any kind, filled lazily by add_builtins() with the codecs
// compiled into this build, open to plugins through register_bytes_codec; an
// unknown v2 id loads the plugins of ZARR_PLUGIN_PATH not tried yet.
#include <algorithm>
#include <map>
#include <mutex>
#include <optional>

#include "base/error.h"
#include "base/json.h"
#include "base/plugin_hook.h"
#include "codecs/builtin_codecs.h"
#include "codecs/codec.h"
#include "codecs/codec_util.h"
#include "codecs/vlen_codecs.h"
#include "zarr_config.h"

namespace zarr {

namespace {

struct Entry {
  BytesCodecFactory factory;
  bool v3_name = false;  // also a v3 codec name (plugins), not only a v2 id
};

struct Registry {
  std::mutex mutex;
  std::map<std::string, Entry> entries;  // v2 ids, sorted: registered_bytes_codecs() lists in order
  std::map<std::string, V3CodecEntry> v3_entries;  // v3 core names
};

Registry& registry() {
  static Registry r;
  return r;
}

void add_factory(const std::string& id, BytesCodecFactory factory, bool v3_name = false) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.entries[id] = Entry{std::move(factory), v3_name};
}

// Every built-in id with the library it needs and the Meson option that
// enables it, so a build without one can say how to get it.
struct Builtin {
  const char* id;
  const char* library;
  const char* option;
};
constexpr Builtin kBuiltins[] = {
    {"blosc", "c-blosc", "blosc"}, {"bz2", "libbz2", "bz2"},   {"gzip", "zlib", "zlib"}, {"lz4", "liblz4", "lz4"},
    {"lzma", "liblzma", "lzma"},   {"zlib", "zlib", "zlib"},   {"zstd", "libzstd", "zstd"},
    {"zfpy", "libzfp", "zfp"},
};

[[noreturn]] void fail_unknown(const std::string& id, const std::string& plugin_failures) {
  if (vlen::is_object_codec(id)) {
    fail(ZARR_ERR_UNSUPPORTED, "codec '" + id + "' stores an object array's variable-length elements: it needs the "
                               "array's shape and data type, so it runs only inside an array (as the first filter "
                               "of a \"|O\" array)");
  }
  for (const Builtin& b : kBuiltins) {
    if (id == b.id) {
      fail(ZARR_ERR_UNSUPPORTED, "codec '" + id + "': libzarr was built without it (" + b.library +
                                     " was not found or -D" + b.option + "=disabled was set)");
    }
  }
  fail(ZARR_ERR_UNSUPPORTED, "unsupported codec '" + id + "'" + unimplemented_numcodecs_note(id) +
                                 (plugin_failures.empty() ? "" : " (plugins that failed to load: " + plugin_failures + ")"));
}

void add_v3(const std::string& name, CodecKind kind, V3CodecFactory factory, V3JsonOfV2 v3_json_of_v2 = nullptr) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.v3_entries[name] = V3CodecEntry{kind, std::move(factory), v3_json_of_v2};
}

std::once_flag builtins_once;

void add_builtins() {
#if ZARR_HAVE_ZLIB
  add_factory("zlib", codecs::make_zlib_codec);
  add_factory("gzip", codecs::make_gzip_codec);
#endif
#if ZARR_HAVE_BZ2
  add_factory("bz2", codecs::make_bz2_codec);
#endif
#if ZARR_HAVE_ZSTD
  add_factory("zstd", codecs::make_zstd_codec);
#endif
#if ZARR_HAVE_BLOSC
  add_factory("blosc", codecs::make_blosc_codec);
#endif
#if ZARR_HAVE_LZ4
  add_factory("lz4", codecs::make_lz4_codec);
#endif
#if ZARR_HAVE_LZMA
  add_factory("lzma", codecs::make_lzma_codec);
#endif
#if ZARR_HAVE_ZFP
  add_factory("zfpy", codecs::make_zfpy_codec);
  add_v3("zfp", CodecKind::ArrayToBytes, codecs::make_zfp_v3);
  add_v3("numcodecs.zfpy", CodecKind::ArrayToBytes, codecs::make_zfpy_v3);
#endif
  // v3 core codecs (the bytes->bytes ones run on the v2 implementations and
  // write their v3 form of a v2 configuration)
  add_v3("bytes", CodecKind::ArrayToBytes, codecs::make_bytes_v3);
  add_v3("transpose", CodecKind::ArrayToArray, codecs::make_transpose_v3);
  add_v3("sharding_indexed", CodecKind::ArrayToBytes, codecs::make_sharding_v3);
  add_v3("vlen-utf8", CodecKind::ArrayToBytes, codecs::make_vlen_utf8_v3);
  add_v3("vlen-bytes", CodecKind::ArrayToBytes, codecs::make_vlen_bytes_v3);
  add_v3("crc32c", CodecKind::BytesToBytes, codecs::make_crc32c_v3);
  add_v3("reshape", CodecKind::ArrayToArray, codecs::make_reshape_v3);
  add_v3("cast_value", CodecKind::ArrayToArray, codecs::make_cast_value_v3);
  add_v3("scale_offset", CodecKind::ArrayToArray, codecs::make_scale_offset_v3);
  add_v3("packbits", CodecKind::ArrayToBytes, codecs::make_packbits_v3);
  add_v3("n5_default", CodecKind::ArrayToBytes, codecs::make_n5_default_v3);
  add_v3("conditional", CodecKind::BytesToBytes, codecs::make_conditional_v3);
  // zarrs' experimental proposal: read always, written only when enabled (codecs/experimental.h).
  add_v3("optional", CodecKind::ArrayToBytes, codecs::make_optional_v3);
  for (const char* name : {"bitround", "numcodecs.bitround"}) {
    add_v3(name, CodecKind::ArrayToArray, [name](const V3CodecRequest& r) { return codecs::make_bitround_v3(r, name); });
  }
#if ZARR_HAVE_ZLIB
  add_v3("gzip", CodecKind::BytesToBytes, codecs::make_gzip_v3, codecs::gzip_v3_json);
#endif
#if ZARR_HAVE_ZSTD
  add_v3("zstd", CodecKind::BytesToBytes, codecs::make_zstd_v3, codecs::zstd_v3_json);
#endif
#if ZARR_HAVE_BLOSC
  add_v3("blosc", CodecKind::BytesToBytes, codecs::make_blosc_v3, codecs::blosc_v3_json);
#endif
  // numcodecs filters and checksums (no library needed)
  add_factory("delta", codecs::make_delta_codec);
  add_factory("shuffle", codecs::make_shuffle_codec);
  add_factory("bitround", codecs::make_bitround_codec);
  add_factory("fixedscaleoffset", codecs::make_fixedscaleoffset_codec);
  add_factory("quantize", codecs::make_quantize_codec);
  add_factory("packbits", codecs::make_packbits_codec);
  add_factory("astype", codecs::make_astype_codec);
  add_factory("categorize", codecs::make_categorize_codec);
  add_factory("adler32", codecs::make_adler32_codec);
  add_factory("crc32", codecs::make_crc32_codec);
  add_factory("crc32c", codecs::make_crc32c_codec);
  add_factory("fletcher32", codecs::make_fletcher32_codec);
}

// The entry registered under id, copied out so it runs without the lock.
std::optional<Entry> find_entry(const std::string& id) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.entries.find(id);
  if (it == r.entries.end()) return std::nullopt;
  return it->second;
}

// As find_entry, loading the plugins of ZARR_PLUGIN_PATH not tried yet when
// id is unknown. *failures: every plugin that failed to load so far.
std::optional<Entry> find_entry_or_load(const std::string& id, std::string* failures) {
  register_builtin_codecs();
  if (std::optional<Entry> e = find_entry(id)) return e;
  *failures = load_new_plugins();
  return find_entry(id);
}

std::string read_id(const rapidjson::Value& config) {
  if (!config.IsObject()) {
    fail(ZARR_ERR_INVALID_METADATA, "codec configuration must be a JSON object, got " + json::to_string(config));
  }
  const rapidjson::Value* id = json::find(config, "id");
  if (!id) fail(ZARR_ERR_INVALID_METADATA, "codec configuration has no 'id': " + json::to_string(config));
  if (!id->IsString()) {
    fail(ZARR_ERR_INVALID_METADATA, "codec configuration: field 'id' must be a string, got " + json::to_string(*id));
  }
  return std::string(id->GetString(), id->GetStringLength());
}

}  // namespace

void register_builtin_codecs() { std::call_once(builtins_once, add_builtins); }

std::string unimplemented_numcodecs_note(const std::string& id) {
  // numcodecs.pcodec wraps the pco library; its format is defined by that
  // library's code rather than a specification libzarr could implement from.
  if (id == "pcodec") {
    return "; pcodec (numcodecs.pcodec, the pco format) is not implemented in libzarr: an array using it "
           "cannot be read or written here (a plugin may register it)";
  }
  return "";
}

void register_bytes_codec(const std::string& id, BytesCodecFactory factory, bool v3_name) {
  // Built-ins first, so a plugin registered under a built-in id replaces it
  // instead of being replaced by the lazy registration later.
  register_builtin_codecs();
  if (id.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "register_bytes_codec: empty codec id");
  if (!factory) fail(ZARR_ERR_INVALID_ARGUMENT, "register_bytes_codec: empty factory for codec '" + id + "'");
  add_factory(id, std::move(factory), v3_name);
}

const char* codec_kind_name(CodecKind kind) {
  switch (kind) {
    case CodecKind::ArrayToArray: return "array->array";
    case CodecKind::ArrayToBytes: return "array->bytes";
    case CodecKind::BytesToBytes: break;
  }
  return "bytes->bytes";
}

void register_v3_codec(const std::string& name, CodecKind kind, V3CodecFactory factory, V3JsonOfV2 v3_json_of_v2) {
  register_builtin_codecs();
  if (name.empty() || !factory) fail(ZARR_ERR_INVALID_ARGUMENT, "register_v3_codec: empty name or factory");
  add_v3(name, kind, std::move(factory), v3_json_of_v2);
}

std::optional<V3CodecEntry> find_v3_codec(const std::string& name) {
  register_builtin_codecs();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.v3_entries.find(name);
  if (it == r.v3_entries.end()) return std::nullopt;
  return it->second;
}

bool is_known_bytes_codec(const std::string& id) {
  std::string failures;
  return find_entry_or_load(id, &failures).has_value();
}

bool is_registered_v3_name(const std::string& name) {
  std::string failures;
  std::optional<Entry> e = find_entry_or_load(name, &failures);
  return e && e->v3_name;
}

std::vector<std::string> registered_bytes_codecs() {
  register_builtin_codecs();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> ids;
  for (const auto& entry : r.entries) ids.push_back(entry.first);
  return ids;
}

std::unique_ptr<BytesCodec> make_bytes_codec(const rapidjson::Value& config, const ChunkRepr& repr) {
  std::string id = read_id(config);
  std::string plugin_failures;
  std::optional<Entry> entry = find_entry_or_load(id, &plugin_failures);
  if (!entry) fail_unknown(id, plugin_failures);
  std::unique_ptr<BytesCodec> codec = entry->factory(config, repr);
  if (!codec) fail(ZARR_ERR_INTERNAL, "codec '" + id + "': its factory returned no codec");
  return codec;
}

}  // namespace zarr
