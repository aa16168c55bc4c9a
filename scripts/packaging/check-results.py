#!/usr/bin/env python3
"""Checks autograder results files against the platforms' documented formats, and the clean-root
test's results against a labgrade batch of the same class (scripts/packaging/test-in-clean-root.sh).

    check-results.py gradescope RESULTS.json       Gradescope's format [1]
    check-results.py prairielearn RESULTS.json     PrairieLearn's format [2]
    check-results.py compare PLATFORM REPORT BATCH [EXPECTED]
                                                   every REPORT/results/NAME.json well-formed and
                                                   scored as BATCH/students/*/results.json scores
                                                   NAME; times and memory from REPORT/*.time, *.mem;
                                                   with the class's expected.json, no entry's
                                                   must_not_print line in what the grader kept
                                                   (REPORT/students/LABEL/, REPORT/logs/LABEL.log)
                                                   and no file in REPORT/escaped.txt
    check-results.py expected gradescope RESULTS EXPECTED [--gpu]
                                                   every RESULTS/NAME.json well-formed, with the
                                                   status and a score in the range EXPECTED (the
                                                   class's expected.json) gives NAME; checks that
                                                   did not judge (speed under the emulation) widen
                                                   the range by their points, and with --gpu there
                                                   must be none (scripts/packaging/gpu-setup-check.sh)
    check-results.py unzip ZIP FOLDER              extracts keeping the files' modes, as unzip does

[1] https://gradescope-autograders.readthedocs.io/en/latest/specs/ ("Output format", "Controlling
    Test Case Visibility", leaderboards: .../leaderboards/)
[2] https://prairielearn.readthedocs.io/en/latest/externalGrading/ ("Grading results")
Exit status 1 when anything does not conform or match.
"""
import json
import os
import pathlib
import re
import sys
import zipfile

VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}
GS_TOP = {"score", "execution_time", "output", "output_format", "test_output_format",
          "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
          "leaderboard"}
GS_TEST = {"score", "max_score", "status", "name", "name_format", "number", "output",
           "output_format", "tags", "visibility", "extra_data"}
PL_TEST = {"name", "description", "points", "max_points", "message", "output", "images"}
ARCHIVE = re.compile(r"\.(zip|tar|tar\.gz|tgz)$")


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def gradescope_problems(results):
    """What in a Gradescope results.json departs from the documented format."""
    problems = []
    problems += [f"unknown top-level key {key!r}" for key in set(results) - GS_TOP]
    tests = results.get("tests", [])
    if "score" not in results and not (tests and all("score" in t for t in tests)):
        problems.append("no score: neither at the top nor on every test")
    for key in ("score", "execution_time"):
        if key in results and not is_number(results[key]):
            problems.append(f"{key} is not a number")
    for key in ("output_format", "test_output_format", "test_name_format"):
        if key in results and results[key] not in FORMATS:
            problems.append(f"{key} {results[key]!r} is not one of {sorted(FORMATS)}")
    for key in ("visibility", "stdout_visibility"):
        if key in results and results[key] not in VISIBILITIES:
            problems.append(f"{key} {results[key]!r} is not a visibility")
    if not isinstance(results.get("output", ""), str):
        problems.append("output is not a string")
    if not isinstance(results.get("extra_data", {}), dict):
        problems.append("extra_data is not an object")
    if not isinstance(tests, list):
        return problems + ["tests is not a list"]
    for i, test in enumerate(tests):
        problems += [f"tests[{i}]: {p}" for p in gradescope_test_problems(test)]
    for i, entry in enumerate(results.get("leaderboard", [])):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not (
                is_number(entry.get("value")) or isinstance(entry.get("value"), str)):
            problems.append(f"leaderboard[{i}] needs a name and a value")
        elif entry.get("order", "desc") not in ("asc", "desc"):
            problems.append(f"leaderboard[{i}]: order must be asc or desc")
    return problems


def gradescope_test_problems(test):
    if not isinstance(test, dict):
        return ["not an object"]
    problems = [f"unknown key {key!r}" for key in set(test) - GS_TEST]
    for key in ("score", "max_score"):
        if key in test and not is_number(test[key]):
            problems.append(f"{key} is not a number")
    if "status" in test and test["status"] not in ("passed", "failed"):
        problems.append(f"status {test['status']!r} is not passed or failed")
    if "visibility" in test and test["visibility"] not in VISIBILITIES:
        problems.append(f"visibility {test['visibility']!r} is not a visibility")
    for key in ("name", "output"):
        if key in test and not isinstance(test[key], str):
            problems.append(f"{key} is not a string")
    if "number" in test and not isinstance(test["number"], (str, int, float)):
        problems.append("number is not a string or number")
    if "output_format" in test and test["output_format"] not in FORMATS:
        problems.append(f"output_format {test['output_format']!r} unknown")
    tags = test.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        problems.append("tags is not a list of strings")
    return problems


