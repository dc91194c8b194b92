#!/usr/bin/env bash
# Installs every build and test dependency from Debian 12 packages. Idempotent: only missing packages
# are installed, and the package lists are refreshed only when that install cannot proceed without it.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libcli11-dev rapidjson-dev libfmt-dev libtbb-dev zlib1g-dev libisal-dev libyaml-cpp-dev
  libeigen3-dev              # libops: float64 reference ops (GEMM)
  nlohmann-json3-dev         # small JSON documents (summary.json, --json output, compare.json, manifests)
  libgtest-dev libgmock-dev
  libprotobuf-dev protobuf-compiler   # capture shim tests: decode .bin headers with libprotobuf
  libxml2-utils              # xmllint: the JUnit report is validated against its XSD
  help2man                   # man pages from --help
  clang libclang-rt-14-dev   # libFuzzer and sanitizer runtimes for the fuzz targets
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine has no package lists yet: refresh them only when the install cannot proceed.
  apt-get install -y -q "${missing[@]}" || { apt-get update -q && apt-get install -y -q "${missing[@]}"; }
fi
