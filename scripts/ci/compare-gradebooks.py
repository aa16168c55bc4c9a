#!/usr/bin/env python3
"""Compares two batch outputs of the same class, e.g. a direct `labgrade batch` and a Slurm run.

    scripts/ci/compare-gradebooks.py DIRECT SHARDED [--racy NAME]...

Per student (order-independent): the status, the points of every check and the total (from
gradebook.csv), and every check's verdict and fraction (students/<slug>/results/*.json). For racy
entries (--racy, default carol: a missing __syncthreads() may or may not show in a run) only the
status is compared. Both runs must use the same seed (labgrade batch/shard plan --seed) for the
checks' inputs to be the same. Exit 0 when they agree, 1 with one line per difference.
"""
import argparse
import csv
import json
import pathlib
import sys


def load(out: pathlib.Path) -> dict:
    with (out / "gradebook.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    students = {}
    for row in rows:
        verdicts = {}
        if row.get("report"):
            results = out / pathlib.Path(row["report"]).parent / "results"
            for record in sorted(results.glob("*.json")):
                data = json.loads(record.read_text(errors="replace"))
                verdicts[data.get("check", record.stem)] = (data.get("verdict"), data.get("fraction"))
        students[row["student"]] = {"row": row, "verdicts": verdicts}
    return students


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("direct", type=pathlib.Path)
    parser.add_argument("sharded", type=pathlib.Path)
    parser.add_argument("--racy", action="append", default=None,
                        help="compare only the status of this student (default: carol)")
    args = parser.parse_args()
    racy = set(args.racy if args.racy is not None else ["carol"])
    direct, sharded = load(args.direct), load(args.sharded)
    problems = []
    for name in sorted(set(direct) | set(sharded)):
        if name not in direct or name not in sharded:
            problems.append(f"{name}: only in {'the direct run' if name in direct else 'the sharded run'}")
            continue
        a, b = direct[name], sharded[name]
        columns = [c for c in a["row"] if c not in ("student", "report")]
        if name in racy:
            columns = ["status"]
        for column in columns:
            if a["row"].get(column) != b["row"].get(column):
                problems.append(f"{name}: {column} {a['row'].get(column)!r} != {b['row'].get(column)!r}")
        if name not in racy and a["verdicts"] != b["verdicts"]:
            for check in sorted(set(a["verdicts"]) | set(b["verdicts"])):
                if a["verdicts"].get(check) != b["verdicts"].get(check):
                    problems.append(f"{name}: {check} verdict {a['verdicts'].get(check)} != "
                                    f"{b['verdicts'].get(check)}")
    print(f"{'student':<28} {'status':<16} {'total':>6}  verdicts (direct run)")
    for name in sorted(direct):
        row, verdicts = direct[name]["row"], direct[name]["verdicts"]
        summary = ", ".join(sorted({v for v, _ in verdicts.values()})) or "-"
        print(f"{name:<28} {row['status']:<16} {row['total']:>6}  {summary}")
    for problem in problems:
        print(problem)
    print(f"{len(direct)} students compared (statuses, points per check, verdicts"
          f"{'; status only for ' + ', '.join(sorted(racy & set(direct))) if racy & set(direct) else ''}):"
          f" {len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
