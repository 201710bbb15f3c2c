// Byte ranges over HTTP (RFC 9110 section 14): the Range header a ByteRange
// becomes, and the bytes it asked for cut out of whatever the server sent,
// for the HTTP and S3 stores.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "stores/http_client.h"
#include "stores/store.h"

namespace zarr {

// True when the range selects no bytes whatever the value's size (length or
// suffix 0): no request can ask for it, only whether the key exists.
bool is_empty_range(const ByteRange& range);

// "Range: bytes=10-19", "bytes=10-" or "bytes=-5". The range must not be empty.
std::string range_header(const ByteRange& range);

// The body limit of a ranged GET: the range's own bound, or the store's
// value limit, whichever is larger (a server that ignores Range sends the
// whole value, which is cut out afterwards).
uint64_t range_body_limit(const ByteRange& range, uint64_t value_limit);

struct RangeAnswer {
  std::optional<Bytes> bytes;         // the bytes asked for
  std::optional<ByteRange> ask_again;  // else: the explicit range to ask for instead
};

// The bytes of `range` out of a 200 (whole value: the server ignored Range)
// or 206 response. A 206 whose Content-Range holds other bytes than asked
// (servers that misread suffix ranges, as s3rver does) gives ask_again, an
// explicit range worked out from the value's size. A 206 without a usable
// Content-Range is ZARR_ERR_IO naming `what`.
RangeAnswer take_range(const ByteRange& range, HttpResponse& response, const std::string& what);

// How a store makes a ranged GET and judges its answers.
struct RangedGet {
  std::function<HttpRequest(const ByteRange&)> request;           // the GET with its Range header
  std::function<bool(const HttpResponse&)> is_absent;             // the key does not exist
  std::function<std::string(const HttpRequest&)> describe;        // "HTTP GET <url>" for messages
  // Throws for any other status, and for an answer over the request's
  // max_body (too_large).
  std::function<void(const HttpRequest&, const HttpResponse&)> fail;
};

// The bytes of a non-empty range through `client`: nullopt when absent, an
// empty value when the range starts past the end (status 416), and a second,
// explicit request when the server misread the first (see take_range). The
// version is the ETag the server sent with the bytes ("" without one).
// An answer cut off at its max_body goes to how.fail.
Store::VersionedBytes fetch_range(const HttpClient& client, const ByteRange& range, const RangedGet& how);

}  // namespace zarr
