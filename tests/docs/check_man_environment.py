#!/usr/bin/env python3
"""zarrtool's manual lists every environment variable libzarr reads.

The variables are the string literals AWS_* and ZARR_* of src/ (status names
ZARR_OK and ZARR_ERR_* aside) and the names passed to getenv; each must appear
in the ENVIRONMENT section of docs/zarrtool.1. Each missing one is printed.
"""
import argparse
import pathlib
import re
import sys


def variables_read(src: pathlib.Path):
    names = set()
    for path in src.rglob("*.[ch]*"):
        text = path.read_text(encoding="utf-8", errors="replace")
        names.update(re.findall(r'"((?:AWS|ZARR)_[A-Z0-9_]+)"', text))
        names.update(re.findall(r'getenv(?:_nonempty)?\("([A-Za-z_][A-Za-z0-9_]*)"\)', text))
    return {n for n in names if n != "ZARR_OK" and not n.startswith("ZARR_ERR_")}


def environment_section(manual: pathlib.Path) -> str:
    text = manual.read_text(encoding="utf-8")
    start = text.index(".SH ENVIRONMENT")
    end = text.find("\n.SH ", start + 1)
    return text[start:end if end != -1 else len(text)].replace("\\-", "-")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True, help="the source tree")
    root = pathlib.Path(parser.parse_args().root)
    section = environment_section(root / "docs" / "zarrtool.1")
    read = sorted(variables_read(root / "src"))
    missing = [n for n in read if not re.search(r"(?<![A-Z0-9_])" + re.escape(n) + r"(?![A-Z0-9_])", section)]
    for name in missing:
        print(f"docs/zarrtool.1: ENVIRONMENT does not list {name}, which libzarr reads")
    print(f"{len(read)} variables read, {len(missing)} missing from the manual")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
