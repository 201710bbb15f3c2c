#include "stores/http_range.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "base/error.h"

namespace zarr {

namespace {

// [begin, end) of the value that `range` selects, for a value of `size` bytes.
std::pair<uint64_t, uint64_t> wanted_span(const ByteRange& range, uint64_t size) {
  if (range.suffix) return {size - std::min(*range.suffix, size), size};
  uint64_t begin = std::min(range.offset, size);
  uint64_t end = range.length ? begin + std::min(*range.length, size - begin) : size;
  return {begin, end};
}

Bytes slice(const Bytes& bytes, uint64_t begin, uint64_t end) {
  return Bytes(bytes.begin() + static_cast<ptrdiff_t>(begin), bytes.begin() + static_cast<ptrdiff_t>(end));
}

bool parse_number(const std::string& text, uint64_t& out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  out = std::strtoull(text.c_str(), nullptr, 10);
  return true;
}

// "bytes FIRST-LAST/TOTAL" (TOTAL may be "*", unknown).
struct ContentRange {
  uint64_t first = 0, last = 0;
  std::optional<uint64_t> total;
};

std::optional<ContentRange> parse_content_range(const std::string& value) {
  const std::string unit = "bytes ";
  if (value.rfind(unit, 0) != 0) return std::nullopt;
  size_t dash = value.find('-', unit.size());
  size_t slash = value.find('/', unit.size());
  if (dash == std::string::npos || slash == std::string::npos || dash > slash) return std::nullopt;
  ContentRange out;
  if (!parse_number(value.substr(unit.size(), dash - unit.size()), out.first) ||
      !parse_number(value.substr(dash + 1, slash - dash - 1), out.last) || out.last < out.first) {
    return std::nullopt;
  }
  std::string total = value.substr(slash + 1);
  if (total != "*") {
    uint64_t size = 0;
    if (!parse_number(total, size) || out.last >= size) return std::nullopt;
    out.total = size;
  }
  return out;
}

}  // namespace

bool is_empty_range(const ByteRange& range) {
  return range.suffix ? *range.suffix == 0 : range.length && *range.length == 0;
}

// Servers parse byte positions as signed 64-bit numbers (off_t): larger ones
// are written as "to the end" or "the whole value", which they mean anyway.
std::string range_header(const ByteRange& range) {
  constexpr uint64_t kLargest = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (range.suffix) return "Range: bytes=-" + std::to_string(std::min(*range.suffix, kLargest));
  const bool to_end = !range.length || *range.length - 1 > kLargest - std::min(range.offset, kLargest);
  std::string last = to_end ? "" : std::to_string(range.offset + *range.length - 1);
  return "Range: bytes=" + std::to_string(range.offset) + "-" + last;
}

RangeAnswer take_range(const ByteRange& range, HttpResponse& response, const std::string& what) {
  if (response.status == 200) {
    auto [begin, end] = wanted_span(range, response.body.size());
    return {slice(response.body, begin, end), std::nullopt};
  }
  std::optional<std::string> header = response.header("content-range");
  std::optional<ContentRange> sent = header ? parse_content_range(*header) : std::nullopt;
  if (!sent || sent->last - sent->first + 1 != response.body.size()) {
    fail(ZARR_ERR_IO, what + ": the server answered a range request with Content-Range '" + header.value_or("") +
                          "' and " + std::to_string(response.body.size()) + " bytes, which do not match");
  }
  // Without the total size ("bytes 2-5/*"), the bytes sent end the value as
  // far as anyone can tell.
  const uint64_t size = sent->total.value_or(sent->last + 1);
  auto [begin, end] = wanted_span(range, size);
  if (begin >= sent->first && end <= sent->last + 1) {
    return {slice(response.body, begin - sent->first, end - sent->first), std::nullopt};
  }
  if (!sent->total || begin == end) {
    fail(ZARR_ERR_IO, what + ": the server sent bytes " + *header + " for a request of " + range_header(range));
  }
  ByteRange explicit_range;
  explicit_range.offset = begin;
  explicit_range.length = end - begin;
  return {std::nullopt, explicit_range};
}

uint64_t range_body_limit(const ByteRange& range, uint64_t value_limit) {
  return std::max(range_limit(range, value_limit), value_limit);
}

Store::VersionedBytes fetch_range(const HttpClient& client, const ByteRange& range, const RangedGet& how) {
  HttpRequest request = how.request(range);
  HttpResponse response = client.perform(request);
  if (how.is_absent(response)) return {};
  if (response.too_large) how.fail(request, response);
  if (response.status == 416) return {Bytes{}, {}};
  if (response.status != 200 && response.status != 206) how.fail(request, response);
  RangeAnswer answer = take_range(range, response, how.describe(request));
  if (answer.bytes) return {std::move(answer.bytes), response.header("etag").value_or("")};
  // The server misread the range: ask for the same bytes by their offsets.
  const ByteRange explicit_range = *answer.ask_again;
  request = how.request(explicit_range);
  response = client.perform(request);
  if (response.too_large || (response.status != 200 && response.status != 206)) how.fail(request, response);
  answer = take_range(explicit_range, response, how.describe(request));
  if (!answer.bytes) fail(ZARR_ERR_IO, how.describe(request) + ": the server does not send the bytes asked for");
  return {std::move(answer.bytes), response.header("etag").value_or("")};
}

}  // namespace zarr
