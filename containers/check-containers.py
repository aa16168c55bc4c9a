#!/usr/bin/env python3
"""Static checks of containers/ (ctest: ci.containers.static), what can be checked without a
container engine:

    containers/check-containers.py [--self-test]

- Each Dockerfile keeps to the instructions containers/replay_dockerfile.py replays (FROM, ARG,
  ENV, COPY . DEST, RUN, ENTRYPOINT and CMD, one line each), so that the CPU image's test in a
  clean root runs every step there is; FROM names a tag other than latest; each file under
  /opt/cuda-labs/ it runs exists here and is executable; ENTRYPOINT is labgrade-entrypoint.
- Each image installs with scripts/packaging/install-grader.sh (the one install script, also the
  autograder packages'), which runs scripts/install-deps.sh (the project's one package list),
  builds labgrade and grading_kits and installs labgrade-entrypoint.
- What the images copy of the repository is one list: both .dockerignore files let in the same
  entries, grader.def's %files copies those same entries to /opt/cuda-labs/, and they are every
  top-level entry of the repository (from git: tracked, or untracked and not ignored) except those
  named in NOT_FOR_IMAGES. A new top-level folder must be added to the three or to NOT_FOR_IMAGES.
- The shell scripts pass `sh -n`.

Exit 0, or 1 with one line per problem. --self-test shows each check a broken copy it must reject.
"""
import json
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
INSTALL = "scripts/packaging/install-grader.sh"
DOCKERFILES = ["cpu.Dockerfile", "gpu.Dockerfile"]
REPLAYED = {"FROM", "ARG", "ENV", "COPY", "RUN", "ENTRYPOINT", "CMD"}
PREFIX = "/opt/cuda-labs/"
# Top-level entries the images do not need: CI, editor settings, presets, documentation.
NOT_FOR_IMAGES = {".ci", ".clang-format", ".gitignore", "CMakePresets.json", "ci-templates",
                  "docs"}


def dockerfile_problems(name, text, repo=REPO):
    problems = []
    seen = set()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{name}:{number}"
        if line.endswith("\\"):
            problems.append(f"{where}: a continued line (the replay takes one line each)")
        word, _, rest = line.partition(" ")
        word = word.upper()
        seen.add(word)
        if word not in REPLAYED:
            problems.append(f"{where}: {word} is not one of {sorted(REPLAYED)}")
        if word == "FROM" and (":" not in rest or rest.endswith(":latest")):
            problems.append(f"{where}: FROM {rest}: name a tag, not latest")
        if word == "COPY" and not rest.startswith(". /"):
            problems.append(f"{where}: COPY {rest}: only COPY . /ABSOLUTE is replayed")
        if word in ("RUN", "ENTRYPOINT"):
            for path in re.findall(re.escape(PREFIX) + r"([\w./-]+)", rest):
                file = repo / path
                if not file.is_file() or not os.access(file, os.X_OK):
                    problems.append(f"{where}: runs {PREFIX}{path}, not an executable file here")
            if word == "RUN" and INSTALL not in rest:
                problems.append(f"{where}: a RUN step other than {INSTALL}")
        if word == "ENTRYPOINT":
            try:
                entry = json.loads(rest)
            except json.JSONDecodeError:
                entry = None
            if entry != ["/usr/local/bin/labgrade-entrypoint"]:
                problems.append(f"{where}: ENTRYPOINT must be [\"/usr/local/bin/labgrade-entrypoint\"]")
    for needed in ("FROM", "COPY", "RUN", "ENTRYPOINT"):
        if needed not in seen:
            problems.append(f"{name}: no {needed}")
    return problems


def allowed_entries(name, text):
    """The top-level entries an allowlist .dockerignore ('*', then '!entry' lines) lets in."""
    lines = [l.strip() for l in text.splitlines() if l.strip() and not l.startswith("#")]
    if not lines or lines[0] != "*":
        return None, [f"{name}: must leave everything out first ('*'), then let entries back in"]
    entries, problems = set(), []
    for line in lines[1:]:
        if line.startswith("!"):
            entry = line[1:].strip("/")
            if "/" in entry or "*" in entry:
                problems.append(f"{name}: {line}: let in whole top-level entries only")
            entries.add(entry)
        elif not line.startswith("**/"):
            problems.append(f"{name}: {line}: only '**/name' exclusions after the list")
    return entries, problems


