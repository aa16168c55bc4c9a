#!/usr/bin/env python3
"""Structural check of the GPU CI templates: what a course copies must really run the tests on a
GPU runner and keep the results.

    ci-templates/check-templates.py FILE...                 exit 0 when every file is right
    ci-templates/check-templates.py --expect-problem TEXT FILE...
                                    (a test of this check: exit 0 only when problems are found and
                                     each TEXT is part of one of them)

A file is a GitHub Actions workflow when it has `jobs` with `runs-on`, a GitLab CI file otherwise.
GitHub: a job on a self-hosted runner with the gpu label, that checks out, runs
scripts/install-deps.sh, configures the ci preset (solutions and self tests), builds, runs ctest
with --output-junit, and uploads junit.xml and the HTML reports with actions/upload-artifact@v4
even when tests fail. GitLab: a job with the gpu tag doing the same, with artifacts:reports:junit,
the reports among artifacts:paths, and artifacts:when: always. yamllint checks the syntax
(ci-templates/lint-templates.sh). Exit 77 when PyYAML is missing (python3-yaml).
"""
import argparse
import sys

try:
    import yaml
except ImportError:
    print("skipped: PyYAML is missing (apt-get install python3-yaml)")
    sys.exit(77)


def commands_of(steps_or_script) -> str:
    """All shell text of a job, one string, for looking for commands."""
    if isinstance(steps_or_script, str):
        return steps_or_script
    parts = []
    for item in steps_or_script or []:
        if isinstance(item, dict):
            parts.append(str(item.get("run", "")))
        else:
            parts.append(str(item))
    return "\n".join(parts)


def check_commands(where: str, text: str, problems: list) -> None:
    wanted = {
        "scripts/install-deps.sh": "does not run scripts/install-deps.sh",
        "cmake --preset ci": "does not configure with the ci preset (solutions and self tests)",
        "cmake --build": "does not build",
        "--output-junit": "does not run ctest with --output-junit",
    }
    for needle, problem in wanted.items():
        if needle not in text:
            problems.append(f"{where}: {problem}")
    if "ctest" not in text:
        problems.append(f"{where}: does not run ctest")


def check_github(name: str, doc: dict, problems: list) -> None:
    # PyYAML reads the key `on` as True (YAML 1.1).
    if "on" not in doc and True not in doc:
        problems.append(f"{name}: no `on:` triggers")
    jobs = doc.get("jobs") or {}
    gpu_jobs = []
    for job_name, job in jobs.items():
        labels = job.get("runs-on")
        labels = [labels] if isinstance(labels, str) else list(labels or [])
        if "self-hosted" in labels and "gpu" in labels:
            gpu_jobs.append((job_name, job))
    if not gpu_jobs:
        problems.append(f"{name}: no job runs-on [self-hosted, linux, gpu] (a GPU runner's labels)")
        return
    for job_name, job in gpu_jobs:
        where = f"{name}: job {job_name}"
        steps = job.get("steps") or []
        uses = [str(step.get("uses", "")) for step in steps if isinstance(step, dict)]
        if not any(u.startswith("actions/checkout@") for u in uses):
            problems.append(f"{where}: no actions/checkout step")
        check_commands(where, commands_of(steps), problems)
        uploads = [s for s in steps
                   if isinstance(s, dict) and str(s.get("uses", "")).startswith("actions/upload-artifact@")]
        if not uploads:
            problems.append(f"{where}: no actions/upload-artifact@v4 step for the JUnit XML and reports")
            continue
        for upload in uploads:
            if not str(upload["uses"]).endswith("@v4"):
                problems.append(f"{where}: {upload['uses']}: use actions/upload-artifact@v4")
            if "always()" not in str(upload.get("if", "")):
                problems.append(f"{where}: the upload step needs `if: always()` (results of a failing run)")
            paths = str((upload.get("with") or {}).get("path", ""))
            if "junit.xml" not in paths:
                problems.append(f"{where}: the upload step does not keep junit.xml")
            if "reports/" not in paths or ".html" not in paths:
                problems.append(f"{where}: the upload step does not keep the HTML reports")


def check_gitlab(name: str, doc: dict, problems: list) -> None:
    reserved = {"stages", "variables", "default", "include", "workflow", "image", "services",
                "before_script", "after_script", "cache"}
    jobs = {k: v for k, v in doc.items()
            if isinstance(v, dict) and k not in reserved and not str(k).startswith(".")}
    gpu_jobs = [(k, v) for k, v in jobs.items() if "gpu" in (v.get("tags") or [])]
    if not gpu_jobs:
        problems.append(f"{name}: no job with the tag gpu (a GPU runner's tag)")
        return
    for job_name, job in gpu_jobs:
        where = f"{name}: job {job_name}"
        check_commands(where, commands_of(job.get("script")), problems)
        artifacts = job.get("artifacts") or {}
        junit = (artifacts.get("reports") or {}).get("junit")
        if not junit:
            problems.append(f"{where}: no artifacts:reports:junit")
        elif "junit.xml" not in str(junit):
            problems.append(f"{where}: artifacts:reports:junit is not the ctest junit.xml")
        paths = " ".join(map(str, artifacts.get("paths") or []))
        if "reports/" not in paths or ".html" not in paths:
            problems.append(f"{where}: artifacts:paths does not keep the HTML reports")
        if artifacts.get("when") != "always":
            problems.append(f"{where}: artifacts:when must be always (results of a failing run)")


def check_file(path: str) -> list:
    problems = []
    try:
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as error:
        return [f"{path}: cannot read: {error}".replace("\n", " ")]
    if not isinstance(doc, dict):
        return [f"{path}: not a YAML mapping"]
    jobs = doc.get("jobs")
    if isinstance(jobs, dict) and any(isinstance(j, dict) and "runs-on" in j for j in jobs.values()):
        check_github(path, doc, problems)
    else:
        check_gitlab(path, doc, problems)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--expect-problem", action="append", default=[],
                        help="a test of the check: this text must be in a problem found")
    args = parser.parse_args()
    problems = [p for path in args.files for p in check_file(path)]
    for problem in problems:
        print(problem)
    if args.expect_problem:
        missed = [t for t in args.expect_problem if not any(t in p for p in problems)]
        for text in missed:
            print(f"NOT CAUGHT: no problem mentions {text!r}")
        print(f"{len(problems)} problem(s) found, {len(missed)} expected one(s) missed")
        return 1 if missed or not problems else 0
    print(f"{len(args.files)} template(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
