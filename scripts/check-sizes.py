#!/usr/bin/env python3
"""Lists production sources over the size limits of docs/architecture.md ("Sizes"):
files over 400 lines and functions over 60 lines in grader/, reports/, harness/, emulation/ (and
the small libraries beside them) and the labs' checks (labs/*/tests/*.cu, *.cpp), tests aside
(the known-wrong and known-right kernels of labs/*/tests/wrong/ and right/ are tests).

    scripts/check-sizes.py [--max-file 400] [--max-function 60] [FOLDER ...]

Exit status 1 when anything is over. Functions are found by their braces: a body is the text
between a '{' that follows a ')' (with qualifiers such as const, noexcept, override or a trailing
return type between them) at namespace or class level and its matching '}'. Lambdas inside a
function count towards that function, as they should.
"""
import argparse
import pathlib
import re
import sys

DEFAULT_FOLDERS = ["grader", "reports", "harness", "contract", "common", "launcher", "emulation",
                   "labs"]
SUFFIXES = {".cpp", ".cu", ".hpp", ".cuh", ".h"}


def strip_comments_and_strings(text):
    """Blanks comments, string and character literals, keeping the line breaks."""
    pattern = re.compile(
        r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
        re.S)
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


HEAD = re.compile(r"\)\s*(?:const|noexcept|override|final|mutable|->\s*[\w:<>,\s*&]+|\s)*$")


def functions(text):
    """Yields (name, first line, line count) for each function body at namespace/class level."""
    clean = strip_comments_and_strings(text)
    depth_kinds = []  # one entry per open brace: "function" or "scope"
    start = None
    for i, ch in enumerate(clean):
        if ch == "{":
            inside_function = "function" in depth_kinds
            before = clean[max(0, i - 300):i]
            is_function = not inside_function and HEAD.search(before) is not None
            if is_function and re.search(r"\b(if|for|while|switch|catch)\s*\(", before[-120:]):
                is_function = bool(HEAD.search(before)) and not re.search(
                    r"\b(if|for|while|switch|catch)\s*\([^;{}]*\)\s*$", before)
            depth_kinds.append("function" if is_function else "scope")
            if is_function:
                start = i
        elif ch == "}" and depth_kinds:
            kind = depth_kinds.pop()
            if kind == "function" and "function" not in depth_kinds:
                first = clean.count("\n", 0, start) + 1
                last = clean.count("\n", 0, i) + 1
                head = clean[max(0, start - 200):start]
                names = re.findall(r"([~\w:]+)\s*\(", head)
                yield (names[-1] if names else "?"), first, last - first + 1


def is_production(rel):
    """Production code: not a test, except a lab's checks (labs/<lab>/tests/<file>)."""
    parts = rel.parts
    if parts[0] == "labs":
        return len(parts) == 4 and parts[2] == "tests"
    return "tests" not in parts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-file", type=int, default=400)
    parser.add_argument("--max-function", type=int, default=60)
    parser.add_argument("folders", nargs="*")
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    folders = args.folders or [f for f in DEFAULT_FOLDERS if (root / f).is_dir()]
    over = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SUFFIXES or not is_production(path.relative_to(root)):
                continue
            text = path.read_text(errors="replace")
            rel = path.relative_to(root)
            lines = text.count("\n")
            if lines > args.max_file:
                over.append(f"{rel}: {lines} lines (file limit {args.max_file})")
            for name, first, count in functions(text):
                if count > args.max_function:
                    over.append(f"{rel}:{first}: {name} is {count} lines "
                                f"(function limit {args.max_function})")
    for line in over:
        print(line)
    print(f"check-sizes: {len(over)} over the limits" if over else "check-sizes: all within")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
