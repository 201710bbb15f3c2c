"""Sum GoogleTest case counts over every test executable meson ran (a test
that is not a GoogleTest program counts as one case).

Reads meson's testlog.json files (one JSON object per line; one file per
build: the normal one, then the sanitizer build), prints one line per file,
then "N passed, N failed, N skipped" over all of them alone on the last line.
Exits 1 when a test executable failed without GoogleTest reporting a failed
case (a crash).
"""
import json
import re
import sys


def count(path):
    passed = failed = skipped = 0
    crashed = []
    with open(path) as log:
        for line in log:
            entry = json.loads(line)
            out = entry.get("stdout", "") or ""
            p = re.search(r"\[  PASSED  \] (\d+) test", out)
            f = re.search(r"\[  FAILED  \] (\d+) test", out)
            s = re.search(r"\[  SKIPPED \] (\d+) test", out)
            passed += int(p.group(1)) if p else 0
            failed += int(f.group(1)) if f else 0
            skipped += int(s.group(1)) if s else 0
            if entry.get("result") not in ("OK", "SKIP") and not f:
                crashed.append(entry.get("name"))
                failed += 1
            elif not (p or f or s):
                # A test that is not a GoogleTest program (a fuzz target
                # replaying its regressions, a script): one case.
                if entry.get("result") == "OK":
                    passed += 1
                else:
                    skipped += 1
    return passed, failed, skipped, crashed


totals = [0, 0, 0]
any_crash = False
for path in sys.argv[1:]:
    passed, failed, skipped, crashed = count(path)
    for name in crashed:
        print(f"{path}: test executable {name} failed without a GoogleTest summary (crash or timeout)")
    if len(sys.argv) > 2:
        print(f"{path}: {passed} passed, {failed} failed, {skipped} skipped")
    totals = [totals[0] + passed, totals[1] + failed, totals[2] + skipped]
    any_crash = any_crash or bool(crashed)
print(f"{totals[0]} passed, {totals[1]} failed, {totals[2]} skipped")
sys.exit(1 if any_crash else 0)
