#!/usr/bin/env bash
# Installs every build and test dependency from Debian 12 packages, only those missing (apt_install.sh).
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libcli11-dev rapidjson-dev libfmt-dev libtbb-dev zlib1g-dev libisal-dev libyaml-cpp-dev
  libeigen3-dev              # libops: float64 reference ops (GEMM)
  libxlsxwriter-dev          # every workbook we write
  libsqlite3-dev sqlite3     # data2db's trend database; the tests read it back with the sqlite3 command
  nlohmann-json3-dev         # small JSON documents (summary.json, --json output, compare.json, manifests)
  libgtest-dev libgmock-dev
  libbenchmark-dev           # bench/eigen_bench: the kernels against Eigen (optional)
  libminizip-dev             # libdump: the .pt writer; tests: zip fixtures of any shape
  libprotobuf-dev protobuf-compiler   # capture shim tests: decode .bin headers with libprotobuf
  libxml2-utils              # xmllint: the JUnit report is validated against its XSD
  python3-jsonschema         # the CLI tests validate every summary.json against docs/summary.schema.json
  help2man                   # man pages from --help
  clang libclang-rt-14-dev   # libFuzzer and sanitizer runtimes for the fuzz targets
  libopenmpi-dev openmpi-bin # -DMSPROBE_MPI=ON: compare and merge across processes (docs/distributed.md)
  qemu-user-static           # the GEMM copies tested on emulated CPUs without AVX/AVX-512 (docs/ops.md §4)
)
"$(dirname "$0")/apt_install.sh" "${packages[@]}"
# The HTML report: npm ci installs its charting library (report/package-lock.json). Debian's nodejs and
# npm where there is no npm yet; a machine with another Node.js (NodeSource's nodejs provides npm and
# conflicts with Debian's npm package) keeps its own.
command -v npm >/dev/null || "$(dirname "$0")/apt_install.sh" nodejs npm
