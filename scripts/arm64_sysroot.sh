#!/usr/bin/env bash
# Builds an arm64 sysroot for the cross build (cmake/toolchain-aarch64.cmake): the Debian 12 arm64 -dev
# packages of our dependencies and the runtime libraries they link to, fetched with `apt-get download`
# and unpacked with `dpkg -x`, so nothing is installed into the host (co-installing multiarch -dev
# packages can remove host ones). libc and libstdc++ are not here: they come from the cross toolchain
# (/usr/aarch64-linux-gnu, crossbuild-essential-arm64). Idempotent: a complete sysroot is left as is.
# Usage: scripts/arm64_sysroot.sh DIR
set -euo pipefail
dir=${1:?usage: scripts/arm64_sysroot.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
stamp=$dir/.complete

# Each -dev package with the runtime packages its lib*.so symlinks and their DT_NEEDED point at (the
# toolchain provides libc, libgcc and libstdc++; the checks at the end name anything missing).
# libtbbbind, which TBB's CMake config names, brings hwloc and udev; libxlsxwriter needs libssl3's
# libcrypto (MD5). libbenchmark is left out: the cross build has MSPROBE_BENCH=OFF.
arm64=(
  libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15 libudev1
  libfmt-dev libfmt9
  libyaml-cpp-dev libyaml-cpp0.7
  libisal-dev libisal2
  zlib1g-dev zlib1g
  libxlsxwriter-dev libxlsxwriter4 libssl3
  libsqlite3-dev libsqlite3-0
  libminizip-dev libminizip1
  libgtest-dev libgmock-dev
  libprotobuf-dev libprotobuf32 libprotobuf-lite32
)
# Header-only (Architecture: all), unpacked here too so that every include comes from one tree.
all=(libcli11-dev rapidjson-dev nlohmann-json3-dev libeigen3-dev)
packages=("${arm64[@]/%/:arm64}" "${all[@]}")
# The list of packages is part of what makes the sysroot complete: a changed list rebuilds it.
want=$(printf '%s\n' "${packages[@]}")
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

# apt-get download of :arm64 packages needs arm64 among dpkg's architectures and its package lists.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  dpkg --add-architecture arm64
  apt-get update -q >/dev/null
fi
debs=$dir/.debs
rm -rf "$debs"
mkdir -p "$debs"
(cd "$debs" && { apt-get download -q -o APT::Sandbox::User=root "${packages[@]}" >/dev/null \
  || { apt-get update -q >/dev/null && apt-get download -q -o APT::Sandbox::User=root "${packages[@]}" >/dev/null; }; })

rm -f "$stamp"
for deb in "$debs"/*.deb; do dpkg -x "$deb" "$dir"; done
# Absolute links (zlib's libz.so -> /lib/aarch64-linux-gnu/...) would point into the host: point them
# at the same file inside the sysroot.
find "$dir" -type l -lname '/*' -print0 | while IFS= read -r -d '' link; do
  ln -sfr "$dir$(readlink "$link")" "$link"
done
# Every lib*.so link of a -dev package must reach its runtime library, and every library's DT_NEEDED
# must be here or in the toolchain, or linking fails far from here.
problems=$(find "$dir/usr/lib" "$dir/lib" -xtype l -printf '\ndangling link: %p' 2>/dev/null || true)
for needed in $(find "$dir/usr/lib" "$dir/lib" -name 'lib*.so*' -type f -exec readelf -d {} + 2>/dev/null \
                  | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | sort -u); do
  [ -e "$dir/usr/lib/aarch64-linux-gnu/$needed" ] || [ -e "$dir/lib/aarch64-linux-gnu/$needed" ] \
    || [ -e "/usr/aarch64-linux-gnu/lib/$needed" ] || problems+=$'\n'"no $needed, which a library needs"
done
if [ -n "$problems" ]; then
  echo "arm64_sysroot: a runtime package is missing from the list:$problems" >&2
  exit 1
fi
printf '%s\n' "$want" >"$stamp"
echo "arm64_sysroot: ${#packages[@]} packages in $dir"
