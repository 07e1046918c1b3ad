# CMake package of flinch, installed as <prefix>/lib/cmake/flinch/flinchConfig.cmake by ffi/install.sh.
#
#   find_package(flinch REQUIRED)
#   target_link_libraries(app PRIVATE flinch::flinch)         # C ABI, shared libflinch.so
#   target_link_libraries(app PRIVATE flinch::flinch_static)  # C ABI or C++ API, static libflinch.a
#   # C++ API against the shared library: also compile ${flinch_CXX_GLUE} into the target (docs/ffi.md).
#
# Relocatable: the prefix is found from this file's location.
get_filename_component(_flinch_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

set(flinch_INCLUDE_DIR "${_flinch_prefix}/include")
set(flinch_CXX_GLUE "${_flinch_prefix}/include/flinch/src/bridge.rs.cc")

if(NOT TARGET flinch::flinch)
  add_library(flinch::flinch SHARED IMPORTED)
  set_target_properties(flinch::flinch PROPERTIES
    IMPORTED_LOCATION "${_flinch_prefix}/lib/libflinch.so"
    IMPORTED_SONAME "libflinch.so"
    INTERFACE_INCLUDE_DIRECTORIES "${flinch_INCLUDE_DIR}")
endif()

if(NOT TARGET flinch::flinch_static)
  find_package(Threads REQUIRED)
  add_library(flinch::flinch_static STATIC IMPORTED)
  set_target_properties(flinch::flinch_static PROPERTIES
    IMPORTED_LOCATION "${_flinch_prefix}/lib/libflinch.a"
    INTERFACE_INCLUDE_DIRECTORIES "${flinch_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "stdc++;Threads::Threads;${CMAKE_DL_LIBS};m")
endif()

unset(_flinch_prefix)
set(flinch_FOUND TRUE)
