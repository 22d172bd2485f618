#!/usr/bin/env bash
# Install the Debian packages rulepress needs (tools/system-packages.txt).
# Needs root (CI and the development machines run as root); does nothing
# when every package is already installed.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t wanted < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tools/system-packages.txt)
[ "${#wanted[@]}" -gt 0 ] || exit 0

missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ "${#missing[@]}" -gt 0 ] || exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "missing system packages: ${missing[*]}; run this script as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "installed system packages: ${missing[*]}"
