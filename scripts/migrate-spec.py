#!/usr/bin/env python3
"""Rewrites a lab's spec.json from the old keys to the one spec schema (docs/spec.md).

    scripts/migrate-spec.py labs/lab11-spmv/spec.json [...]     # in place
    scripts/migrate-spec.py --check labs/*/spec.json            # exit 1 if any would change

Sizes, written before as sizes, size, widths, width, shapes_mkn, shape_mkn, shapes, shape or n,
become "sizes": a list of sizes, each a list of the lab's "dimensions" (added at the top: [rows,
cols] for pairs, [width], [m, k, n] for shapes, [n]). A singular key (size, width, shape,
shape_mkn, or a bare number) held one size; a plural one (sizes, widths, shapes, shapes_mkn, or
n as a list) held several. Thresholds, written before as min_share_of_memcpy,
min_ratio_to_naive, min_speedup_over_naive or min_share_of_cublas, become "min_ratio" with the
"reference" they named (memcpy, naive, cublas); full_points_at_share becomes
full_points_at_ratio. The "emulation" overrides get the same keys. Everything else (ids, points,
titles, order) is kept. A lab whose test reads sizes must then read them through
CheckSpec::sizes/size/counts/count with the same dimensions (contract/spec.hpp).
"""
import argparse
import json
import sys

SINGLE = {"size", "width", "shape", "shape_mkn"}
MANY = {"sizes", "widths", "shapes", "shapes_mkn", "n"}
DIMENSIONS = {"width": ["width"], "widths": ["width"], "n": ["n"], "shape": ["m", "k", "n"],
              "shapes": ["m", "k", "n"], "shape_mkn": ["m", "k", "n"],
              "shapes_mkn": ["m", "k", "n"]}
THRESHOLDS = {"min_share_of_memcpy": "memcpy", "min_ratio_to_naive": "naive",
              "min_speedup_over_naive": "naive", "min_share_of_cublas": "cublas"}
WIDTH = 100


def to_sizes(key, value):
    """The old value of `key` as a list of sizes, each a list of numbers."""
    if isinstance(value, (int, float)):
        return [[value]]
    if key in SINGLE:
        return [value]
    return [entry if isinstance(entry, list) else [entry] for entry in value]


def dimensions_of(key, value):
    if key in DIMENSIONS:
        return DIMENSIONS[key]
    sizes = to_sizes(key, value)
    return ["rows", "cols"] if sizes and len(sizes[0]) == 2 else ["n"]


def migrate_entry(entry, found):
    """The entry with its keys renamed, in their order; `found` collects the dimensions."""
    out = {}
    for key, value in entry.items():
        if key in SINGLE or key in MANY:
            found.append(tuple(dimensions_of(key, value)))
            out["sizes"] = to_sizes(key, value)
        elif key in THRESHOLDS:
            out["reference"] = THRESHOLDS[key]
            out["min_ratio"] = value
        elif key == "full_points_at_share":
            out["full_points_at_ratio"] = value
        elif key == "emulation" and isinstance(value, dict):
            out[key] = migrate_entry(value, found)
        else:
            out[key] = value
    return out


def migrate(document):
    found = []
    checks = [migrate_entry(check, found) for check in document.get("checks", [])]
    out = {}
    for key, value in document.items():
        out[key] = checks if key == "checks" else value
        if key == "title" and "dimensions" not in document and found:
            if len(set(found)) != 1:
                raise SystemExit(f"the checks' sizes have different dimensions: {set(found)}")
            out["dimensions"] = list(found[0])
    return out


def compact(value):
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False)


def wrapped(value, indent):
    """`value` in one line, or a list or object broken between entries to fit WIDTH."""
    text = compact(value)
    if indent + len(text) <= WIDTH or not isinstance(value, (list, dict)) or not value:
        return text
    if isinstance(value, list):
        parts, close, opener = [compact(v) for v in value], "]", "["
    else:
        parts = [f"{compact(k)}: {wrapped(v, indent + len(compact(k)) + 3)}"
                 for k, v in value.items()]
        close, opener = "}", "{"
    lines, line = [], opener
    for i, part in enumerate(parts):
        piece = part + ("," if i + 1 < len(parts) else close)
        column = len(line) + (0 if lines else indent)  # later lines hold their indent
        if line.strip() not in (opener, "") and column + 1 + len(piece) > WIDTH:
            lines.append(line)
            line = " " * (indent + 1) + piece
            continue
        line += ("" if line == opener else " ") + piece
    lines.append(line)
    return "\n".join(lines)


def render(document):
    lines = ["{"]
    items = list(document.items())
    for i, (key, value) in enumerate(items):
        end = "," if i + 1 < len(items) else ""
        if key != "checks":
            lines.append(f"  {compact(key)}: {wrapped(value, len(key) + 6)}{end}")
            continue
        lines.append('  "checks": [')
        for j, check in enumerate(value):
            lines.append("    {")
            fields = list(check.items())
            for k, (name, field) in enumerate(fields):
                comma = "," if k + 1 < len(fields) else ""
                lines.append(f"      {compact(name)}: {wrapped(field, len(name) + 10)}{comma}")
            lines.append("    }" + ("," if j + 1 < len(value) else ""))
        lines.append("  ]" + end)
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if needed")
    parser.add_argument("specs", nargs="+")
    args = parser.parse_args()
    stale = 0
    for path in args.specs:
        with open(path, encoding="utf-8") as f:
            before = f.read()
        after = render(migrate(json.loads(before)))
        if after == before:
            continue
        stale += 1
        if args.check:
            print(f"{path}: written in the old keys (scripts/migrate-spec.py {path})")
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(after)
            print(f"{path}: migrated")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
