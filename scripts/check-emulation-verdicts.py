#!/usr/bin/env python3
"""Every known-wrong kernel has a row in docs/emulation-verdicts.md, and the row says the truth.

A known-wrong kernel is a lab's starter (kernel.cu), each labs/labN-*/tests/wrong/*.cu and each
examples/redteam/labN-*/*.cu (cmake/AddLab.cmake, _labs_add_must_fail_tests). Its row, in the
table under the doc's "### labN" heading, names the checks its `// must-fail:` lines name, its
`// diagnosis:` ids, what the GPU build registers for it and what the CPU emulation makes of it:

  same                      labN.must_fail.<kernel> is registered and judges every named check
  same, speed not judged    ... and some named checks are speed checks (not measured)
  skipped: speed only       ... and every named check is a speed check: the test is skipped
  judged by its evidence    ... every named check is a speed check, and the kernel's
                            `// evidence:` kinds must be among its records' facts instead
  race: correctness check   only labN.must_fail.<kernel>.emulated_race (no sanitizer on the CPU)
                            and .emulated_racecheck (the emulator's race check)
  memory: correctness check only labN.must_fail.<kernel>.emulated_memcheck (the emulator's bounds
                            checks fail the correctness checks, as the GPU's memory pass does)
  not built                 nothing registered: the file says "// emulation: not built"
  not registered            nothing registered, for no reason the file gives

Anything but the first two is an exception the doc must explain. Under the emulation backend the
status comes from the tests the build registered, under cuda from the files' lines (the rules of
AddLab.cmake); the GPU column is checked against the build under cuda. A row `redteam_* (N)`
stands for a lab's N red-team kernels, which must share one status. The tests are the names that
labs/CMakeLists.txt writes at configure time, one a line (`ctest --show-only` would run the
build's CTEST_CUSTOM_PRE_TEST, which wipes the summary of the ctest run this check is part of).

  check-emulation-verdicts.py --backend emulation|cuda --tests FILE [--doc FILE]
                              [--expect-problem TEXT ...]
Exit 0: every kernel has a true row (with --expect-problem: every expected problem was found).
"""
import argparse
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAME = "same"
SAME_SPEED = "same, speed not judged"
SPEED_ONLY = "skipped: speed only"
EVIDENCE = "judged by its evidence"
RACE = "race: correctness check"
MEMORY = "memory: correctness check"
NOT_BUILT = "not built"
NOT_REGISTERED = "not registered"
STATUSES = [SAME_SPEED, SAME, SPEED_ONLY, EVIDENCE, RACE, MEMORY, NOT_BUILT, NOT_REGISTERED]  # longest prefix first


