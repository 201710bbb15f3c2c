// The S3 store (docs/store-s3.md): keys are objects under a prefix of a
// bucket, on AWS S3 or any S3-compatible server (MinIO, Ceph, s3rver...),
// requests signed with AWS Signature Version 4.
#pragma once

#include <memory>
#include <string>

#include "stores/aws_sigv4.h"
#include "stores/http_client.h"
#include "stores/store.h"
#include "stores/store_request.h"

namespace zarr {

struct S3StoreOptions {
  std::string bucket;
  std::string prefix;           // "" or "a/b/": key "k" is object "a/b/k"
  std::string region = "us-east-1";
  std::string endpoint;         // "http(s)://host[:port][/path]"; "" for AWS's https://s3.REGION.amazonaws.com
  bool virtual_host = false;    // the bucket in the host name ("bucket.host") instead of the path
  aws::Credentials credentials;
  bool anonymous = false;       // unsigned requests (public buckets)
  bool read_only = false;       // writes are ZARR_ERR_READ_ONLY
  int list_page_size = 1000;    // max-keys of each ListObjectsV2 request
  // A listing of more pages than this, or of more keys and common prefixes
  // in all, is ZARR_ERR_IO (a server that never ends it), as is one whose
  // continuation token comes back. 2^20 entries hold at most about 1 GiB of
  // key text (S3 keys are at most 1024 bytes); pages of 1000 keys reach it
  // in 1049 pages, so 2048 pages leave room for servers with smaller pages.
  int64_t max_list_pages = 2048;
  uint64_t max_list_entries = uint64_t{1} << 20;
  HttpClientOptions client;     // its secrets are the credentials (set by the store)
};

// AWS's rules for bucket names: 3 to 63 lower-case letters, digits, '.' and
// '-', starting and ending with a letter or digit, no "..", not an IPv4
// address, none of the prefixes "xn--", "sthree-", "amzn-s3-demo-" nor the
// suffixes "-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3". Empty
// when `bucket` follows them, else the rule it breaks.
std::string bucket_name_problem(const std::string& bucket);

// Nothing is sent until the first operation. A bad bucket name (naming the
// bucket and the rule) or endpoint is ZARR_ERR_INVALID_ARGUMENT. Redirects
// are not followed (a 3xx is ZARR_ERR_IO). The credentials never appear in
// messages (scrub_secrets).
//  - get/get_range/exists: 404 is absent; 403 is absent for anonymous
//    stores (S3 answers 403 for missing objects when the caller may not
//    list the bucket) and ZARR_ERR_IO "permission denied" otherwise; a
//    missing bucket is ZARR_ERR_NOT_FOUND.
//  - list_prefix and list_dir page through ListObjectsV2; keys that break
//    libzarr's key rules (store.h) are left out. More than max_list_pages
//    pages or max_list_entries entries, or a continuation token seen
//    before, is ZARR_ERR_IO.
//  - erase_prefix lists, then deletes each object (concurrently).
std::shared_ptr<Store> make_s3_store(const S3StoreOptions& options);

// The URL factory of s3:// (its store options: docs/store-s3.md). Builds
// without libcurl refuse these URLs with ZARR_ERR_UNSUPPORTED
// (remote_stores_unavailable.cpp).
NodeLocation open_s3_store(const StoreRequest& request);

}  // namespace zarr
