#include "stores/remote_options.h"

namespace zarr {

HttpClientOptions read_client_options(const StoreRequest& request) {
  constexpr int64_t kHourMs = 3600 * 1000;
  HttpClientOptions options;
  options.timeout_ms = static_cast<long>(request.int_option("timeout_ms", 1, kHourMs).value_or(options.timeout_ms));
  options.connect_timeout_ms =
      static_cast<long>(request.int_option("connect_timeout_ms", 1, kHourMs).value_or(options.connect_timeout_ms));
  options.max_concurrency =
      static_cast<int>(request.int_option("max_concurrency", 1, 256).value_or(options.max_concurrency));
  options.max_retries = static_cast<int>(request.int_option("max_retries", 0, 20).value_or(options.max_retries));
  return options;
}

}  // namespace zarr
