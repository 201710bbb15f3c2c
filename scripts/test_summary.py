"""Sum GoogleTest case counts over every test executable meson ran.

Reads meson's testlog.json (one JSON object per line) and prints
"N passed, N failed, N skipped" alone on the last line. Exits 1 when a
test executable failed without GoogleTest reporting a failed case (a crash).
"""
import json
import re
import sys

passed = failed = skipped = 0
crashed = []
with open(sys.argv[1]) as log:
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
for name in crashed:
    print(f"test executable {name} failed without a GoogleTest summary (crash or timeout)")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if crashed else 0)
