#!/usr/bin/env bash
# Set up a machine for rulepress, from nothing to ready:
#   1. the system packages listed in tools/system-packages.txt (apt, as root),
#   2. a virtual environment in .venv with rulepress and its development tools.
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-system-packages.sh

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev]"
# again, building in the venv, which now has mypy: setup.py compiles the scorer's hot path
# with mypyc where there is a C compiler (pure Python otherwise, or with RULEPRESS_PURE=1)
# (it builds with the venv's setuptools, so that one must meet pyproject.toml's build-system)
# Skipped when the compiled modules are there and of these sources (compiling is about a
# minute of CPU), unless pure Python is asked for.
if [ -n "${RULEPRESS_PURE:-}" ] || ! .venv/bin/python -c \
  'from rulepress import compiled; raise SystemExit(compiled.build() != "compiled" or bool(compiled.stale()))' \
  2> /dev/null; then
  .venv/bin/python -m pip install --quiet "setuptools>=77"
  .venv/bin/python -m pip install --quiet --no-build-isolation --no-deps -e .
fi
echo "the scorer's hot path: $(.venv/bin/python -c 'from rulepress import compiled; print(compiled.build())')"
echo "rulepress is set up: .venv/bin/rulepress --help"
