// AWS Signature Version 4 for S3 requests, signed in the Authorization
// header (docs.aws.amazon.com, "Authenticating Requests: Using the
// Authorization Header"). Pure string work: no network, testable against the
// examples AWS publishes.
#pragma once

#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace zarr::aws {

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // temporary credentials only, else empty
};

using NameValues = std::vector<std::pair<std::string, std::string>>;

struct SignedRequest {
  std::string method;         // "GET", "PUT", ...
  std::string encoded_path;   // the request path as sent, encoded by uri_encode ("/bucket/a%20b")
  NameValues query;           // query parameters, not encoded
  NameValues headers;         // every header sent, "host" included; sign() adds its own
  std::string payload_sha256; // lower-case hex SHA-256 of the body ("" -> the empty body's)
};

// "20130524T000000Z" for a UTC time.
std::string amz_date(std::time_t utc);

// The steps of signing, exposed for tests against AWS's published values.
std::string canonical_request(const SignedRequest& request);
std::string string_to_sign(const std::string& amz_date, const std::string& region,
                           const std::string& canonical_request);
std::string signature(const std::string& secret_access_key, const std::string& amz_date, const std::string& region,
                      const std::string& string_to_sign);

// Adds x-amz-date, x-amz-content-sha256, x-amz-security-token (with a
// session token) and Authorization to request.headers, for service "s3".
void sign(SignedRequest& request, const Credentials& credentials, const std::string& region, std::time_t now);

}  // namespace zarr::aws
