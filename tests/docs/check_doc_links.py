#!/usr/bin/env python3
"""A newcomer finds every page from the README, and no link leads nowhere.

Fails when a Markdown page of docs/ is linked from
no line of README.md, or when a relative link of README.md or of a docs page
names a file that is not there. Each problem is printed with the file and the
link at fault.
"""
import argparse
import pathlib
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")


def relative_targets(page: pathlib.Path):
    """The relative links of a Markdown page, without their #anchor."""
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL (https:, mailto:) or an anchor on the same page
        yield target.split("#", 1)[0]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True, help="the source tree")
    root = pathlib.Path(parser.parse_args().root)
    readme = root / "README.md"
    problems = []
    linked = {(root / t).resolve() for t in relative_targets(readme)}
    pages = sorted((root / "docs").glob("*.md"))
    for page in pages:
        if page.resolve() not in linked:
            problems.append(f"README.md: no link to {page.relative_to(root)}")
    for page in [readme] + sorted((root / "docs").glob("*.md")):
        for target in relative_targets(page):
            if target and not (page.parent / target).exists():
                problems.append(f"{page.relative_to(root)}: link to {target}, which does not exist")
    for problem in problems:
        print(problem)
    print(f"{len(pages)} pages, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