def image_problems(images, where):
    if not isinstance(images, list):
        return [f"{where} is not a list"]
    problems = []
    for i, image in enumerate(images):
        url = image if isinstance(image, str) else image.get("url") if isinstance(image, dict) else None
        if not isinstance(url, str) or not url.startswith("data:image/"):
            problems.append(f"{where}[{i}] has no data:image/ url")
        if isinstance(image, dict) and not isinstance(image.get("label", ""), str):
            problems.append(f"{where}[{i}].label is not a string")
    return problems


def prairielearn_problems(results, size):
    """What in a PrairieLearn results.json departs from the documented format."""
    problems = []
    if size > 1024 * 1024:
        problems.append(f"{size} bytes: over PrairieLearn's 1 MB")
    gradable = results.get("gradable", True)
    if not isinstance(gradable, bool):
        problems.append("gradable is not a boolean")
    if gradable is not False:
        score = results.get("score")
        if not is_number(score) or not 0 <= score <= 1:
            problems.append(f"score {score!r} is not a number in [0, 1]")
    errors = results.get("format_errors", [])
    if not (isinstance(errors, str) or (isinstance(errors, list) and all(isinstance(e, str) for e in errors))):
        problems.append("format_errors is not a string or a list of strings")
    for key in ("message", "output"):
        if key in results and not isinstance(results[key], str):
            problems.append(f"{key} is not a string")
    if "images" in results:
        problems += image_problems(results["images"], "images")
    for i, test in enumerate(results.get("tests", [])):
        if not isinstance(test, dict):
            problems.append(f"tests[{i}] is not an object")
            continue
        problems += [f"tests[{i}]: unknown key {key!r}" for key in set(test) - PL_TEST]
        for key in ("points", "max_points"):
            if key in test and not is_number(test[key]):
                problems.append(f"tests[{i}].{key} is not a number")
        if "images" in test:
            problems += image_problems(test["images"], f"tests[{i}].images")
    return problems


def check_file(platform, path):
    text = pathlib.Path(path).read_bytes()
    results = json.loads(text)
    if not isinstance(results, dict):
        return None, ["not a JSON object"]
    if platform == "gradescope":
        return results, gradescope_problems(results)
    return results, prairielearn_problems(results, len(text))


def batch_scores(batch):
    """Student name -> (status, score, max) from a labgrade batch's Gradescope exports."""
    scores = {}
    for path in pathlib.Path(batch, "students").glob("*/results.json"):
        results = json.loads(path.read_text())
        extra = results["extra_data"]
        scores[extra["student"]] = (extra["status"], results["score"], extra["max_score"])
    return scores


def measurement(report, label):
    elapsed, rss = "?", "?"
    time_file = pathlib.Path(report, label + ".time")
    if time_file.exists():
        for line in time_file.read_text().splitlines():
            if "Elapsed (wall clock)" in line:
                elapsed = line.split(": ", 1)[1].strip()
            if "Maximum resident set size" in line:
                rss = f"{int(line.split(': ', 1)[1]) / 1024:.0f} MB"
    peak = "?"
    mem_file = pathlib.Path(report, label + ".mem")
    if mem_file.exists():
        fields = mem_file.read_text().split()
        peak = f"{int(fields[1]) / 2**20:.0f} MB" + (" OOM" if fields[3] != "0" else "")
    return elapsed, rss, peak


def label_of(name):
    """The test script's label for a name: every byte but A-Z a-z 0-9 . _ - becomes _ (tr -c)."""
    allowed = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
    return "".join(chr(b) if b in allowed else "_" for b in name.encode())


def platform_score(platform, results, total):
    """(status word, score in points) as the platform would record it."""
    if platform == "gradescope":
        return results["extra_data"]["status"], results["score"]
    if results.get("gradable") is False:
        return "not gradable", None
    return "graded", round(results["score"] * total, 6)


def mischief(report, label, name, expected):
    """The entry's must_not_print line, where the grader's files or log of it show it."""
    secret = expected.get(name, {}).get("must_not_print")
    if not secret:
        return None
    texts = [pathlib.Path(report, "logs", label + ".log")]
    texts += pathlib.Path(report, "students", label).rglob("*")
    for path in texts:
        if path.is_file() and secret in path.read_text(errors="replace"):
            return f"MISCHIEF: {secret!r} in {path.name}"
    return None


