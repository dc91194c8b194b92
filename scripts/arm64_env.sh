# Sourced, not run: exports what qemu-aarch64-static needs to run the cross-built programs however they
# are started (directly, by binfmt_misc, or by another aarch64 program): the cross toolchain's loader
# (QEMU_LD_PREFIX), then the sysroot's libraries and the toolchain's libc and libstdc++ (LD_LIBRARY_PATH;
# x86-64 programs skip them). The toolchain's lib directory is named because the loader's own default,
# /lib/aarch64-linux-gnu, is not in it, and qemu falls back to the host's directory of that name,
# where arm64 packages installed on the host would be found instead. cmake/toolchain-aarch64.cmake
# gives ctest's emulator the same.
# Usage: source scripts/arm64_env.sh SYSROOT   (the directory scripts/arm64_sysroot.sh filled)
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
export LD_LIBRARY_PATH=${1:?usage: source scripts/arm64_env.sh SYSROOT}/usr/lib/aarch64-linux-gnu:$1/lib/aarch64-linux-gnu:/usr/aarch64-linux-gnu/lib
