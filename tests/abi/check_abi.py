"""ABI guard for libzarr's C API.

With opaque handles, the ABI is: the exported symbols, the prototype of each
function in zarr.h and zarr_plugin.h, and the values of the ZARR_* constants. This script
extracts all three (prototypes from the preprocessed header, symbols from the
built library) and compares them with the baseline tests/abi/zarr_abi.txt:

  - a removed or changed function or constant is an incompatible change: fail;
  - an added one is reported, and the baseline should be regenerated with
    --update in the same commit.

usage: check_abi.py LIBRARY HEADER_DIR [HEADER_DIR...] [--update]
"""
import os
import re
import subprocess
import sys

BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zarr_abi.txt")


def prototypes(include_dirs):
    flags = [f"-I{d}" for d in include_dirs]
    pre = subprocess.run(["cc", "-E", "-P", "-dD", *flags, "-x", "c", "-"], input="#include <zarr/zarr.h>\n#include <zarr/zarr_plugin.h>\n",
                         capture_output=True, text=True, check=True).stdout
    entries = {}
    for m in re.finditer(r"#define (ZARR_(?:OK|ERR_\w+|NODE_\w+)) \(?(-?\d+)\)?", pre):
        entries["const " + m.group(1)] = m.group(2)
    text = " ".join(line for line in pre.splitlines() if not line.startswith("#"))
    for decl in text.split(";"):
        decl = " ".join(decl.split())
        m = re.search(r"__attribute__\(\(visibility\(\"default\"\)\)\) (.*?\b(zarr_\w+)\s*\(.*\))$", decl)
        if m:
            entries["func " + m.group(2)] = signature(m.group(1))
    return entries


def signature(decl):
    """Normalise a prototype and drop parameter names, which are not ABI."""
    decl = re.sub(r"\s*([(),*])\s*", r"\1", decl)
    head, _, params = decl.partition("(")
    params = params[:-1].split(",")
    params = [re.sub(r"(?<=[\s*])\w+$", "", p).strip() if re.search(r"[\s*]\w+$", p) else p for p in params]
    return head + "(" + ",".join(params) + ")"


def exported_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True, check=True).stdout
    return {line.split()[2].split("@")[0] for line in out.splitlines() if line.split()[1] == "T"}


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    library, include_dirs = args[0], args[1:]
    current = prototypes(include_dirs)
    symbols = exported_symbols(library)
    declared = {k.split()[1] for k in current if k.startswith("func ")}
    problems = [f"declared but not exported: {name}" for name in sorted(declared - symbols)]
    problems += [f"exported but not declared in zarr.h or zarr_plugin.h: {name}" for name in sorted(symbols - declared)]

    if "--update" in sys.argv:
        with open(BASELINE, "w") as f:
            for key in sorted(current):
                f.write(f"{key} = {current[key]}\n")
        print(f"baseline written: {len(current)} entries")
        return 0

    baseline = {}
    with open(BASELINE) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition(" = ")
            baseline[key] = value
    for key in sorted(baseline):
        if key not in current:
            problems.append(f"incompatible: {key} was removed")
        elif current[key] != baseline[key]:
            problems.append(f"incompatible: {key} changed from '{baseline[key]}' to '{current[key]}'")
    added = sorted(set(current) - set(baseline))
    for key in added:
        print(f"addition: {key} = {current[key]} (regenerate the baseline with --update)")
    checked = len(baseline)
    for p in problems:
        print(f"[  FAILED  ] abi: {p}")
    print(f"[==========] {checked} baseline entries checked, {len(added)} additions.")
    if problems:
        print(f"[  FAILED  ] {len(problems)} tests.")
        return 1
    print(f"[  PASSED  ] {checked} tests.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
