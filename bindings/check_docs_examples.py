#!/usr/bin/env python3
"""Check that the examples of a documentation page are the tested ones.

A fenced code block preceded by the comment `<!-- example: PATH -->` (PATH
relative to the source root) must be taken from that file: every non-blank
line of the block, stripped, appears in the file (where doc-comment prefixes
such as Rust's `//! ` may precede it). So the page cannot drift from the
example that `cargo test`, `go test`, the install test or the Julia tests run.

    check_docs_examples.py SOURCE_ROOT PAGE...
"""
import os
import re
import sys

EXAMPLE = re.compile(r"<!-- example: (\S+) -->\s*\n```\w*\n(.*?)\n```", re.S)
# Lines that only glue an excerpt together (the file may spell them otherwise).
GLUE = {"}", "end", ")"}


def missing_lines(block, source):
    """The block's lines the source does not hold ("! ..." marks a cut)."""
    source_lines = [line.strip() for line in source.splitlines()]
    return [line.strip() for line in block.splitlines()
            if line.strip() and line.strip() not in GLUE
            and not line.strip().startswith("! ...")
            and not any(line.strip() in s for s in source_lines)]


def main(root, pages):
    """One GoogleTest-style line per example; 1 when any drifted or none was found."""
    checked = failed = 0
    for page in pages:
        text = open(page, encoding="utf-8").read()
        for m in EXAMPLE.finditer(text):
            checked += 1
            with open(os.path.join(root, m.group(1)), encoding="utf-8") as f:
                missing = missing_lines(m.group(2), f.read())
            name = f"docs_examples.{os.path.basename(page)}:{m.group(1)}"
            if missing:
                failed += 1
                print(f"[  FAILED  ] {name}: lines not in {m.group(1)}:")
                for line in missing:
                    print(f"    {line}")
            else:
                print(f"[       OK ] {name}")
    print(f"[==========] {checked} tests ran.")
    print(f"[  PASSED  ] {checked - failed} tests.")
    if failed or not checked:
        print(f"[  FAILED  ] {failed} tests.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
