#include <cstring>

#include "array/array.h"
#include "base/json.h"
#include "guard.h"
#include "consolidated_sync.h"
#include "hierarchy/consolidated.h"
#include "metadata/nodes.h"
#include "stores/url.h"

using zarr::capi::guarded;
using zarr::capi::require;

namespace {

zarr_group* wrap(std::unique_ptr<zarr::Group> impl) {
  auto* handle = new zarr_group;
  handle->impl = std::move(impl);
  return handle;
}

bool parse_group_mode(const char* mode) {
  require(mode, "mode");
  if (std::strcmp(mode, "r") == 0) return false;
  if (std::strcmp(mode, "r+") == 0) return true;
  zarr::fail(ZARR_ERR_INVALID_ARGUMENT, std::string("mode must be \"r\" or \"r+\", got \"") + mode + "\"");
}

const char* kind_name(zarr::NodeKind kind) { return kind == zarr::NodeKind::Group ? "group" : "array"; }

}  // namespace

namespace {

// The URL of a node below a group opened by URL ("" when the group was not).
std::string child_url(const zarr_group* group, const char* relative) {
  return group->url.empty() ? "" : group->url + "/" + relative;
}

}  // namespace

extern "C" {

ZARR_API int zarr_group_open_ex(zarr_group** out, const char* url, const char* mode, const char* options_json) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    bool writable = parse_group_mode(mode);
    auto consolidated = zarr::Group::Consolidated::Auto;
    std::string process_lock_dir;
    zarr::OpenOptions options = zarr::parse_open_options(options_json);
    for (auto it = options.document.MemberBegin(); it != options.document.MemberEnd(); ++it) {
      std::string name = zarr::json::text(it->name);
      if (name == "store") continue;  // for resolve_url
      if (name == "process_lock_dir") {
        process_lock_dir = zarr::process_lock_dir_option(it->value);
        continue;
      }
      if (name != "consolidated") {
        zarr::fail(ZARR_ERR_INVALID_ARGUMENT, "options: " + zarr::json::unknown("option", name));
      }
      if (!it->value.IsBool()) zarr::fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'consolidated' must be true or false");
      consolidated = it->value.GetBool() ? zarr::Group::Consolidated::Required : zarr::Group::Consolidated::Never;
    }
    auto access = writable ? zarr::StoreAccess::kReadWrite : zarr::StoreAccess::kRead;
    zarr::NodeLocation loc = zarr::resolve_url(require(url, "url"), access, options.store);
    std::unique_ptr<zarr::Group> group = zarr::Group::open(loc.store, loc.path, writable, consolidated);
    group->set_process_lock_dir(process_lock_dir);
    *out = wrap(std::move(group));
    if (writable) (*out)->url = url;
  });
}

ZARR_API int zarr_group_open(zarr_group** out, const char* url, const char* mode) {
  return zarr_group_open_ex(out, url, mode, nullptr);
}

ZARR_API int zarr_consolidate_metadata(const char* url) {
  return guarded(__func__, [&] {
    zarr::NodeLocation loc = zarr::resolve_url(require(url, "url"), zarr::StoreAccess::kReadWrite);
    zarr::write_consolidated(*loc.store, loc.path);
    zarr::release_store(std::move(loc.store));  // writes what the store holds back (a zip archive)
  });
}

ZARR_API int zarr_erase(const char* url, const char* options_json) {
  return guarded(__func__, [&] {
    zarr::OpenOptions options = zarr::parse_open_options(options_json);
    for (auto it = options.document.MemberBegin(); it != options.document.MemberEnd(); ++it) {
      std::string name = zarr::json::text(it->name);
      if (name != "store") zarr::fail(ZARR_ERR_INVALID_ARGUMENT, "options: " + zarr::json::unknown("option", name));
    }
    zarr::NodeLocation loc = zarr::resolve_url(require(url, "url"), zarr::StoreAccess::kErase, options.store);
    zarr::erase_node(*loc.store, loc.path);
    zarr::capi::keep_consolidated_in_step(url, *loc.store, loc.path);
    zarr::release_store(std::move(loc.store));
  });
}

ZARR_API int zarr_group_format(const zarr_group* group) { return group ? group->impl->zarr_format() : 0; }

ZARR_API int zarr_group_create_ex(zarr_group** out, const char* url, const char* attributes_json,
                                  const char* options_json) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    int format = 0;  // the enclosing group's, else 3 (Group::create)
    zarr::OpenOptions options = zarr::parse_open_options(options_json);
    for (auto it = options.document.MemberBegin(); it != options.document.MemberEnd(); ++it) {
      std::string name = zarr::json::text(it->name);
      if (name == "store") continue;  // for resolve_url
      if (name != "zarr_format") {
        zarr::fail(ZARR_ERR_INVALID_ARGUMENT, "options: " + zarr::json::unknown("option", name));
      }
      if (!it->value.IsInt()) zarr::fail(ZARR_ERR_INVALID_ARGUMENT, "options: 'zarr_format' must be 2 or 3");
      format = it->value.GetInt();
    }
    zarr::NodeLocation loc = zarr::resolve_url(require(url, "url"), zarr::StoreAccess::kCreate, options.store);
    *out = wrap(zarr::Group::create(loc.store, loc.path, attributes_json, format));
    (*out)->url = url;
    zarr::capi::keep_consolidated_in_step(url, *loc.store, loc.path);
  });
}

