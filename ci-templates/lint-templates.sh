#!/bin/sh
# yamllint over the CI templates (must pass) and over a fixture with broken syntax (must fail, or
# the lint checks nothing). Exit 77 when yamllint is not installed (apt-get install yamllint).
set -u
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v yamllint > /dev/null 2>&1; then
  echo "skipped: yamllint is not installed (apt-get install yamllint)"
  exit 77
fi
yamllint --strict -c "$here/yamllint.yml" "$here/github/gpu-tests.yml" "$here/gitlab/.gitlab-ci.yml" ||
  exit 1
echo "ok: the templates pass yamllint"
yamllint -c "$here/yamllint.yml" "$here/tests/bad-syntax.yml" > /dev/null 2>&1
status=$?
if [ "$status" -ne 1 ]; then
  echo "NOT CAUGHT: yamllint passed a file with a duplicated key and a tab (status $status)"
  exit 1
fi
echo "ok: yamllint rejects the broken fixture"
