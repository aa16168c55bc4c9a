#!/usr/bin/env python3
"""Test of check-class-points.py: a gradebook as make-class.sh expects passes; one where a
correct kernel lost its speed points, one where a compile error graded, and one with a student
missing each fail with that student named."""
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CLASS = ("student-001  correct, TILE_WIDTH 16, expected 100\n"
         "student-002  wrong (first tile only, like ivan), expected 5\n"
         "student-003  does not compile (like frank), expected compile error\n"
         "student-004  correct, TILE_WIDTH 32, expected 100\n"
         "made 4 submissions in /tmp/x: 2 correct, 1 wrong, 0 slow, 1 not compiling\n")
HEADER = "student,T.Correctness,T.Speed,T.Share,total,max,status,report\r\n"
GOOD = ["student-001,85,15,0,100,100,graded,students/student-001/report.html",
        "student-002,5,0,0,5,100,graded,students/student-002/report.html",
        "student-003,,,,0,100,compile error,students/student-003/report.html",
        "student-004,85,15,0,100,100,graded,students/student-004/report.html"]


def check(tmp: pathlib.Path, rows: list) -> subprocess.CompletedProcess:
    (tmp / "class.txt").write_text(CLASS, encoding="utf-8")
    out = tmp / "out"
    out.mkdir(exist_ok=True)
    (out / "gradebook.csv").write_text(HEADER + "".join(r + "\r\n" for r in rows), encoding="utf-8")
    return subprocess.run([sys.executable, str(HERE / "check-class-points.py"),
                           str(tmp / "class.txt"), str(out)], capture_output=True, text=True)


def main() -> int:
    failures = []
    slow = "student-001,85,0,0,85,100,graded,students/student-001/report.html"
    graded = "student-003,0,0,0,0,100,graded,students/student-003/report.html"
    cases = [("as made", GOOD, 0, "4 as made, 0 not"),
             ("speed lost", [slow] + GOOD[1:], 1,
              "student-001: expected 100, got 85 (graded; no points for T.Speed)"),
             ("compile error graded", GOOD[:2] + [graded] + GOOD[3:], 1,
              "student-003: expected compile error, got 0"),
             ("missing", GOOD[:2] + GOOD[3:], 1, "student-003: expected compile error, missing")]
    with tempfile.TemporaryDirectory() as tmp:
        for name, rows, status, words in cases:
            result = check(pathlib.Path(tmp), rows)
            if result.returncode != status or words not in result.stdout:
                failures.append(f"{name}: exit {result.returncode} (want {status}), "
                                f"output lacks {words!r}:\n{result.stdout}{result.stderr}")
    for failure in failures:
        print(failure)
    print(f"{len(cases) - len(failures)} of {len(cases)} cases as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
