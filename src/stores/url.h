// From a URL to a store and the node's path inside it (docs/urls.md).
//
//   /abs/path, rel/path, file:///abs/path   filesystem
//   memory://NAME[/node/path]               in-process store shared by name
//   PATH_OR_FILE_URL|zip:[node/path]        zip archive
//   http://, https://, s3://                remote stores (libcurl)
//   SCHEME://NAME[/node/path]               a store a program registered
#pragma once

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "stores/store_request.h"
#include "zarr/zarr_plugin.h"

namespace zarr {

// The options JSON object of zarr_open_ex, zarr_create_ex and the group _ex
// functions, parsed once: its "store" member goes to the URL's store, the
// other members to the caller's own parser.
struct OpenOptions {
  rapidjson::Document document;            // the object ({} for NULL or "")
  const rapidjson::Value* store = nullptr;  // document["store"], an object; null when absent
};
OpenOptions parse_open_options(const char* options_json);

// The store a URL names and the node's path in it, for `access`:
//  - a filesystem path names the node's own folder, which becomes the
//    store's root; for kCreate the root is the topmost enclosing group
//    folder (one holding .zgroup or zarr.json) instead, so that the missing
//    groups between it and the new node can be created as the spec asks;
//    for kErase the root is the node's parent folder (the node's own folder
//    is then erased with its keys);
//  - memory and zip URLs name a whole store and the node's path inside it;
//  - kRead gives a store that refuses writes where the store allows it.
// store_options: the "store" member of the options (may be null).
NodeLocation resolve_url(const std::string& url, StoreAccess access, const rapidjson::Value* store_options = nullptr);

// The schemes built into the resolver (and "zip"), which no program may
// register a store under.
std::vector<std::string> reserved_url_schemes();

// zarr_store_register: a program's store under its own scheme.
void register_url_store(const zarr_store_vtable* vtable);

}  // namespace zarr
