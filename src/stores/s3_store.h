// The S3 store (docs/store-s3.md): keys are objects under a prefix of a
// bucket, on AWS S3 or any S3-compatible server (MinIO, Ceph, s3rver...),
// requests signed with AWS Signature Version 4.
#pragma once

#include <memory>
#include <string>

#include "stores/aws_sigv4.h"
#include "stores/http_client.h"
#include "stores/store.h"

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
  HttpClientOptions client;
};

// Bucket names S3 accepts for path-style requests: 1 to 255 of letters,
// digits, '.', '-' and '_' (AWS itself is stricter for new buckets).
bool is_valid_bucket_name(const std::string& bucket);

// Nothing is sent until the first operation. A bad bucket name or endpoint is
// ZARR_ERR_INVALID_ARGUMENT.
//  - get/get_range/exists: 404 is absent; 403 is absent for anonymous
//    stores (S3 answers 403 for missing objects when the caller may not
//    list the bucket) and ZARR_ERR_IO "permission denied" otherwise; a
//    missing bucket is ZARR_ERR_NOT_FOUND.
//  - list_prefix and list_dir page through ListObjectsV2; keys that break
//    libzarr's key rules (store.h) are left out.
//  - erase_prefix lists, then deletes each object (concurrently).
std::shared_ptr<Store> make_s3_store(const S3StoreOptions& options);

}  // namespace zarr
