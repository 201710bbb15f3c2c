"""Cross-check libzarr's compressors and filters against numcodecs (run by test_codecs).

For every case.N.json in the folder given ({"config": {...}, "dtype": "<u4"},
optionally "lossy": true) with case.N.data (the input) and case.N.ours
(libzarr's encoding): decode ours with numcodecs and compare with the input
(not for lossy filters), then encode the input with numcodecs into
case.N.theirs for libzarr to decode. numcodecs' decodings of theirs and ours
go to case.N.theirs_dec and case.N.ours_dec, for libzarr to compare its own
with. One line per case goes to results.txt: "N ok", "N skip <why>" or
"N fail <why>".
"""
import glob
import json
import os
import sys
import warnings

import numcodecs
import numpy as np
from numcodecs.compat import ensure_bytes


def check(folder, n):
    with open(os.path.join(folder, f"case.{n}.json")) as f:
        case = json.load(f)
    with open(os.path.join(folder, f"case.{n}.data"), "rb") as f:
        data = f.read()
    with open(os.path.join(folder, f"case.{n}.ours"), "rb") as f:
        ours = f.read()
    try:
        codec = numcodecs.get_codec(dict(case["config"]))
    except (TypeError, ValueError) as e:  # e.g. a key this numcodecs lacks
        return f"skip numcodecs {numcodecs.__version__} refuses the config: {e}"
    decoded = ensure_bytes(codec.decode(ours))
    if decoded != data and not case.get("lossy", False):
        return f"fail numcodecs decoded {len(decoded)} bytes that differ from the input"
    # a writable copy: bitround rounds in place
    theirs = ensure_bytes(codec.encode(np.frombuffer(data, dtype=case["dtype"]).copy()))
    theirs_dec = ensure_bytes(codec.decode(theirs))
    for suffix, content in (("theirs", theirs), ("theirs_dec", theirs_dec), ("ours_dec", decoded)):
        with open(os.path.join(folder, f"case.{n}.{suffix}"), "wb") as f:
            f.write(content)
    return "ok"


def main(folder):
    # Filters cast out-of-range values on purpose; numpy's warnings are noise.
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    lines = []
    for path in sorted(glob.glob(os.path.join(folder, "case.*.json"))):
        n = path.split(".")[-2]
        try:
            lines.append(f"{n} {check(folder, n)}")
        except Exception as e:  # report, let the C++ side fail the case
            lines.append(f"{n} fail {type(e).__name__}: {e}")
    with open(os.path.join(folder, "results.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
