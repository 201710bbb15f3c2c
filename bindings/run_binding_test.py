#!/usr/bin/env python3
"""Run one binding's own test tool (cargo test, go test, julia) for Meson.

    run_binding_test.py --needs PROGRAM --format cargo|go|julia [--cwd DIR] -- COMMAND...
    run_binding_test.py --skip MESSAGE

Skips (exit 77, Meson's SKIP) with a message when PROGRAM is not on PATH, or
always with --skip. Otherwise runs COMMAND, passes its output through, and
ends with the GoogleTest-style summary lines scripts/test_summary.py counts,
taken from the tool's own report. A run that reports no test at all fails:
a test that checks nothing must not pass.
"""
import argparse
import re
import shutil
import subprocess
import sys

SKIP = 77


def count_cargo(output):
    """Sum of cargo's "test result: ok. 3 passed; 0 failed; 1 ignored; ..." lines."""
    passed = failed = skipped = 0
    for m in re.finditer(r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", output):
        passed, failed, skipped = passed + int(m[1]), failed + int(m[2]), skipped + int(m[3])
    return passed, failed, skipped


def count_go(output):
    """go test -v: one "--- PASS/FAIL/SKIP: Name" line per test, subtests included."""
    results = re.findall(r"^\s*--- (PASS|FAIL|SKIP): ", output, re.M)
    return results.count("PASS"), results.count("FAIL"), results.count("SKIP")


def count_julia(output):
    """The first row under Test's "Test Summary: | Pass  Fail  Error  Broken  Total" header."""
    lines = output.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.startswith("Test Summary:"):
            columns = [c.strip() for c in line.split("|", 1)[1].split()]
            values = lines[i + 1].split("|", 1)[1].split()
            row = dict(zip(columns, (int(v) for v in values if v.isdigit())))
            return row.get("Pass", 0), row.get("Fail", 0) + row.get("Error", 0), row.get("Broken", 0)
    return 0, 0, 0


COUNTERS = {"cargo": count_cargo, "go": count_go, "julia": count_julia}


def summary(passed, failed, skipped):
    lines = [f"[==========] {passed + failed + skipped} tests ran.", f"[  PASSED  ] {passed} tests."]
    if skipped:
        lines.append(f"[  SKIPPED ] {skipped} tests.")
    if failed:
        lines.append(f"[  FAILED  ] {failed} tests.")
    return "\n".join(lines)


def skip(message):
    print(f"skipped: {message}")
    print(summary(0, 0, 1))
    return SKIP


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--needs", action="append", default=[], metavar="PROGRAM")
    parser.add_argument("--format", choices=sorted(COUNTERS))
    parser.add_argument("--cwd")
    parser.add_argument("--skip", metavar="MESSAGE")
    parser.add_argument("command", nargs="*")
    args = parser.parse_args(argv)
    if args.skip:
        return skip(args.skip)
    for program in args.needs:
        if shutil.which(program) is None:
            return skip(f"{program} not installed")

    run = subprocess.run(args.command, cwd=args.cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(run.stdout, end="")
    passed, failed, skipped = COUNTERS[args.format](run.stdout)
    if run.returncode != 0 and failed == 0:
        failed = 1  # a build error or crash before any test reported
    if passed + failed == 0:
        print("no test ran")
        failed = 1
    print(summary(passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
