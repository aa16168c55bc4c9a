#!/usr/bin/env python3
"""Checks a batch's gradebook against what scripts/make-class.sh made each student to score.

    scripts/ci/check-class-points.py CLASS_TXT OUT

CLASS_TXT is make-class.sh's output ("student-001  correct, TILE_WIDTH 16, expected 100", ...
"expected compile error"); OUT is the batch's output folder (gradebook.csv). Comparing two batches
with each other (compare-gradebooks.py) cannot see a batch that grades every run wrongly in the
same way; this can: a correct kernel that did not score 100 under load is named with the checks
that lost points. Exit 0 when every student scored as made, 1 with one line per difference.
"""
import csv
import pathlib
import re
import sys

EXPECTED = re.compile(r"^(?P<student>\S+)\s+.*expected (?P<what>\d+|compile error)\s*$")


def expectations(class_txt: pathlib.Path) -> dict:
    found = {}
    for line in class_txt.read_text(encoding="utf-8").splitlines():
        match = EXPECTED.match(line)
        if match:
            found[match["student"]] = match["what"]
    return found


def outcome(row: dict) -> str:
    return "compile error" if row["status"] == "compile error" else row["total"]


def lost_points(row: dict, rows: dict) -> str:
    """The checks at 0 points that some student scored on: a check worth nothing (a share of
    cuBLAS shown for information) is 0 for everyone and says nothing."""
    checks = [c for c in row if c not in ("student", "total", "max", "status", "report")]
    scored = {c for c in checks for other in rows.values() if other[c] not in ("", "0")}
    return ", ".join(c for c in checks if row[c] == "0" and c in scored)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    expected = expectations(pathlib.Path(sys.argv[1]))
    with (pathlib.Path(sys.argv[2]) / "gradebook.csv").open(newline="", encoding="utf-8") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    problems = []
    for student, what in sorted(expected.items()):
        row = rows.get(student)
        if row is None:
            problems.append(f"{student}: expected {what}, missing from the gradebook")
        elif outcome(row) != what:
            zero = lost_points(row, rows)
            problems.append(f"{student}: expected {what}, got {outcome(row)} ({row['status']}"
                            f"{'; no points for ' + zero if zero else ''})")
    for problem in problems:
        print(problem)
    print(f"{len(expected)} students checked against make-class.sh's expectations: "
          f"{len(expected) - len(problems)} as made, {len(problems)} not")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
