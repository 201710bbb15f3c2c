// The read-only HTTP(S) store (docs/store-http.md): keys are paths below a
// base URL, read with GET (ranged GET for byte ranges) and HEAD.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stores/http_client.h"
#include "stores/store.h"
#include "stores/store_request.h"

namespace zarr {

struct HttpStoreOptions {
  HttpClientOptions client;          // its redirects and secrets are the store's (below)
  std::vector<std::string> headers;  // "Name: value", sent with every request
  Redirects redirects = Redirects::kSameOrigin;
};

// `base_url` is "http://host[:port][/path][?query]": key "a/0.0" is read from
// "http://host[:port]/path/a/0.0[?query]", the key percent-encoded.
// Redirects are followed as options.redirects says (at most 5 in a row;
// within the base URL's origin by default). Header values, the URL's
// userinfo and its query never appear in messages. A 404 or 403 means the
// key is absent.
// Writes are ZARR_ERR_READ_ONLY and listing is ZARR_ERR_UNSUPPORTED (HTTP has
// no listing; open hierarchies through consolidated metadata). A base URL
// that is not http(s), has no host or holds a '#' is
// ZARR_ERR_INVALID_ARGUMENT.
std::shared_ptr<Store> make_http_store(const std::string& base_url, const HttpStoreOptions& options);

// The URL factory of http:// and https:// (its store options:
// docs/store-http.md). Builds without libcurl refuse these URLs with
// ZARR_ERR_UNSUPPORTED (remote_stores_unavailable.cpp).
NodeLocation open_http_store(const StoreRequest& request);

}  // namespace zarr
