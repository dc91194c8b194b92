# Cross build for aarch64 (arm64) Linux on an x86-64 Debian 12 host: Debian's cross compiler
# (crossbuild-essential-arm64), the arm64 libraries unpacked by scripts/arm64_sysroot.sh into
# MSPROBE_ARM64_SYSROOT, and qemu-user-static to run what was built (tests, man pages).
# Usage: cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake -DMSPROBE_ARM64_SYSROOT=DIR ...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

if(NOT MSPROBE_ARM64_SYSROOT)
  message(FATAL_ERROR "set MSPROBE_ARM64_SYSROOT to the directory scripts/arm64_sysroot.sh filled")
endif()
# try_compile projects read this file again: they need the variable too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MSPROBE_ARM64_SYSROOT)

# --sysroot puts the sysroot in place of / for the compiler's /usr/include and /usr/lib/aarch64-linux-gnu,
# so nothing of the host's (its headers, or arm64 packages someone installed there) leaks in; libc and
# libstdc++ still come from the toolchain's own /usr/aarch64-linux-gnu, which --sysroot does not move.
set(CMAKE_SYSROOT ${MSPROBE_ARM64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH ${MSPROBE_ARM64_SYSROOT} /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)  # protoc and help2man run on the host
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(sysroot_libs ${MSPROBE_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu ${MSPROBE_ARM64_SYSROOT}/lib/aarch64-linux-gnu)
# The libraries' own dependencies (libprotobuf's zlib) are found at link time through -rpath-link.
list(JOIN sysroot_libs ":" MSPROBE_ARM64_LIBRARY_PATH)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-rpath-link,${MSPROBE_ARM64_LIBRARY_PATH}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-Wl,-rpath-link,${MSPROBE_ARM64_LIBRARY_PATH}")

# pkg-config (ISA-L, libxlsxwriter, minizip) reads the sysroot's .pc files, its paths prefixed by it.
set(ENV{PKG_CONFIG_LIBDIR} "${MSPROBE_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${MSPROBE_ARM64_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${MSPROBE_ARM64_SYSROOT})

# ctest and gtest_discover_tests run the test programs through qemu: the toolchain's loader (-L), the
# sysroot's libraries (the build RPATH leaves them out: CMake counts the sysroot's lib directories as
# system ones) and the toolchain's libc and libstdc++, named because qemu would otherwise find the
# loader's default /lib/aarch64-linux-gnu on the host (scripts/arm64_env.sh says the same for every
# other way an aarch64 program starts). Programs that start other aarch64 programs (the CLI and capture
# shim tests) need binfmt_misc as well: scripts/test_arm64.sh provides it.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L /usr/aarch64-linux-gnu
    -E LD_LIBRARY_PATH=${MSPROBE_ARM64_LIBRARY_PATH}:/usr/aarch64-linux-gnu/lib)