ZARR_API int zarr_group_create(zarr_group** out, const char* url, const char* attributes_json) {
  return zarr_group_create_ex(out, url, attributes_json, nullptr);
}

ZARR_API int zarr_group_close(zarr_group* group) {
  if (!group) return ZARR_OK;
  std::shared_ptr<zarr::Store> store = group->impl->store();
  delete group;
  return guarded(__func__, [&] { zarr::release_store(std::move(store)); });
}

ZARR_API int zarr_group_list(zarr_group* group, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    std::string out = "[";
    for (const zarr::ChildNode& child : require(group, "group")->impl->children()) {
      out += (out.size() > 1 ? "," : "") + std::string("{\"name\":") + zarr::json::quote(child.name) +
             ",\"kind\":\"" + kind_name(child.kind) + "\"}";
    }
    *json_out = zarr::capi::copy_out(out + "]");
  });
}

ZARR_API int zarr_group_child_count(zarr_group* group, size_t* count) {
  return guarded(__func__, [&] {
    require(group, "group");
    require(count, "count");
    group->listing = group->impl->children();
    *count = group->listing.size();
  });
}

ZARR_API int zarr_group_child(zarr_group* group, size_t i, const char** name, int* kind) {
  return guarded(__func__, [&] {
    require(group, "group");
    if (i >= group->listing.size()) {
      zarr::fail(ZARR_ERR_OUT_OF_BOUNDS, "child index " + std::to_string(i) + " is not below the " +
                                             std::to_string(group->listing.size()) +
                                             " children of the last listing (call zarr_group_child_count)");
    }
    if (name) *name = group->listing[i].name.c_str();
    if (kind) *kind = group->listing[i].kind == zarr::NodeKind::Group ? ZARR_NODE_GROUP : ZARR_NODE_ARRAY;
  });
}

ZARR_API int zarr_group_open_array(zarr_array** out, zarr_group* group, const char* path, const char* mode) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    bool writable = parse_group_mode(mode);
    auto impl = require(group, "group")->impl->open_array(require(path, "path"), writable, zarr::ArrayOptions{});
    *out = new zarr_array{zarr::make_handle(std::move(impl)), writable ? child_url(group, path) : ""};
  });
}

ZARR_API int zarr_group_create_array(zarr_array** out, zarr_group* group, const char* path,
                                     const char* metadata_json) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    auto impl = require(group, "group")->impl->create_array(require(path, "path"),
                                                             require(metadata_json, "metadata_json"),
                                                             zarr::ArrayOptions{});
    zarr::capi::keep_consolidated_in_step(child_url(group, path), *impl->store(), impl->path());
    *out = new zarr_array{zarr::make_handle(std::move(impl)), child_url(group, path)};
  });
}

ZARR_API int zarr_group_open_group(zarr_group** out, zarr_group* group, const char* path) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    *out = wrap(require(group, "group")->impl->open_group(require(path, "path")));
    (*out)->url = child_url(group, path);
  });
}

ZARR_API int zarr_group_create_group(zarr_group** out, zarr_group* group, const char* path,
                                     const char* attributes_json) {
  return guarded(__func__, [&] {
    require(out, "out");
    *out = nullptr;
    std::unique_ptr<zarr::Group> created = require(group, "group")->impl->create_group(require(path, "path"), attributes_json);
    zarr::capi::keep_consolidated_in_step(child_url(group, path), *created->store(), created->path());
    *out = wrap(std::move(created));
    (*out)->url = child_url(group, path);
  });
}

ZARR_API int zarr_group_get_attributes(const zarr_group* group, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    *json_out = zarr::capi::copy_out(require(group, "group")->impl->attributes_json());
  });
}

ZARR_API int zarr_group_set_attributes(zarr_group* group, const char* json) {
  return guarded(__func__, [&] {
    zarr::Group& g = *require(group, "group")->impl;
    g.set_attributes(require(json, "json"));
    zarr::capi::keep_consolidated_in_step(group->url, *g.store(), g.path());
  });
}

ZARR_API int zarr_group_get_attribute(const zarr_group* group, const char* key, char** json_out) {
  return guarded(__func__, [&] {
    require(json_out, "json_out");
    *json_out = nullptr;
    *json_out = zarr::capi::copy_out(require(group, "group")->impl->attribute(require(key, "key")));
  });
}

ZARR_API int zarr_group_update_attributes(zarr_group* group, const char* json_object) {
  return guarded(__func__, [&] {
    zarr::Group& g = *require(group, "group")->impl;
    g.update_attributes(require(json_object, "json_object"));
    zarr::capi::keep_consolidated_in_step(group->url, *g.store(), g.path());
  });
}

}  // extern "C"
