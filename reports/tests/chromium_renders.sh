#!/bin/sh
# reports.chromium_renders: renders the fixture report and opens it in headless Chromium.
# Checks that the page parses into the expected DOM (score, every check title), that the hostile
# text in a fixture record stays text and runs no script, and that the page paints a real
# screenshot. Exits 77 (ctest SKIP_RETURN_CODE) where Chromium is not installed.
#
# usage: chromium_renders.sh <render_fixture_report> <fixtures_dir> [copy_screenshot_to.png]
set -u

renderer=$1
fixtures=$2
screenshot_copy=${3:-}

browser=""
for name in chromium chromium-browser; do
  if command -v "$name" >/dev/null 2>&1; then
    browser=$(command -v "$name")
    break
  fi
done
if [ -z "$browser" ]; then
  echo "SKIPPED: chromium not found (apt-get install chromium)"
  exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/reports-chromium.XXXXXX") || exit 1
fail() {
  echo "FAIL: $*"
  echo "(the report and Chromium's output are kept in $work)"
  exit 1
}

# A hang must fail the test rather than wait for ctest's timeout, where timeout(1) exists.
limit=""
if command -v timeout >/dev/null 2>&1; then limit="timeout 90"; fi

# Its own profile folder: never touches ~/.config, and parallel runs do not share a lock.
run_browser() {
  $limit "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$work/profile" "$@" 2>>"$work/chromium.log"
}

report="$work/report.html"
"$renderer" "$fixtures/spec.json" "$fixtures/results" "$report" "Ada Lovelace" ||
  fail "render_fixture_report failed"

run_browser --dump-dom "file://$report" >"$work/dom.html" || fail "chromium --dump-dom failed"
[ -s "$work/dom.html" ] || fail "chromium --dump-dom printed nothing"

expect_in_dom() {
  grep -qF -- "$1" "$work/dom.html" || fail "the DOM lacks: $1"
}
expect_not_in_dom() {
  if grep -qF -- "$1" "$work/dom.html"; then fail "the DOM contains: $1"; fi
}

expect_in_dom "8.5 / 14 points"
expect_in_dom "Ada Lovelace"
# Every check title of the spec (the fixture titles need no escaping).
sed -n 's/^ *"title": "\([^"]*\)".*/\1/p' "$fixtures/spec.json" >"$work/titles.txt"
[ -s "$work/titles.txt" ] || fail "found no titles in $fixtures/spec.json"
while IFS= read -r title; do expect_in_dom "$title"; done <"$work/titles.txt"
expect_in_dom "did not run (run ctest -L lab1)"
expect_in_dom '<svg class="error-map"'
expect_in_dom '<svg class="speed-chart"'

# The hostile reason must be text in the DOM, and none of it may have become an element or run:
# its script would retitle the page, its onerror handler would add a data-pwned attribute.
expect_in_dom "&lt;script&gt;document.title='PWNED'&lt;/script&gt;"
expect_not_in_dom "<script"
expect_not_in_dom "<img"
expect_not_in_dom "<title>PWNED"
expect_not_in_dom "data-pwned"

screenshot="$work/report.png"
run_browser --hide-scrollbars --window-size=1280,1800 --screenshot="$screenshot" \
  "file://$report" >/dev/null || fail "chromium --screenshot failed"
[ -f "$screenshot" ] || fail "chromium wrote no screenshot"
bytes=$(wc -c <"$screenshot")
[ "$bytes" -gt 5120 ] || fail "the screenshot is only $bytes bytes: the page did not paint"

if [ -n "$screenshot_copy" ]; then cp "$screenshot" "$screenshot_copy" || fail "cannot copy the screenshot"; fi
echo "chromium rendered the report: DOM checks passed, screenshot $bytes bytes"
rm -rf "$work"
exit 0
