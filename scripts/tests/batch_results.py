"""What the batch's end-to-end test scripts read of a graded folder (scripts/tests/*-batch.sh)."""
import csv
import json
import sys
from pathlib import Path


def records(out, student):
    """The student's check records, by check id."""
    folder = Path(out) / "students" / student / "results"
    return {r["check"]: r for r in (json.loads(p.read_text()) for p in folder.glob("*.json"))}


def phase_events(out, phase):
    """submission -> the events of the timeline's phases that begin with `phase`."""
    events = {}
    with (Path(out) / ".labgrade" / "timeline.csv").open() as f:
        for row in csv.DictReader(f):
            if row["phase"].startswith(phase):
                events.setdefault(row["submission"], set()).add(row["event"])
    return events


def solution_problems(out, words):
    """The solution's non-speed checks that did not pass, or whose words contain `words`."""
    problems = []
    for check, record in records(out, "solution").items():
        text = record["reason"] + " ".join(record.get("notes", []))
        if record["kind"] != "speed" and record["verdict"] != "pass" or words in text:
            problems.append(f"the solution's {check}: {record['verdict']}: {record['reason']}")
    return problems


def finish(label, problems, log):
    """Prints the problems, and exits 1 when there are any."""
    for problem in problems:
        print(f"{label}: {problem}")
    if problems:
        print(f"(the batch's output: {log})")
    sys.exit(1 if problems else 0)
