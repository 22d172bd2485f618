#!/usr/bin/env bash
# Run the whole test suite: lint, type check, tests. Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin
status=0

echo "== ruff"
$py/ruff check src tests benchmarks tools || status=1
$py/ruff format --check src tests benchmarks tools || status=1
echo "== mypy (strict, src/)"
$py/mypy || status=1
echo "== pytest"
# One process per core (pytest-xdist); the tests that share the session's site and print
# builds stay in one of them (the xdist_group set in tests/conftest.py), so the builds
# are made once. `-p no:xdist` among the arguments runs everything in this process.
# The slowest tests are listed, so that a run that grows slower shows where.
parallel=(-n auto --dist loadgroup)
for arg in "$@"; do
  [ "$arg" = "no:xdist" ] && parallel=()
done
$py/pytest "${parallel[@]}" --durations=15 "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  rc=1
fi
[ "$rc" -eq 0 ] || status=1
exit $status