class Kernel:
    def __init__(self, lab, folder, name, path, spec):
        self.lab, self.folder, self.name, self.path = lab, folder, name, path
        text = path.read_text(encoding="utf-8", errors="replace").splitlines()
        self.not_built = any(line.startswith("// emulation: not built") for line in text)
        self.must_fail, self.diagnosis, self.evidence = [], [], []
        for line in text:
            if line.startswith("// must-fail:"):
                self.must_fail += line[len("// must-fail:"):].split()
            elif line.startswith("// diagnosis:"):
                self.diagnosis += line[len("// diagnosis:"):].split()
            elif line.startswith("// evidence:"):
                self.evidence += line[len("// evidence:"):].split()
        kinds = {c["id"]: c.get("kind", "") for c in spec["checks"]}
        if name == "starter":  # AddLab.cmake: every correctness check that is not a bonus
            self.must_fail = [c["id"] for c in spec["checks"]
                              if c.get("kind") == "correctness" and not c.get("bonus")]
            self.diagnosis = ["unwritten"]
        self.sanitizer = [i.split(".", 1)[1] for i in self.must_fail if i.startswith("sanitizer.")]
        self.checks = [i for i in self.must_fail if not i.startswith("sanitizer.")]
        self.speed = [i for i in self.checks if kinds.get(i) == "speed"]

    @property
    def test(self):
        return f"{self.lab}.must_fail.{self.name}"

    @property
    def where(self):
        return str(self.path.relative_to(ROOT))

    def emulation_from_files(self):
        """What AddLab.cmake registers under the emulation, read from the kernel's lines."""
        if self.not_built:
            return NOT_BUILT
        if self.checks:
            return self.judged_status()
        if "racecheck" in self.sanitizer:
            return RACE
        return MEMORY if "memcheck" in self.sanitizer else NOT_REGISTERED

    def emulation_from_tests(self, tests):
        if self.test in tests:
            return self.judged_status()
        if f"{self.test}.emulated_race" in tests:
            return RACE
        if f"{self.test}.emulated_memcheck" in tests:
            return MEMORY
        return NOT_BUILT if self.not_built else NOT_REGISTERED

    def judged_status(self):
        if self.speed and len(self.speed) == len(self.checks):
            return EVIDENCE if self.evidence else SPEED_ONLY
        return SAME_SPEED if self.speed else SAME

    def gpu_tests(self):
        """The tests a cuda build registers for the kernel."""
        names = [self.test] if self.checks else []
        return names + [f"{self.test}.{tool}" for tool in self.sanitizer]

    def gpu_status(self):
        parts = (["must_fail"] if self.checks else []) + self.sanitizer
        return " + ".join(parts)


def find_kernels():
    kernels = []
    for spec_path in sorted(ROOT.glob("labs/lab*/spec.json")):
        lab_dir = spec_path.parent
        lab = lab_dir.name.split("-", 1)[0]
        spec = json.loads(spec_path.read_text(encoding="utf-8"))
        kernels.append(Kernel(lab, lab_dir.name, "starter", lab_dir / "kernel.cu", spec))
        for path in sorted((lab_dir / "tests" / "wrong").glob("*.cu")):
            kernels.append(Kernel(lab, lab_dir.name, path.stem, path, spec))
        for path in sorted((ROOT / "examples" / "redteam" / lab_dir.name).glob("*.cu")):
            kernels.append(Kernel(lab, lab_dir.name, f"redteam_{path.stem}", path, spec))
    return kernels