def definition_problems(name, text, entries):
    problems = []
    section, files = None, set()
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("%"):
            section = stripped.split()[0]
            continue
        if section == "%files" and stripped and not stripped.startswith("#"):
            source, _, target = stripped.partition(" ")
            if target.strip() != PREFIX + source:
                problems.append(f"{name}: %files {stripped}: copy each entry to {PREFIX}<entry>")
            files.add(source)
        if section == "%post" and stripped and INSTALL not in stripped:
            problems.append(f"{name}: %post runs {stripped!r}, not {INSTALL}")
    if "%post" not in text:
        problems.append(f"{name}: no %post")
    if files != entries:
        problems.append(f"{name}: %files copies {sorted(files ^ entries)} unlike the .dockerignore")
    return problems


def repository_entries(repo=REPO):
    """Top-level entries from git (tracked, or untracked and not ignored); None without git."""
    try:
        listed = subprocess.run(["git", "-C", str(repo), "ls-files", "-co", "--exclude-standard",
                                 "-z"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return {path.split(b"/")[0].decode() for path in listed.split(b"\0") if path}


def coverage_problems(entries, present):
    if present is None:
        return []
    problems = []
    for entry in sorted(present - entries - NOT_FOR_IMAGES):
        problems.append(f"{entry}: neither copied into the images (.dockerignore, grader.def) "
                        f"nor named in check-containers.py's NOT_FOR_IMAGES")
    for entry in sorted(entries - present):
        problems.append(f"{entry}: let into the images but not in the repository")
    return problems


def install_script_problems(text):
    problems = []
    for needed, why in (("scripts/install-deps.sh", "the project's one package list"),
                        ("labgrade", "the grader"), ("grading_kits", "every lab's kit"),
                        ("labgrade-entrypoint", "the images' entrypoint")):
        if needed not in text:
            problems.append(f"{INSTALL}: does not use {needed} ({why})")
    return problems


def check(repo=REPO):
    problems = []
    for name in DOCKERFILES:
        problems += dockerfile_problems(name, (HERE / name).read_text(), repo)
    lists = []
    for name in DOCKERFILES:
        entries, found = allowed_entries(name + ".dockerignore",
                                         (HERE / (name + ".dockerignore")).read_text())
        problems += found
        lists.append(entries or set())
    if lists[0] != lists[1]:
        problems.append(f"the .dockerignore files differ: {sorted(lists[0] ^ lists[1])}")
    problems += definition_problems("grader.def", (HERE / "grader.def").read_text(), lists[0])
    problems += coverage_problems(lists[0], repository_entries(repo))
    problems += install_script_problems((repo / INSTALL).read_text())
    for script in sorted(HERE.glob("*.sh")) + [repo / INSTALL]:
        if subprocess.run(["sh", "-n", str(script)]).returncode != 0:
            problems.append(f"{script.name}: sh -n fails")
    return problems


def self_test():
    """Each check must reject a broken copy."""
    good = (HERE / "cpu.Dockerfile").read_text()
    entries, _ = allowed_entries("x", (HERE / "cpu.Dockerfile.dockerignore").read_text())
    definition = (HERE / "grader.def").read_text()
    broken = {
        "ADD is not replayed": dockerfile_problems("x", good + "ADD a b\n"),
        "latest tag": dockerfile_problems("x", good.replace("debian:12", "debian:latest")),
        "missing script": dockerfile_problems("x", good.replace("install-grader.sh", "gone.sh")),
        "another RUN": dockerfile_problems("x", good + "RUN /opt/cuda-labs/scripts/install-deps.sh\n"),
        "continued line": dockerfile_problems("x", good.replace(" --bin", " \\\n  --bin")),
        "other entrypoint": dockerfile_problems("x", good.replace("labgrade-entrypoint\"]", "sh\"]")),
        "no allowlist": allowed_entries("x", "build*\n")[1],
        "def lacks an entry": definition_problems("x", definition.replace(
            "    solutions /opt/cuda-labs/solutions\n", ""), entries),
        "def's %post": definition_problems("x", definition.replace(
            INSTALL, "containers/other.sh"), entries),
        "new top-level folder": coverage_problems(entries, entries | {"newfolder"}),
        "entry gone": coverage_problems(entries | {"gone"}, entries),
        "no package list": install_script_problems("cmake --build x --target labgrade"),
    }
    failures = [what for what, problems in broken.items() if not problems]
    for what in failures:
        print(f"self-test: not caught: {what}")
    print(f"self-test: {len(broken) - len(failures)} of {len(broken)} broken copies caught")
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    problems = check()
    for problem in problems:
        print(problem)
    print(f"containers: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
