#!/usr/bin/env bash
# Builds the arm64 Debian package from a cross build (scripts/test_arm64.sh) and checks it without
# installing it into the x86-64 host: its architecture, contents and aarch64 programs, then each
# program run under qemu from the unpacked package with no libraries but those of the packages its
# Depends names (unpacked from the sysroot's downloads), so a library missing from Depends fails here.
# Usage: scripts/package_check_arm64.sh BUILD_DIR   (the sysroot is BUILD_DIR-sysroot)
set -euo pipefail
build=$(cd "${1:?usage: scripts/package_check_arm64.sh BUILD_DIR}" && pwd)
debs=$build-sysroot/.debs
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/msprobe-cpp_*_arm64.deb)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "package_arm64: FAIL: $1" >&2; exit 1; fi; }

programs=(msprobe msprobe-compare msprobe-convert msprobe-dump msprobe-merge)
check "Architecture: arm64" '[ "$(dpkg-deb -f "$deb" Architecture)" = arm64 ]'
contents=$(dpkg-deb -c "$deb")
check "programs, shim and man pages packaged" \
  'for p in "${programs[@]}"; do grep -q " ./usr/bin/$p\$" <<<"$contents" && grep -q " ./usr/share/man/man1/$p.1" <<<"$contents" || exit 1; done
   grep -q " ./usr/lib/libmsprobe_capture.so$" <<<"$contents"'
dpkg -x "$deb" "$work/pkg"
check "every packaged program and the shim are aarch64 ELF" \
  'for f in "$work"/pkg/usr/bin/* "$work"/pkg/usr/lib/libmsprobe_capture.so; do readelf -h "$f" | grep -q "Machine: *AArch64" || exit 1; done'

# The libraries of the Depends packages and of what they depend on in turn (libxlsxwriter4 on libssl3),
# as apt would install them; libc, libgcc and libstdc++ are the toolchain's (qemu -L).
depends=$(dpkg-deb -f "$deb" Depends)
names() { sed 's/([^)]*)//g; s/|[^,]*//g; s/:any//g; s/,/ /g'; }  # a Depends field's first choices
mkdir "$work/deps"
queue=($(names <<<"$depends"))
seen=" libc6 libgcc-s1 libstdc++6 "
while ((${#queue[@]})); do
  name=${queue[0]}; queue=("${queue[@]:1}")
  [[ $seen == *" $name "* ]] && continue
  seen+="$name "
  dep=$(ls "$debs/${name}_"*_arm64.deb 2>/dev/null) || { echo "package_arm64: FAIL: no arm64 $name in $debs" >&2; exit 1; }
  dpkg -x "$dep" "$work/deps"
  queue+=($(dpkg-deb -f "$dep" Depends | names))
done
toolchain=/usr/aarch64-linux-gnu/lib
libs=$work/deps/usr/lib/aarch64-linux-gnu:$work/deps/lib/aarch64-linux-gnu:$toolchain
emulate() { qemu-aarch64-static -L /usr/aarch64-linux-gnu -E "LD_LIBRARY_PATH=$libs" "$@"; }
# qemu falls back to the host's files for what the toolchain lacks, so a library could still come from
# arm64 packages installed on the host: each must resolve in the Depends libraries or the toolchain.
check "Depends provides every library (resolved in it or the toolchain)" \
  'for p in "${programs[@]}"; do
     emulate -E LD_TRACE_LOADED_OBJECTS=1 "$work/pkg/usr/bin/$p" | grep "=>" \
       | grep -Ev "=> ($work/deps/|$toolchain/)" && exit 1
   done; true'
check "each unpacked program runs: --version" \
  'for p in "${programs[@]}"; do emulate "$work/pkg/usr/bin/$p" --version | grep -q msprobe-cpp || exit 1; done'
echo "package_arm64: $passed passed, 0 failed ($(basename "$deb"): Depends: $depends)"