def registered_tests(path):
    return {line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def plain(cell):
    return cell.replace("`", "").strip()


def read_rows(doc):
    """(lab, row by column name, line number) of each table row under a '### labN' heading."""
    rows, lab, header = [], None, None
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#"):
            heading = re.match(r"^#{2,4} (lab\d+)\b", line)
            lab, header = (heading.group(1) if heading else None), None
        elif not line.startswith("|"):
            header = None
        elif header is None:
            header = [plain(c).lower() for c in cells(line)]
        elif lab and not set(line) <= set("|-: "):
            rows.append((lab, dict(zip(header, cells(line))), number))
    return rows


def status_of(cell):
    text = plain(cell)
    for status in STATUSES:
        if text == status or text.startswith(status + " ") or text.startswith(status + ";"):
            return status
    return None


def check(kernels, rows, backend, tests, doc_name):
    problems = []
    by_lab = {}
    for k in kernels:
        by_lab.setdefault(k.lab, {})[k.name] = k
    covered = set()
    for lab, row, number in rows:
        where = f"{doc_name}:{number}"
        if "kernel" not in row or "emulation" not in row:
            problems.append(f"{where}: a {lab} table needs the columns kernel and emulation")
            continue
        name = plain(row["kernel"])
        wildcard = re.match(r"^redteam_\*(?:\s*\((\d+)\))?$", name)
        if wildcard:
            group = [k for n, k in by_lab.get(lab, {}).items() if n.startswith("redteam_")]
            if wildcard.group(1) and int(wildcard.group(1)) != len(group):
                problems.append(f"{where}: {lab} has {len(group)} red-team kernels, not "
                                f"{wildcard.group(1)}")
        elif name in by_lab.get(lab, {}):
            group = [by_lab[lab][name]]
        else:
            problems.append(f"{where}: {lab} has no known-wrong kernel '{name}' (a stale row?)")
            continue
        said = status_of(row["emulation"])
        for k in group:
            covered.add((k.lab, k.name))
            actual = k.emulation_from_tests(tests) if backend == "emulation" else \
                k.emulation_from_files()
            if said != actual:
                problems.append(f"{where}: {k.lab} {k.name} ({k.where}): the emulation column "
                                f"says '{plain(row['emulation'])}', but the {backend} build makes "
                                f"it '{actual}'")
            if "gpu" in row and plain(row["gpu"]).split(" (")[0] != k.gpu_status():
                problems.append(f"{where}: {k.lab} {k.name}: the GPU column says "
                                f"'{plain(row['gpu'])}'; its must-fail lines make it "
                                f"'{k.gpu_status()}'")
            if wildcard:
                continue
            listed = plain(row.get("must fail", "")).split()
            if any("." in c for c in listed) and sorted(listed) != sorted(k.must_fail):
                problems.append(f"{where}: {k.lab} {k.name}: must fail says {' '.join(listed)}; "
                                f"{k.where} says {' '.join(k.must_fail)}")
            diagnosis = plain(row.get("diagnosis", "")).split()
            if diagnosis and diagnosis != ["—"] and diagnosis != k.diagnosis:
                problems.append(f"{where}: {k.lab} {k.name}: diagnosis says {' '.join(diagnosis)}; "
                                f"{k.where} says {' '.join(k.diagnosis) or 'none'}")
    for k in kernels:
        if (k.lab, k.name) not in covered:
            actual = k.emulation_from_tests(tests) if backend == "emulation" else \
                k.emulation_from_files()
            problems.append(f"{doc_name}: no row for the known-wrong kernel {k.lab} {k.name} "
                            f"({k.where}) under '### {k.lab}'; under the emulation it is "
                            f"'{actual}'")
        if backend == "cuda":
            # A cuda build registers the sanitizer tests with or without compute-sanitizer
            # (without it they are skipped, saying why).
            for test in k.gpu_tests():
                if test not in tests:
                    problems.append(f"{k.where}: the cuda build registers no test {test}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["emulation", "cuda"], required=True)
    parser.add_argument("--tests", required=True, type=pathlib.Path,
                        help="the build's test names, one a line")
    parser.add_argument("--doc", type=pathlib.Path, default=ROOT / "docs" / "emulation-verdicts.md")
    parser.add_argument("--expect-problem", action="append", default=[],
                        help="a problem that must be found (a test of this script)")
    args = parser.parse_args()

    kernels = find_kernels()
    tests = registered_tests(args.tests)
    if not any(".must_fail." in t for t in tests):
        print(f"{args.tests} names no must-fail tests (configure with -DLABS_BUILD_SELF_TESTS=ON)")
        return 2
    doc = args.doc.resolve()
    doc_name = str(doc.relative_to(ROOT)) if doc.is_relative_to(ROOT) else doc.name
    problems = check(kernels, read_rows(doc), args.backend, tests, doc_name)
    for problem in problems:
        print(problem)
    if args.expect_problem:
        missed = [t for t in args.expect_problem if not any(t in p for p in problems)]
        for text in missed:
            print(f"EXPECTED BUT NOT FOUND: {text}")
        print(f"{len(problems)} problem(s) found, {len(missed)} expected one(s) missed")
        return 1 if missed else 0
    statuses = [k.emulation_from_tests(tests) if args.backend == "emulation" else
                k.emulation_from_files() for k in kernels]
    same = sum(1 for s in statuses if s in (SAME, SAME_SPEED))
    print(f"{len(kernels)} known-wrong kernels: {same} with the same verdict on both backends, "
          f"{len(kernels) - same} exceptions; {len(problems)} problem(s) with {doc_name}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
