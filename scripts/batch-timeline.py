#!/usr/bin/env python3
"""Where a batch's time went, from OUT/.labgrade/timeline.csv (written by labgrade batch).

  scripts/batch-timeline.py OUT [--markdown]

Prints, for each phase (build, correctness@GPU, sanitizer@GPU, leftover@GPU, speed@GPU,
speed-again@GPU, emulated@cpu): how many ran, their median and total run time and the median
wait before them; then, per GPU, the time it was held alone (speed and speed-again: since 31362e0
the speed run also carries the checks the hosted memcheck run left over, where the lab has speed
checks; leftover@GPU is their shared run otherwise), shared (correctness runs only), and idle,
and the wall time of the whole batch.
The emulated pass (emulated@cpu, CPU only at nice 19) is no GPU's: the last line says how much of
it overlapped the speed runs and how long the batch ran on after the GPUs' last use for it.
"""
import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def alone_spans(phases, gpu):
    """The spans `gpu` was held alone: the speed runs and their runs again."""
    return [span for name in (f"speed@{gpu}", f"speed-again@{gpu}")
            for span in phases.get(name, {"spans": []})["spans"]]


def union_length(intervals):
    total, end = 0.0, None
    for a, b in sorted(intervals):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv
    if len(args) != 1:
        sys.exit(__doc__.strip())
    path = Path(args[0]) / ".labgrade" / "timeline.csv"
    if not path.is_file():
        sys.exit(f"batch-timeline: no {path} (is {args[0]} a labgrade batch output folder?)")
    marks = defaultdict(dict)  # (submission, phase) -> event -> seconds
    wall = 0.0
    with path.open() as f:
        for row in csv.DictReader(f):
            t = float(row["seconds"])
            wall = max(wall, t)
            marks[(row["submission"], row["phase"])][row["event"]] = t
    phases = defaultdict(lambda: {"run": [], "wait": [], "spans": []})
    for (_, phase), events in marks.items():
        if "start" in events and "end" in events:
            phases[phase]["run"].append(events["end"] - events["start"])
            phases[phase]["spans"].append((events["start"], events["end"]))
        if "wait" in events and "start" in events:
            phases[phase]["wait"].append(events["start"] - events["wait"])
    rows = [("phase", "runs", "median run s", "total run s", "median wait s")]
    for phase in sorted(phases):
        p = phases[phase]
        if not p["run"]:
            continue
        rows.append((phase, str(len(p["run"])), f"{statistics.median(p['run']):.2f}",
                     f"{sum(p['run']):.1f}",
                     f"{statistics.median(p['wait']):.2f}" if p["wait"] else "-"))
    gpus = sorted({phase.split("@", 1)[1] for phase in phases if "@" in phase} - {"cpu"})
    gpu_rows = [("GPU", "alone (speed) s", "shared only s", "idle s", "first use s")]
    for gpu in gpus:
        alone = alone_spans(phases, gpu)
        shared = phases.get(f"correctness@{gpu}", {"spans": []})["spans"]
        busy = union_length(alone + shared)
        first = min(a for a, _ in alone + shared) if alone + shared else 0.0
        gpu_rows.append((gpu, f"{union_length(alone):.1f}", f"{busy - union_length(alone):.1f}",
                         f"{wall - busy:.1f}", f"{first:.1f}"))
    for table in (rows, gpu_rows):
        if markdown:
            print("| " + " | ".join(table[0]) + " |")
            print("|" + " --- |" * len(table[0]))
            for row in table[1:]:
                print("| " + " | ".join(row) + " |")
        else:
            widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
            for row in table:
                print("  ".join(c.ljust(w) for c, w in zip(row, widths)))
        print()
    print(f"wall: {wall:.1f} s (from the batch's start to its last event)")
    emulated = phases.get("emulated@cpu", {"spans": []})["spans"]
    if emulated:
        gpu_spans = [span for phase, p in phases.items()
                     if phase.split("@", 1)[-1] in gpus for span in p["spans"]]
        speed = [span for gpu in gpus for span in alone_spans(phases, gpu)]
        last_gpu = max((b for _, b in gpu_spans), default=0.0)
        overlap = union_length(emulated) + union_length(speed) - union_length(emulated + speed)
        print(f"emulated pass: {union_length(emulated):.1f} s of CPU time spans, {overlap:.1f} s of "
              f"them beside speed runs; the batch's last emulated pass ended "
              f"{max(b for _, b in emulated) - last_gpu:+.1f} s after the GPUs' last use")


if __name__ == "__main__":
    main()
