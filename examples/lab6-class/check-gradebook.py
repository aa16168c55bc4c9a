#!/usr/bin/env python3
"""Compares a batch-graded sample class with expected.json.

    examples/lab6-class/check-gradebook.py OUT [--expected expected.json] [--search-root /]

OUT is the folder `labgrade batch lab6 examples/lab6-class/submissions OUT` wrote. Checked:
every entry has a gradebook row with the expected status; its points lie in the expected range
(on a GPU); under the CPU emulation (its speed checks say "not measured") the speed checks earn 0
and the rest lies in the range less the speed points, since nothing else may differ; without a GPU
or the emulation every check is skipped and earns 0, which is checked instead; no hostile entry's
"succeeded" line appears anywhere in its outputs; no file a hostile entry tried to create exists;
no check of an entry whose kernels declare no shared memory names a race (issue 30: a race needs
threads that share memory).
Exit 0 when all hold, 1 with one line per difference.
"""
import argparse
import csv
import json
import os
import pathlib
import re
import sys


def gradebook_name(entry: str) -> str:
    """The student name the gradebook shows for a submissions/ entry (archives lose the suffix)."""
    for suffix in (".tar.gz", ".tgz", ".zip", ".tar"):
        if entry.endswith(suffix):
            return entry[: -len(suffix)]
    return entry


def verdicts(student_dir: pathlib.Path) -> set:
    """The verdicts of the student's check records."""
    found = set()
    for record in (student_dir / "results").rglob("*.json"):
        try:
            found.add(json.loads(record.read_text(errors="replace")).get("verdict"))
        except json.JSONDecodeError:
            found.add("unreadable")
    return found


def text_of(student_dir: pathlib.Path) -> str:
    parts = []
    for path in student_dir.rglob("*"):
        if path.is_file():
            parts.append(path.read_text(errors="replace"))
    return "\n".join(parts)


def escaped_files(root: pathlib.Path, name: str):
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: None):
        dirnames[:] = [d for d in dirnames if not os.path.ismount(os.path.join(dirpath, d))
                       and d not in ("proc", "sys")]
        for filename in filenames:
            if filename.startswith(name):
                yield os.path.join(dirpath, filename)


def without_comments(text: str) -> str:
    """The code without // and /* */ comments (a comment that names __shared__ declares nothing)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def declares_shared(entry_dir: pathlib.Path) -> bool:
    return any("__shared__" in without_comments(f.read_text(errors="replace"))
               for f in entry_dir.rglob("*.cu"))


def race_diagnoses(student_dir: pathlib.Path) -> list:
    """The checks whose diagnosis (first or "also") is a race."""
    found = []
    for record in (student_dir / "results").rglob("*.json"):
        try:
            diagnosis = json.loads(record.read_text(errors="replace")).get("diagnosis") or {}
        except json.JSONDecodeError:
            continue
        if "race" in [diagnosis.get("id")] + list(diagnosis.get("also") or []):
            found.append(record.stem)
    return found


def main() -> int:
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--expected", type=pathlib.Path, default=here / "expected.json")
    parser.add_argument("--search-root", type=pathlib.Path, default=pathlib.Path("/"),
                        help="where to look for files the hostile entries tried to create")
    parser.add_argument("--submissions", type=pathlib.Path, default=here / "submissions")
    args = parser.parse_args()

    expected = json.loads(args.expected.read_text())["submissions"]
    csv_path = args.out / "gradebook.csv"
    if not csv_path.exists():
        print(f"{csv_path}: missing (did the batch finish?)")
        return 1
    with csv_path.open(newline="", encoding="utf-8") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}

    def student_dir_of(row):
        return args.out / pathlib.Path(row["report"]).parent if row.get("report") else None

    # Without a GPU nothing can pass: then every graded entry must have 0 points instead. Under
    # the emulation the speed checks are not measured: they earn 0 and nothing else may differ.
    seen = [verdicts(d) for d in map(student_dir_of, rows.values()) if d]
    on_gpu = any("pass" in v for v in seen)
    emulated = any("not_measured" in v for v in seen)
    spec_file = here.parent.parent / "labs" / "lab6-tiled-matmul" / "spec.json"
    speed_checks = {c["id"]: c.get("points", 0) for c in json.loads(spec_file.read_text())["checks"]
                    if c.get("kind") == "speed" and not c.get("bonus")}
    speed_points = sum(speed_checks.values())
    problems = []
    for entry, want in expected.items():
        name = gradebook_name(entry)
        row = rows.get(name)
        if row is None:
            problems.append(f"{entry}: no gradebook row (looked for {name!r})")
            continue
        if row["status"] != want["status"]:
            problems.append(f"{entry}: status {row['status']!r}, expected {want['status']!r}")
        points = float(row["total"] or 0)
        student_dir = student_dir_of(row)
        low, high = want.get("min_points", 0), want.get("max_points", 0)
        if on_gpu and emulated:
            # The gradebook says "not measured" in a speed column under the emulation.
            earned = [c for c in speed_checks
                      if row.get(c) not in (None, "", "not measured") and float(row[c]) != 0]
            if earned:
                problems.append(f"{entry}: speed points under the emulation ({', '.join(earned)})")
            if not max(0, low - speed_points) <= points <= high:
                problems.append(f"{entry}: {points:g} points, expected {max(0, low - speed_points)}"
                                f" to {high} under the emulation ({low} to {high} on a GPU)")
        elif on_gpu and not low <= points <= high:
            problems.append(f"{entry}: {points:g} points, expected {low} to {high}")
        if not on_gpu and points != 0:
            problems.append(f"{entry}: {points:g} points although no check could pass (no GPU)")
        entry_dir = args.submissions / entry
        if student_dir is not None and entry_dir.is_dir() and not declares_shared(entry_dir):
            for check in race_diagnoses(student_dir):
                problems.append(f"{entry}: {check} names a race, but its kernels share no memory")
        secret = want.get("must_not_print")
        if secret and student_dir is not None and student_dir.exists():
            if secret in text_of(student_dir):
                problems.append(f"{entry}: its output says {secret!r}: the mischief worked")
    for path in escaped_files(args.search_root, "ESCAPED-mallory"):
        problems.append(f"mallory-write-outside: created {path}")

    for problem in problems:
        print(problem)
    if on_gpu and emulated:
        verdict = (f"points compared (checks ran under the CPU emulation: speed not measured, "
                   f"ranges less its {speed_points:g} points)")
    elif on_gpu:
        verdict = "points compared (checks ran on a GPU)"
    else:
        verdict = "no GPU: points not compared with the ranges, all checked to be 0"
    print(f"{len(expected)} entries, {len(problems)} difference(s); {verdict}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
