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
# Several processes (pytest-xdist; how many below), each taking whole modules (loadscope), so that a
# module's own builds are made once; the main job that the site, print and browser tests
# read is made once for all of them (tests/conftest.py, main_job). `-p no:xdist` among
# the arguments runs everything in this process.
# The slowest tests are listed, so that a run that grows slower shows where.
# A full run takes one process more than the cores: the main job runs beside the test
# processes, and while it runs a test process that reaches a module reading it waits
# (a quiet CI run on two cores had both waiting over a minute, and the cores busy only
# 1.4 of 2 on average, with tests waiting on subprocesses and browsers). The quick run
# (-m 'not slow') has no main job: one process per core.
workers=$(( $(nproc) + 1 ))
for arg in "$@"; do
  case "$arg" in
    *"not slow"*) workers=auto ;;
  esac
done
parallel=(-n "$workers" --dist loadscope)
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
