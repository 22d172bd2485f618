#!/usr/bin/env bash
# Run the whole test suite: lint, type check, tests. Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin
status=0

echo "== ruff"
$py/ruff check src tests benchmarks tools || status=1
$py/ruff format --check src tests benchmarks tools || status=1
# mypy runs beside the tests, on the cores they leave free now and then (alone, first, it
# kept one core busy for 20 s while the other waited); its report follows theirs
mypy_log=$(mktemp)
$py/mypy > "$mypy_log" 2>&1 &
mypy_pid=$!
trap 'kill "$mypy_pid" 2> /dev/null; rm -f "$mypy_log"' EXIT
echo "== pytest"
# The tests start hundreds of Python processes (the command line, build workers, Sphinx),
# each importing rulepress from src/: compiled once here, they read the bytecode instead
# of compiling every module again, which they would do each time where the environment
# sets PYTHONDONTWRITEBYTECODE (a CI image may; Python then writes no cache of its own).
# Only what changed is compiled again; the caches are git-ignored.
$py/python -m compileall -q src tests > /dev/null || status=1
# One process per core (pytest-xdist), each taking whole modules (loadscope), so that a
# module's own builds are made once; the main job that the site, print and browser tests
# read is made once for all of them (tests/conftest.py, main_job). `-p no:xdist` among
# the arguments runs everything in this process.
# The slowest tests are listed, so that a run that grows slower shows where.
# A worker that crashes is not replaced (--max-worker-restart=0): its tests fail and the
# run ends. With loadscope, xdist 3.8 requeues a crashed worker's finished modules and
# then waits for them forever (pytest-xdist issue 1378): a segmentation fault in one
# test kept a run waiting at 99 % until CI's time ran out.
parallel=(-n auto --dist loadscope --max-worker-restart=0)
for arg in "$@"; do
  [ "$arg" = "no:xdist" ] && parallel=()
done
# pytest keeps each test module's rewritten bytecode (its assertion rewriting) in
# __pycache__ unless PYTHONDONTWRITEBYTECODE is set, and then every pytest process of the
# run rewrites all the test modules again: the two workers, and each suite a test runs
# inside it (tests/test_any_game.py, the tutorial), about 5 s of CPU each. So it is unset
# for pytest: the caches are git-ignored, and the repository guard looks past them.
env -u PYTHONDONTWRITEBYTECODE $py/pytest "${parallel[@]}" --durations=15 "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  rc=1
fi
[ "$rc" -eq 0 ] || status=1
echo "== mypy (strict, src/)"
wait "$mypy_pid" || status=1
cat "$mypy_log"
exit $status
