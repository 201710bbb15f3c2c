#include "codecs/plugin_codec.h"

#include <cstddef>
#include <cstring>
#include <memory>

#include "base/error.h"
#include "base/json.h"
#include "base/plugin_output.h"
#include "codecs/codec.h"
#include "codecs/codec_util.h"

namespace zarr {

namespace {

thread_local std::string last_registration_error;

// The version 1 vtable's size: the least a plugin may hand in. It ends at
// `destroy`, version 1's last field; not sizeof(zarr_codec_vtable), which grows
// when fields are appended and would then refuse plugins built for version 1.
constexpr size_t kVtableV1Size = offsetof(zarr_codec_vtable, destroy) + sizeof(zarr_codec_vtable::destroy);

// The vtable and name, copied so the plugin's may go away.
struct PluginVtable {
  zarr_codec_vtable table{};
  std::string name;
};

class PluginCodec final : public BytesCodec {
 public:
  PluginCodec(std::shared_ptr<const PluginVtable> vt, void* instance, std::string config)
      : vt_(std::move(vt)), instance_(instance), config_(std::move(config)) {}
  ~PluginCodec() override { vt_->table.destroy(instance_); }
  PluginCodec(const PluginCodec&) = delete;
  PluginCodec& operator=(const PluginCodec&) = delete;

  std::string id() const override { return vt_->name; }
  std::string config_json() const override { return config_; }

  Bytes encode(ByteView decoded) const override {
    return run("encode", [&](const zarr_codec_output* out) {
      return vt_->table.encode(instance_, decoded.data, decoded.size, out);
    });
  }
  // A known size is also the most the plugin may allocate for its output.
  Bytes decode(ByteView encoded, size_t expected_size) const override {
    Bytes result = run("decode", expected_size ? expected_size : SIZE_MAX, [&](const zarr_codec_output* out) {
      return vt_->table.decode(instance_, encoded.data, encoded.size, expected_size, out);
    });
    if (expected_size != 0 && result.size() != expected_size) {
      fail(ZARR_ERR_CODEC, "codec '" + vt_->name + "': decoded " + std::to_string(result.size()) +
                               " bytes, expected " + std::to_string(expected_size));
    }
    return result;
  }

  Bytes decode_at_most(ByteView encoded, size_t max_size) const override {
    return run("decode", max_size, [&](const zarr_codec_output* out) {
      return vt_->table.decode(instance_, encoded.data, encoded.size, 0, out);
    });
  }

 private:
  // `most`: the largest output the plugin may allocate; asking for more
  // fails the call (fail_beyond_most) whatever the plugin then returns.
  template <typename Call>
  Bytes run(const char* what, Call call) const { return run(what, SIZE_MAX, call); }
  template <typename Call>
  Bytes run(const char* what, size_t most, Call call) const {
    PluginOutput context;
    context.limit = most;
    const zarr_codec_output out{&context, &PluginOutput::allocate, &PluginOutput::set_error};
    const int status = call(&out);
    if (context.over_limit) codecs::fail_beyond_most(vt_->name, most);
    if (context.out_of_memory) {
      fail(ZARR_ERR_NO_MEMORY, "codec '" + vt_->name + "': " + what + ": " + context.out_of_memory_text());
    }
    if (status != ZARR_OK) {
      const std::string why = context.error.empty() ? std::string(what) + " failed" : context.error;
      fail(plugin_status(status, ZARR_ERR_CODEC),
           "codec '" + vt_->name + "': " + why + " (status " + std::to_string(status) + ")");
    }
    return std::move(context.bytes);
  }

  std::shared_ptr<const PluginVtable> vt_;
  void* instance_;
  std::string config_;
};

std::unique_ptr<BytesCodec> create_instance(const std::shared_ptr<const PluginVtable>& vt,
                                            const rapidjson::Value& config, const ChunkRepr& repr) {
  const std::string text = json::to_string(config);
  char error[512] = {0};
  void* instance = nullptr;
  const int status = vt->table.create(vt->table.user_data, text.c_str(), repr.item_size, &instance, error,
                                      sizeof error);
  error[sizeof error - 1] = '\0';
  if (status != ZARR_OK || !instance) {
    const std::string why = error[0] ? error : "its create callback failed";
    fail(plugin_status(status, ZARR_ERR_INVALID_METADATA),
         "codec '" + vt->name + "': " + why);
  }
  return std::make_unique<PluginCodec>(vt, instance, text);
}

bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

void check_vtable(const zarr_codec_vtable* vt) {
  if (!vt) fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_codec_register: argument 'vtable' is NULL");
  if (vt->struct_size < kVtableV1Size) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_codec_register: field 'struct_size' is " + std::to_string(vt->struct_size) +
                                        ", less than the " + std::to_string(kVtableV1Size) + " bytes of ABI version 1");
  }
  if (vt->abi_version < 1 || vt->abi_version > ZARR_PLUGIN_ABI_VERSION) {
    fail(ZARR_ERR_UNSUPPORTED, "zarr_codec_register: field 'abi_version' is " + std::to_string(vt->abi_version) +
                                   "; this libzarr knows versions 1 to " + std::to_string(ZARR_PLUGIN_ABI_VERSION));
  }
  const std::string name = vt->name ? vt->name : "";
  if (!valid_name(name)) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_codec_register: field 'name' must be 1 to 64 letters, digits, '.', '_' "
                                    "or '-', got " + (vt->name ? json::quote(name) : std::string("NULL")));
  }
  const std::pair<const char*, bool> callbacks[] = {{"create", vt->create != nullptr},
                                                    {"encode", vt->encode != nullptr},
                                                    {"decode", vt->decode != nullptr},
                                                    {"destroy", vt->destroy != nullptr}};
  for (const auto& [field, present] : callbacks) {
    if (!present) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "zarr_codec_register: codec '" + name + "': field '" + field + "' is NULL");
    }
  }
}

}  // namespace

void register_plugin_codec(const zarr_codec_vtable* vtable) {
  try {
    check_vtable(vtable);
    auto vt = std::make_shared<PluginVtable>();
    // Only the fields the plugin's struct covers; later fields stay zero.
    std::memcpy(&vt->table, vtable, std::min<size_t>(vtable->struct_size, sizeof vt->table));
    vt->name = vtable->name;
    vt->table.name = vt->name.c_str();
    std::shared_ptr<const PluginVtable> shared = vt;
    register_bytes_codec(
        vt->name,
        [shared](const rapidjson::Value& config, const ChunkRepr& repr) { return create_instance(shared, config, repr); },
        /*v3_name=*/true);
  } catch (const Error& e) {
    last_registration_error = e.what();
    throw;
  }
}

void clear_plugin_registration_error() { last_registration_error.clear(); }

std::string plugin_registration_error() { return last_registration_error; }

}  // namespace zarr
