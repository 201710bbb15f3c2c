#include "stores/aws_sigv4.h"

#include <algorithm>
#include <cctype>

#include "stores/sha256.h"
#include "stores/uri_encode.h"

namespace zarr::aws {

namespace {

constexpr const char* kAlgorithm = "AWS4-HMAC-SHA256";
constexpr const char* kService = "s3";

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Header values are signed with surrounding spaces trimmed and inner runs of
// spaces collapsed to one.
std::string trim_value(const std::string& value) {
  std::string out;
  bool in_space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      in_space = !out.empty();
      continue;
    }
    if (in_space) out += ' ';
    in_space = false;
    out += c;
  }
  return out;
}

NameValues sorted_canonical_headers(const NameValues& headers) {
  NameValues out;
  for (const auto& [name, value] : headers) out.emplace_back(lower(name), trim_value(value));
  std::sort(out.begin(), out.end());
  return out;
}

std::string signed_header_names(const NameValues& canonical_headers) {
  std::string names;
  for (const auto& header : canonical_headers) names += (names.empty() ? "" : ";") + header.first;
  return names;
}

std::string canonical_query(const NameValues& query) {
  NameValues encoded;
  for (const auto& [name, value] : query) encoded.emplace_back(uri_encode(name, false), uri_encode(value, false));
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) out += (out.empty() ? "" : "&") + name + "=" + value;
  return out;
}

std::string date_part(const std::string& amz_date) { return amz_date.substr(0, 8); }

std::string credential_scope(const std::string& amz_date, const std::string& region) {
  return date_part(amz_date) + "/" + region + "/" + kService + "/aws4_request";
}

}  // namespace

std::string amz_date(std::time_t utc) {
  std::tm parts{};
  gmtime_r(&utc, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &parts);
  return text;
}

std::string canonical_request(const SignedRequest& request) {
  const NameValues headers = sorted_canonical_headers(request.headers);
  std::string out = request.method + "\n" + request.encoded_path + "\n" + canonical_query(request.query) + "\n";
  for (const auto& [name, value] : headers) out += name + ":" + value + "\n";
  const std::string payload = request.payload_sha256.empty() ? crypto::to_hex(crypto::sha256(ByteView()))
                                                             : request.payload_sha256;
  return out + "\n" + signed_header_names(headers) + "\n" + payload;
}

std::string string_to_sign(const std::string& amz_date, const std::string& region,
                           const std::string& canonical_request) {
  return std::string(kAlgorithm) + "\n" + amz_date + "\n" + credential_scope(amz_date, region) + "\n" +
         crypto::to_hex(crypto::sha256(canonical_request));
}

std::string signature(const std::string& secret_access_key, const std::string& amz_date, const std::string& region,
                      const std::string& string_to_sign) {
  // The signing key: HMAC("AWS4" + secret, date), then region, service and
  // "aws4_request" in turn, each keyed by the previous result.
  crypto::Sha256Digest key = crypto::hmac_sha256(std::string("AWS4") + secret_access_key, date_part(amz_date));
  for (const std::string& part : {region, std::string(kService), std::string("aws4_request")}) {
    key = crypto::hmac_sha256(ByteView(key.data(), key.size()), part);
  }
  return crypto::to_hex(crypto::hmac_sha256(ByteView(key.data(), key.size()), string_to_sign));
}

void sign(SignedRequest& request, const Credentials& credentials, const std::string& region, std::time_t now) {
  const std::string date = amz_date(now);
  if (request.payload_sha256.empty()) request.payload_sha256 = crypto::to_hex(crypto::sha256(ByteView()));
  request.headers.emplace_back("x-amz-date", date);
  request.headers.emplace_back("x-amz-content-sha256", request.payload_sha256);
  if (!credentials.session_token.empty()) {
    request.headers.emplace_back("x-amz-security-token", credentials.session_token);
  }
  const std::string signed_headers = signed_header_names(sorted_canonical_headers(request.headers));
  const std::string to_sign = string_to_sign(date, region, canonical_request(request));
  request.headers.emplace_back("Authorization", std::string(kAlgorithm) + " Credential=" + credentials.access_key_id +
                                                    "/" + credential_scope(date, region) +
                                                    ",SignedHeaders=" + signed_headers + ",Signature=" +
                                                    signature(credentials.secret_access_key, date, region, to_sign));
}

}  // namespace zarr::aws
