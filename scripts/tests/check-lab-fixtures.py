#!/usr/bin/env python3
"""The order of a lab's ctest tests (cmake/AddLab.cmake), read from ctest's own listing:
labN.setup -> labN.run -> labN.sanitizer (GPU builds) -> the checks' tests -> labN.report.

compute-sanitizer's pass (labN.sanitizer, `labcheck sanitize`) can fail a check in the run's
records, so every check's test must require its fixture (labN_sanitized), or it could print the
run's verdict before the pass changed it. Under the CPU emulation there is no such test.
Every sanitizer test runs through labcheck (cmake/run_check.sh sanitize), never a script's verdict,
and so does every self-test of the checks (labN.must_fail.*, labN.must_pass.*, labN.isolation.*:
run_check.sh expect, or sanitize for the sanitizer's must-fail tests).

  check-lab-fixtures.py --ctest CTEST --build BUILD_DIR --backend cuda|emulation
  check-lab-fixtures.py --self-test   (a broken listing must be rejected)
"""
import argparse
import json
import re
import subprocess
import sys


def properties(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def as_list(value):
    return value if isinstance(value, list) else [value] if value else []


# labN.must_fail.<kernel>[.<how>], labN.must_pass.<kernel>, labN.isolation.<what>.
SELF_TEST_NAME = re.compile(r"^lab[0-9]+\.(must_fail|must_pass|isolation)\.")


def problems_of(tests, backend):
    by_name = {t["name"]: t for t in tests}
    labs = sorted({n[: -len(".run")] for n in by_name if n.endswith(".run") and n.count(".") == 1})
    problems = []
    if not labs:
        problems.append("no lab's tests in the listing")
    for lab in labs:
        problems += lab_problems(lab, by_name, backend)
    for test in tests:
        labels = as_list(properties(test).get("LABELS"))
        command = " ".join(test.get("command", []))
        if "sanitizer" in labels and not ("run_check.sh" in command and " sanitize " in command):
            problems.append(f"{test['name']}: a sanitizer test not run through labcheck sanitize")
        through_labcheck = "run_check.sh" in command and (" expect " in command or
                                                          " sanitize " in command)
        if SELF_TEST_NAME.match(test["name"]) and not through_labcheck:
            problems.append(f"{test['name']}: a self-test of the checks not run through labcheck "
                            "expect or sanitize")
    return problems


def lab_problems(lab, by_name, backend):
    problems = []
    fixtures = {name: properties(t) for name, t in by_name.items() if name.startswith(lab + ".")}
    sanitizer = fixtures.get(f"{lab}.sanitizer")
    if backend == "cuda" and sanitizer is None:
        return [f"{lab}: no {lab}.sanitizer in a GPU build"]
    if backend == "emulation" and sanitizer is not None:
        return [f"{lab}: {lab}.sanitizer in an emulation build"]
    if sanitizer is not None:
        if set(as_list(sanitizer.get("FIXTURES_REQUIRED"))) != {lab, f"{lab}_run"}:
            problems.append(f"{lab}.sanitizer must require {lab} and {lab}_run")
        if as_list(sanitizer.get("FIXTURES_SETUP")) != [f"{lab}_sanitized"]:
            problems.append(f"{lab}.sanitizer must set up {lab}_sanitized")
    if as_list(fixtures.get(f"{lab}.report", {}).get("FIXTURES_CLEANUP")) != [lab]:
        problems.append(f"{lab}.report must be the cleanup of {lab}")
    for name, props in fixtures.items():
        required = as_list(props.get("FIXTURES_REQUIRED"))
        is_check = f"{lab}_run" in required and name != f"{lab}.sanitizer"
        if is_check and sanitizer is not None and f"{lab}_sanitized" not in required:
            problems.append(f"{name}: does not wait for {lab}.sanitizer ({lab}_sanitized)")
    return problems


def test(name, required=(), setup=(), cleanup=(), labels=(), command="labcheck verdict"):
    props = [{"name": "FIXTURES_REQUIRED", "value": list(required)},
             {"name": "FIXTURES_SETUP", "value": list(setup)},
             {"name": "FIXTURES_CLEANUP", "value": list(cleanup)},
             {"name": "LABELS", "value": list(labels)}]
    return {"name": name, "command": command.split(), "properties": props}


def self_test():
    good = [test("lab1.setup", setup=["lab1"]),
            test("lab1.run", required=["lab1"], setup=["lab1_run"]),
            test("lab1.sanitizer", required=["lab1", "lab1_run"], setup=["lab1_sanitized"],
                 labels=["sanitizer"], command="sh run_check.sh x y lab1 s sanitize spec"),
            test("lab1.A.B", required=["lab1", "lab1_run", "lab1_sanitized"]),
            test("lab1.report", cleanup=["lab1"]),
            test("lab1.must_fail.y", labels=["known_wrong"],
                 command="sh run_check.sh x y lab1 s expect fail --spec spec")]
    assert not problems_of(good, "cuda"), problems_of(good, "cuda")
    early = [t if t["name"] != "lab1.A.B" else test("lab1.A.B", required=["lab1", "lab1_run"])
             for t in good]
    script = good + [test("lab1.must_fail.x.memcheck", labels=["sanitizer"],
                          command="sh run_sanitizer.sh x")]
    expect_script = good + [test("lab1.must_fail.z", labels=["known_wrong"],
                                 command="sh expect_failure.sh x")]
    for broken, backend in ((early, "cuda"), (script, "cuda"), (expect_script, "cuda"),
                            (good, "emulation"),
                            (good[:2] + good[3:], "cuda")):
        if not problems_of(broken, backend):
            print("check-lab-fixtures: a broken listing was not rejected")
            return 1
    print("check-lab-fixtures: broken listings rejected")
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ctest")
    parser.add_argument("--build")
    parser.add_argument("--backend", choices=["cuda", "emulation"])
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    listing = subprocess.run([args.ctest, "--show-only=json-v1"], cwd=args.build,
                             capture_output=True, text=True, check=True).stdout
    problems = problems_of(json.loads(listing)["tests"], args.backend)
    for problem in problems:
        print(f"check-lab-fixtures: {problem}")
    if not problems:
        print("check-lab-fixtures: every lab's tests in order")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
