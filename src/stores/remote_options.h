// Store options every remote store (HTTP, S3) takes: timeouts, concurrency
// and retries of its HTTP client (docs/store-http.md, docs/store-s3.md).
#pragma once

#include "stores/http_client.h"
#include "stores/store_request.h"

namespace zarr {

// timeout_ms, connect_timeout_ms, max_concurrency and max_retries from the
// request's options (defaults where absent); out-of-range values are
// ZARR_ERR_INVALID_ARGUMENT naming the option. The store lists these names
// in its own allow_only call.
HttpClientOptions read_client_options(const StoreRequest& request);

}  // namespace zarr
