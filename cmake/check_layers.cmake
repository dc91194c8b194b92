# The rooms are layers (docs/architecture.md, "Layers"): a file may include headers of its own room
# and of the rooms below it, never above. Run as a test (`ctest -R layers`), or by hand:
#   cmake -DSOURCE_DIR=. -P cmake/check_layers.cmake
# Fails naming every include that points up or into a room not listed here.

# Bottom to top. A room is <library>/<folder>, for its sources (<library>/src/<folder>/) and its
# headers (<library>/include/msprobe/<ns>/<folder>/) alike.
set(LAYERS
  libdump/util libdump/io libdump/text libdump/tensor libdump/formats libdump/files libdump/framework
  libdump/kernel
  libops/args libops/tensor libops/reference libops/check
  libcompare/util libcompare/table libcompare/xlsx libcompare/rows libcompare/metrics libcompare/first_diff
  libcompare/output libcompare/report libcompare/recompute libcompare/trend libcompare/consistency libcompare/cluster
  libcompare/merge
  libcompare/jobs libcompare/mpi
  apps/common apps/programs)
set(NAMESPACE_LIBRARY_dump libdump)
set(NAMESPACE_LIBRARY_ops libops)
set(NAMESPACE_LIBRARY_compare libcompare)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_layers: pass -DSOURCE_DIR=<the project's root>")
endif()
get_filename_component(SOURCE_DIR "${SOURCE_DIR}" ABSOLUTE)

# The room of a file (relative to SOURCE_DIR), or "" when it is not in a library or apps/.
function(room_of_file path out)
  set(room "")
  if(path MATCHES "^(lib[a-z]+)/src/([a-z_]+)/")
    set(room "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
  elseif(path MATCHES "^(lib[a-z]+)/include/msprobe/[a-z]+/([a-z_]+)/")
    set(room "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
  elseif(path MATCHES "^libcompare/mpi/")
    set(room "libcompare/mpi")
  elseif(path MATCHES "^apps/common/")
    set(room "apps/common")
  elseif(path MATCHES "^apps/")
    set(room "apps/programs")
  elseif(path MATCHES "^lib[a-z]+/")
    set(room "unplaced")  # a library file outside every room
  endif()
  set(${out} "${room}" PARENT_SCOPE)
endfunction()

# The room an #include "…" of a file in `library` names, or "" for a header of the same folder.
function(room_of_include include library out)
  set(room "")
  if(include MATCHES "^msprobe/([a-z]+)/([a-z_]+)/")
    set(room "${NAMESPACE_LIBRARY_${CMAKE_MATCH_1}}/${CMAKE_MATCH_2}")
  elseif(include MATCHES "^msprobe/")
    set(room "unplaced")
  elseif(include MATCHES "^([a-z_]+)/")
    set(folder ${CMAKE_MATCH_1})
    if(library MATCHES "^lib")  # a library's own src/ (internal headers)
      set(room "${library}/${folder}")
    endif()
  endif()
  set(${out} "${room}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR}
  ${SOURCE_DIR}/libdump/*.h ${SOURCE_DIR}/libdump/*.cc ${SOURCE_DIR}/libops/*.h ${SOURCE_DIR}/libops/*.cc
  ${SOURCE_DIR}/libcompare/*.h ${SOURCE_DIR}/libcompare/*.cc ${SOURCE_DIR}/apps/*.h ${SOURCE_DIR}/apps/*.cc
  ${SOURCE_DIR}/capture_shim/src/*.h ${SOURCE_DIR}/capture_shim/src/*.cc)
set(violations "")
foreach(file IN LISTS files)
  file(STRINGS ${SOURCE_DIR}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  if(file MATCHES "^capture_shim/")
    # The shim goes into other people's processes: it includes none of our libraries.
    foreach(line IN LISTS includes)
      if(line MATCHES "\"msprobe/")
        list(APPEND violations "${file}: ${line} (the capture shim stands alone)")
      endif()
    endforeach()
    continue()
  endif()
  room_of_file(${file} room)
  if(room STREQUAL "unplaced")
    list(APPEND violations "${file}: not in a room")
    continue()
  endif()
  list(FIND LAYERS ${room} level)
  if(level EQUAL -1)
    list(APPEND violations "${file}: room ${room} is not in the layer list")
    continue()
  endif()
  string(REGEX MATCH "^[a-z]+" library ${file})
  foreach(line IN LISTS includes)
    string(REGEX MATCH "\"([^\"]+)\"" _ "${line}")
    room_of_include("${CMAKE_MATCH_1}" ${library} target)
    if(target STREQUAL "" OR target STREQUAL room)
      continue()
    endif()
    list(FIND LAYERS ${target} target_level)
    if(target_level EQUAL -1)
      list(APPEND violations "${file}: includes \"${CMAKE_MATCH_1}\", in no listed room")
    elseif(target_level GREATER level)
      list(APPEND violations "${file} (${room}): includes \"${CMAKE_MATCH_1}\" from ${target}, a room above it")
    endif()
  endforeach()
endforeach()

list(LENGTH violations count)
if(count GREATER 0)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "check_layers: ${count} include(s) break the layers (docs/architecture.md):\n  ${text}")
endif()
list(LENGTH files checked)
message(STATUS "check_layers: ${checked} files, every include points down")