def compare(platform, report, batch, expected_file=None):
    expected_entries = {}
    if expected_file:
        expected_entries = json.loads(pathlib.Path(expected_file).read_text())["submissions"]
    scores = batch_scores(batch)
    failures = 0
    rows = []
    for path in sorted(pathlib.Path(report, "results").glob("*.json")):
        name = path.stem
        student = ARCHIVE.sub("", name)
        results, problems = check_file(platform, path)
        expected = scores.get(student)
        label = "submission-" + label_of(name)
        elapsed, rss, peak = measurement(report, label)
        verdict = "ok"
        if problems:
            verdict = "FORMAT: " + "; ".join(problems[:3])
        elif expected is None:
            verdict = "NOT IN BATCH"
        else:
            status, score = platform_score(platform, results, expected[2])
            batch_graded = expected[0] in ("graded", "results rejected")
            if platform == "prairielearn" and (score is None) == batch_graded:
                verdict = f"MISMATCH: {status} here, {expected[0]} in the batch"
            elif score is not None and abs(score - expected[1]) > 1e-6:
                verdict = f"MISMATCH: {score} here, {expected[1]} in the batch"
        if verdict == "ok":
            verdict = mischief(report, label, name, expected_entries) or "ok"
        failures += verdict != "ok"
        shown = expected[1] if expected else "-"
        score = platform_score(platform, results, expected[2] if expected else 100)[1] if results else "-"
        rows.append((name, "not gradable" if score is None else score, shown, elapsed, rss, peak,
                     verdict))
    print(f"{'submission':32} {'score':>12} {'batch':>7} {'time':>8} {'max RSS':>8} {'peak':>9}  check")
    for row in rows:
        print(f"{row[0][:32]:32} {str(row[1]):>12} {str(row[2]):>7} {row[3]:>8} {row[4]:>8} {row[5]:>9}  {row[6]}")
    for label in sorted(p.stem for p in pathlib.Path(report).glob("setup*.time")):
        elapsed, rss, peak = measurement(report, label)
        print(f"{label}: {elapsed}, max RSS {rss}, cgroup peak {peak}")
    escaped = pathlib.Path(report, "escaped.txt")
    if escaped.exists() and escaped.read_text().strip():
        failures += 1
        print("ESCAPED: mallory-write-outside's files outside its scratch folder:")
        print(escaped.read_text())
    print(f"{len(rows)} results, {failures} not ok")
    return 1 if failures or not rows else 0


def against_expected(platform, results_dir, expected_file, gpu=False):
    """Each results file against the class's expected.json (status, points range); prints a
    table and returns 1 when anything differs."""
    expected = json.loads(pathlib.Path(expected_file).read_text())["submissions"]
    failures, rows = 0, []
    for path in sorted(pathlib.Path(results_dir).glob("*.json")):
        name = path.stem
        results, problems = check_file(platform, path)
        entry = expected.get(name)
        verdict, score, status = "ok", "-", "-"
        if problems:
            verdict = "FORMAT: " + "; ".join(problems[:3])
        elif entry is None:
            verdict = "NOT IN expected.json"
        else:
            status, score = platform_score(platform, results, 100)
            tests = results.get("tests", [])
            unjudged = sum(t.get("max_score", 0) for t in tests
                           if "status" not in t and "bonus" not in t.get("tags", []))
            # A check that did not judge earns 0 here, where a GPU gives it 0 to its points.
            total = sum(t.get("max_score", 0) for t in tests if "bonus" not in t.get("tags", []))
            low = max(0, entry["min_points"] - unjudged)
            high = min(entry["max_points"], max(0, total - unjudged))
            if status != entry["status"]:
                verdict = f"MISMATCH: {status}, expected {entry['status']}"
            elif not low - 1e-6 <= score <= high + 1e-6:
                verdict = f"MISMATCH: {score} points, expected {low} to {high}"
            elif gpu and unjudged:
                verdict = f"NOT MEASURED: {unjudged} points of checks that did not judge on a GPU"
        failures += verdict != "ok"
        rows.append((name, score, status, verdict))
    print(f"{'submission':32} {'score':>6} {'status':16} check")
    for name, score, status, verdict in rows:
        print(f"{name[:32]:32} {str(score):>6} {status:16} {verdict}")
    print(f"{len(rows)} results, {failures} not ok")
    return 1 if failures or not rows else 0


def unzip(archive, folder):
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            path = z.extract(info, folder)
            mode = info.external_attr >> 16
            if mode & 0o7777:
                os.chmod(path, mode & 0o7777)
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] in ("gradescope", "prairielearn"):
        _, problems = check_file(argv[1], argv[2])
        for problem in problems:
            print(f"{argv[2]}: {problem}")
        return 1 if problems else 0
    if len(argv) in (5, 6) and argv[1] == "compare":
        return compare(*argv[2:])
    if len(argv) in (5, 6) and argv[1] == "expected" and argv[2] == "gradescope" and (
            len(argv) == 5 or argv[5] == "--gpu"):
        return against_expected(argv[2], argv[3], argv[4], gpu=len(argv) == 6)
    if len(argv) == 4 and argv[1] == "unzip":
        return unzip(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
