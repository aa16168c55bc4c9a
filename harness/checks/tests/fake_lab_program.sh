#!/bin/sh
# A stand-in for a lab program: writes one failed record with a diagnosis, as a lab would.
dir=$2
mkdir -p "$dir"
cat > "$dir/A.B.json" <<'J'
{
  "cases": [
    {
      "diagnosis": {
        "id": "nested_one"
      }
    }
  ],
  "check": "A.B",
  "diagnosis": {
    "also": [
      "first_tile_only"
    ],
    "evidence": "x",
    "id": "last_tile_skipped",
    "summary": "y"
  },
  "verdict": "fail"
}
J
exit 1
