#!/usr/bin/python3
"""The boto3 side of libzarr's S3 interop test (tests/interop/test_s3_boto3.cpp).

Run by test_interop with /usr/bin/python3 (Debian's python3-boto3 and
python3-zarr) against the s3rver the test started on 127.0.0.1:

  s3_boto3_peer.py ENDPOINT download BUCKET PREFIX DEST_DIR
      Page through every object under PREFIX (list_objects_v2, pages of 7)
      and save each as DEST_DIR/<key without PREFIX>. Prints the keys saved,
      one per line.

  s3_boto3_peer.py ENDPOINT upload SRC_DIR BUCKET PREFIX
      put_object every file below SRC_DIR as PREFIX<path relative to SRC_DIR>.

  s3_boto3_peer.py ENDPOINT zarr-write-v2 BUCKET PREFIX
      Write a v2 int32 array of shape (40, 30), chunks (16, 14), fill value 7,
      zlib level 1, values 1000 + arange(1200), with zarr-python into a
      temporary folder, and upload it under PREFIX.

  s3_boto3_peer.py ENDPOINT zarr-read DIR
      Open the v2 array in DIR with zarr-python and print its values, as C
      order JSON list.

Credentials are s3rver's fixed key pair (S3RVER / S3RVER).
"""
import json
import os
import sys
import tempfile

import boto3
import numpy as np
import zarr


def client(endpoint):
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="S3RVER",
        aws_secret_access_key="S3RVER",
        region_name="us-east-1",
    )


def download(s3, bucket, prefix, dest):
    paginator = s3.get_paginator("list_objects_v2")
    for page in paginator.paginate(Bucket=bucket, Prefix=prefix, PaginationConfig={"PageSize": 7}):
        for entry in page.get("Contents", []):
            key = entry["Key"]
            path = os.path.join(dest, key[len(prefix):])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
            print(key[len(prefix):])


def upload(s3, src, bucket, prefix):
    for root, _, files in os.walk(src):
        for name in files:
            path = os.path.join(root, name)
            key = prefix + os.path.relpath(path, src).replace(os.sep, "/")
            with open(path, "rb") as f:
                s3.put_object(Bucket=bucket, Key=key, Body=f.read())


def zarr_write_v2(s3, bucket, prefix):
    with tempfile.TemporaryDirectory() as tmp:
        a = zarr.open_array(
            os.path.join(tmp, "a"), mode="w", shape=(40, 30), chunks=(16, 14), dtype="<i4",
            fill_value=7, compressor=zarr.Zlib(level=1))
        a[:] = (1000 + np.arange(1200, dtype="<i4")).reshape(40, 30)
        upload(s3, os.path.join(tmp, "a"), bucket, prefix)


def zarr_read(path):
    a = zarr.open_array(path, mode="r")
    print(json.dumps([int(v) for v in np.asarray(a[:]).ravel()]))


def main(argv):
    endpoint, command, args = argv[1], argv[2], argv[3:]
    if command == "zarr-read":
        zarr_read(*args)
        return
    s3 = client(endpoint)
    {"download": download, "upload": upload, "zarr-write-v2": zarr_write_v2}[command](s3, *args)


if __name__ == "__main__":
    main(sys.argv)
