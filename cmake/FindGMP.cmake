# SPDX-License-Identifier: LGPL-3.0-or-later
# Finds GMP (C library and gmpxx) and defines GMP::gmp and GMP::gmpxx.
# GMP ships no CMake package but installs gmp.pc and gmpxx.pc: where
# pkg-config finds them, their directories and version come first; the
# search below still finds a GMP without them (built from source, no .pc).
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_GMP QUIET gmp)
  pkg_check_modules(PC_GMPXX QUIET gmpxx)
endif()
find_path(GMP_INCLUDE_DIR gmp.h HINTS ${PC_GMP_INCLUDEDIR} ${PC_GMP_INCLUDE_DIRS})
# BIGMUL_STATIC_GMP: prefer the static archives, so that a build folder runs on
# a machine without libgmp (the GPU machine: scripts/gpu-bundle.sh).
if(BIGMUL_STATIC_GMP)
  set(_gmp_names libgmp.a gmp)
  set(_gmpxx_names libgmpxx.a gmpxx)
else()
  set(_gmp_names gmp)
  set(_gmpxx_names gmpxx)
endif()
find_library(GMP_LIBRARY NAMES ${_gmp_names} HINTS ${PC_GMP_LIBDIR} ${PC_GMP_LIBRARY_DIRS})
find_library(GMPXX_LIBRARY NAMES ${_gmpxx_names} HINTS ${PC_GMPXX_LIBDIR} ${PC_GMPXX_LIBRARY_DIRS} ${PC_GMP_LIBDIR})
if(PC_GMP_VERSION)
  set(GMP_VERSION "${PC_GMP_VERSION}")
elseif(GMP_INCLUDE_DIR)
  file(GLOB _gmp_headers "${GMP_INCLUDE_DIR}/gmp.h" "${GMP_INCLUDE_DIR}/*/gmp.h")
  foreach(_h ${_gmp_headers})
    file(STRINGS "${_h}" _maj REGEX "^#define __GNU_MP_VERSION +[0-9]+")
    if(_maj)
      file(STRINGS "${_h}" _min REGEX "^#define __GNU_MP_VERSION_MINOR +[0-9]+")
      file(STRINGS "${_h}" _pat REGEX "^#define __GNU_MP_VERSION_PATCHLEVEL +[0-9]+")
      string(REGEX MATCH "[0-9]+$" _maj "${_maj}")
      string(REGEX MATCH "[0-9]+$" _min "${_min}")
      string(REGEX MATCH "[0-9]+$" _pat "${_pat}")
      set(GMP_VERSION "${_maj}.${_min}.${_pat}")
      break()
    endif()
  endforeach()
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(GMP REQUIRED_VARS GMP_LIBRARY GMPXX_LIBRARY GMP_INCLUDE_DIR
                                  VERSION_VAR GMP_VERSION)
if(GMP_FOUND AND NOT TARGET GMP::gmp)
  add_library(GMP::gmp UNKNOWN IMPORTED)
  set_target_properties(GMP::gmp PROPERTIES IMPORTED_LOCATION "${GMP_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${GMP_INCLUDE_DIR}")
  add_library(GMP::gmpxx UNKNOWN IMPORTED)
  set_target_properties(GMP::gmpxx PROPERTIES IMPORTED_LOCATION "${GMPXX_LIBRARY}"
                        INTERFACE_LINK_LIBRARIES GMP::gmp)
endif()
mark_as_advanced(GMP_INCLUDE_DIR GMP_LIBRARY GMPXX_LIBRARY)
