"""Seed corpora for the libFuzzer targets (tests/fuzz), made from peer data.

Usage: fuzz_seeds.py PEER_DATA OUT_DIR
Writes OUT_DIR/<target>/<n> files: metadata documents, numcodecs fixture
configurations with their encoded files, zip archives and chunk files, in
each target's input format (see the comment at the top of each target).
"""
import json
import os
import sys

MAX_SEED = 256 * 1024  # bigger files slow the fuzzer more than they teach it


def files_under(root):
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(folder, name)
            if os.path.getsize(path) <= MAX_SEED:
                yield path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def v2_compressor(folder):
    """The compressor of the v2 array in folder (None when it has none or is no v2 array)."""
    try:
        with open(os.path.join(folder, ".zarray")) as f:
            return json.load(f).get("compressor")
    except (OSError, ValueError, AttributeError):
        return None


def main(peer, out):
    seeds = {t: [] for t in ("fuzz_v2_metadata", "fuzz_v3_metadata", "fuzz_codec_decode",
                             "fuzz_shard", "fuzz_zip_open", "fuzz_region_read", "fuzz_blosc_blocks")}
    compressors_seen = {}  # codec_decode seeds per v2 compressor configuration, at most 4 each
    for path in files_under(peer):
        name = os.path.basename(path)
        if name in (".zarray", ".zattrs", ".zgroup", ".zmetadata"):
            seeds["fuzz_v2_metadata"].append(read(path))
        elif name == "zarr.json":
            seeds["fuzz_v3_metadata"].append(read(path))
        elif name.endswith(".zip"):
            seeds["fuzz_zip_open"].append(read(path))
        elif name.startswith("encoded.") and name.endswith(".dat"):
            config = json.load(open(os.path.join(os.path.dirname(path), "config.json")))
            seeds["fuzz_codec_decode"].append(json.dumps(config).encode() + b"\n" + read(path))
            data = read(path)
            if config.get("id") == "blosc" and len(data) >= 16:  # its typesize (header byte 3), then the buffer
                seeds["fuzz_blosc_blocks"].append(bytes([max(data[3], 1) - 1]) + data)
        elif "/c/" in path and len(seeds["fuzz_shard"]) < 64:
            # v3 chunk and shard files; the first byte picks the target's layout.
            data = read(path)
            seeds["fuzz_shard"] += [b"\x00" + data, b"\x01" + data]
        elif name.replace(".", "").isdigit():
            data = read(path)  # v2 chunk files ("0.0"); one seed per array kind
            if len(seeds["fuzz_region_read"]) < 100:
                seeds["fuzz_region_read"] += [bytes([k]) + data for k in range(5)]
            # The array's own compressor over its chunk (zfpy, lzma, ... as peers wrote them).
            compressor = v2_compressor(os.path.dirname(path))
            if compressor and compressors_seen.setdefault(json.dumps(compressor), 0) < 4:
                compressors_seen[json.dumps(compressor)] += 1
                seeds["fuzz_codec_decode"].append(json.dumps(compressor).encode() + b"\n" + data)
    for target, items in seeds.items():
        folder = os.path.join(out, target)
        os.makedirs(folder, exist_ok=True)
        for i, data in enumerate(items):
            with open(os.path.join(folder, "%04d" % i), "wb") as f:
                f.write(data)
        print("%s: %d seeds" % (target, len(items)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
