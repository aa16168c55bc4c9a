#!/usr/bin/env python3
"""Test of compare-gradebooks.py: two made-up batch outputs, the same and then differing in a
status, a check's points, a verdict and a missing student; the racy entry may differ in points."""
import json
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
HEADER = "student,T.Correctness,T.Speed,total,max,status,report\r\n"


def make(out: pathlib.Path, rows: list, verdicts: dict) -> None:
    out.mkdir(parents=True)
    (out / "gradebook.csv").write_text(HEADER + "".join(r + "\r\n" for r in rows), encoding="utf-8")
    for slug, checks in verdicts.items():
        results = out / "students" / slug / "results"
        results.mkdir(parents=True)
        for check, verdict in checks.items():
            (results / f"{check}.json").write_text(json.dumps(
                {"check": check, "verdict": verdict, "fraction": 1 if verdict == "pass" else 0}))


def compare(a: pathlib.Path, b: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(HERE / "compare-gradebooks.py"), str(a), str(b)],
                          capture_output=True, text=True)


def main() -> int:
    rows = ["alice,10,5,15,15,graded,students/alice/report.html",
            "carol,10,5,15,15,graded,students/carol/report.html",
            "frank,,,0,15,compile error,students/frank/report.html"]
    verdicts = {"alice": {"T.Correctness": "pass", "T.Speed": "pass"},
                "carol": {"T.Correctness": "pass", "T.Speed": "pass"}}
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        make(tmp / "direct", rows, verdicts)
        make(tmp / "same", list(reversed(rows)), verdicts)  # order does not matter
        racy = [rows[0], "carol,4,0,4,15,graded,students/carol/report.html", rows[2]]
        make(tmp / "racy", racy, {**verdicts, "carol": {"T.Correctness": "fail", "T.Speed": "fail"}})
        make(tmp / "status", rows[:2] + ["frank,,,0,15,graded,students/frank/report.html"], verdicts)
        make(tmp / "points", ["alice,10,0,10,15,graded,students/alice/report.html"] + rows[1:],
             verdicts)
        make(tmp / "verdict", rows, {**verdicts, "alice": {"T.Correctness": "pass",
                                                          "T.Speed": "inconclusive"}})
        make(tmp / "missing", rows[:2], verdicts)
        for name, want in [("same", 0), ("racy", 0), ("status", 1), ("points", 1),
                           ("verdict", 1), ("missing", 1)]:
            result = compare(tmp / "direct", tmp / name)
            if result.returncode != want:
                failures.append(f"{name}: exit {result.returncode}, expected {want}\n{result.stdout}")
            else:
                print(f"ok: {name} -> {want}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
