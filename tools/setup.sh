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
echo "rulepress is set up: .venv/bin/rulepress --help"
