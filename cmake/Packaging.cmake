# Install layout and the Debian package. Programs go to bin/, the capture shim to lib/ (where
# `msprobe-dump run` looks for it, beside ../bin), docs and man pages to share/.
install(TARGETS msprobe msprobe-compare msprobe-convert msprobe-dump msprobe-merge RUNTIME DESTINATION bin)
install(TARGETS msprobe_capture LIBRARY DESTINATION lib)
install(FILES README.md DESTINATION share/doc/msprobe-cpp)
install(FILES capture_shim/README.md DESTINATION share/doc/msprobe-cpp RENAME capture_shim.md)
install(DIRECTORY docs/ DESTINATION share/doc/msprobe-cpp FILES_MATCHING PATTERN "*.md")

# Man pages from each program's --help and --version (help2man), built with the programs.
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(man_pages "")
  set(summary_msprobe-compare "compare a target (NPU) dump with a golden (bench) dump")
  set(summary_msprobe "msprobe's command line (compare, merge_result, parse) over msprobe-cpp")
  set(summary_msprobe-convert "convert kernel .bin dumps to .npy or .pt")
  set(summary_msprobe-dump "inspect, verify and capture dumps")
  set(summary_msprobe-merge "merge per-rank compare results into one workbook")
  foreach(program msprobe msprobe-compare msprobe-convert msprobe-dump msprobe-merge)
    set(page ${PROJECT_BINARY_DIR}/man/${program}.1)
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1 "--name=${summary_${program}}"
              --output=${page} $<TARGET_FILE:${program}>
      DEPENDS ${program} VERBATIM)
    list(APPEND man_pages ${page})
  endforeach()
  add_custom_target(man_pages ALL DEPENDS ${man_pages})
  install(FILES ${man_pages} DESTINATION share/man/man1)
else()
  message(STATUS "help2man not found: no man pages")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME msprobe-cpp)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "msprobe-cpp maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Offline accuracy debugging for Ascend NPU dumps, compatible with msprobe")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # msprobe-cpp_<version>_<arch>.deb
# The target's architecture, not the build machine's (a cross build packages arm64 on x86-64).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The Debian 12 packages of the shared libraries the programs link (readelf -d), the same names on
# every architecture, with the minimum versions dpkg-shlibdeps derives on amd64. A list rather than
# dpkg-shlibdeps because that one finds packages only in the host's dpkg database, which a cross build
# (arm64 on x86-64) does not install into; scripts/package_check_arm64.sh runs the packaged programs
# with nothing but these packages' libraries, so a library missing here fails CI.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.36), libgcc-s1 (>= 3.0), libstdc++6 (>= 11), libfmt9 (>= 9.1.0+ds1), libtbb12 (>= 2021.4.0), \
libtbbmalloc2 (>= 2017~U7), libisal2 (>= 2.19.0), zlib1g (>= 1:1.2.2), libxlsxwriter4 (>= 1.1.4), libminizip1 (>= 1.1), libyaml-cpp0.7 (>= 0.7.0), \
libsqlite3-0 (>= 3.40.1)")
if(MSPROBE_MPI)
  # The MPI build's msprobe-compare and msprobe-merge (docs/distributed.md) need Debian's OpenMPI.
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libopenmpi3 (>= 4.1.4), openmpi-bin (>= 4.1.4)")
endif()
include(CPack)
