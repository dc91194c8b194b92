#!/usr/bin/env bash
# Installs the Debian packages given that are not installed yet; leading options (e.g.
# --no-install-recommends) go to apt-get install. Idempotent: the package lists are refreshed only when
# the install cannot proceed without it (a fresh machine has none yet).
# Usage: scripts/apt_install.sh [APT_OPTION...] PACKAGE...
set -euo pipefail
options=()
while [[ ${1:-} == -* ]]; do options+=("$1"); shift; done
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "${options[@]}" "${missing[@]}" \
    || { apt-get update -q && apt-get install -y -q "${options[@]}" "${missing[@]}"; }
fi
