# SPDX-License-Identifier: LGPL-3.0-or-later
# Installs bigmul as a CMake package (find_package(bigmul CONFIG) ->
# bigmul::bigmul) and a pkg-config file. Included from the top-level
# CMakeLists.txt after every module is defined.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BIGMUL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/bigmul)

# The library targets bigmul links, found by walking its link graph, so the
# export set follows the modules as they are added. Post-order: every target
# comes after the targets that link it (the static link order).
function(_bigmul_collect_link_targets target out_targets out_imported)
  set(seen ${${out_targets}})
  set(imported ${${out_imported}})
  get_target_property(aliased ${target} ALIASED_TARGET)
  if(aliased)
    set(target ${aliased})
  endif()
  get_target_property(is_imported ${target} IMPORTED)
  if(is_imported)
    list(APPEND imported ${target})
    list(REMOVE_DUPLICATES imported)
    set(${out_imported} ${imported} PARENT_SCOPE)
    return()
  endif()
  if(target IN_LIST seen)
    return()
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type MATCHES "LIBRARY")
    return()
  endif()
  list(APPEND seen ${target})  # mark before recursing (cycles)
  set(${out_targets} ${seen} PARENT_SCOPE)
  get_target_property(deps ${target} LINK_LIBRARIES)
  get_target_property(ideps ${target} INTERFACE_LINK_LIBRARIES)
  set(order)
  foreach(dep IN LISTS deps ideps)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
    if(dep MATCHES "^\\$<" OR NOT TARGET "${dep}")
      continue()
    endif()
    _bigmul_collect_link_targets(${dep} seen imported)
  endforeach()
  # Re-order: this target first, then what it pulled in.
  list(REMOVE_ITEM seen ${target})
  list(INSERT seen 0 ${target})
  set(${out_targets} ${seen} PARENT_SCOPE)
  set(${out_imported} ${imported} PARENT_SCOPE)
endfunction()

set(_bigmul_targets)
set(_bigmul_imported)
_bigmul_collect_link_targets(bigmul _bigmul_targets _bigmul_imported)

# The public headers need C++20 (std::span, concepts): a consumer gets it from
# the target, whatever its compiler's default (GCC 12: C++17).
target_compile_features(bigmul INTERFACE cxx_std_20)

# CUDA builds link the CUDA runtime statically: the archive is installed
# beside the libraries, so a consumer of the CPU API needs no CUDA toolkit
# (bigmulConfig.cmake names it when CUDAToolkit is not found); the GPU API's
# headers do (find_package(bigmul COMPONENTS gpu)).
set(BIGMUL_CUDART_STATIC_NAME "")
if(BIGMUL_HAVE_CUDA AND TARGET CUDA::cudart_static)
  get_target_property(_bigmul_cudart CUDA::cudart_static IMPORTED_LOCATION)
  if(_bigmul_cudart)
    get_filename_component(BIGMUL_CUDART_STATIC_NAME ${_bigmul_cudart} NAME)
    install(FILES ${_bigmul_cudart} DESTINATION ${CMAKE_INSTALL_LIBDIR}/bigmul)
  endif()
endif()

# Static link order for pkg-config: bigmul first, each module before the ones
# it uses (mul before fft, carry, prim).
set(_bigmul_order bigmul bigmul_arith bigmul_mul bigmul_fft bigmul_carry bigmul_prim)
set(_bigmul_sorted)
foreach(t IN LISTS _bigmul_order _bigmul_targets)
  if(t IN_LIST _bigmul_targets AND NOT t IN_LIST _bigmul_sorted)
    list(APPEND _bigmul_sorted ${t})
  endif()
endforeach()

install(TARGETS ${_bigmul_sorted} EXPORT bigmulTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT bigmulTargets NAMESPACE bigmul:: DESTINATION ${BIGMUL_INSTALL_CMAKEDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/bigmul DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/include/bigmul/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bigmul)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bigmulConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/cmake/bigmulConfig.cmake
                              INSTALL_DESTINATION ${BIGMUL_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/bigmulConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/bigmulConfig.cmake ${PROJECT_BINARY_DIR}/cmake/bigmulConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindGMP.cmake
        DESTINATION ${BIGMUL_INSTALL_CMAKEDIR})

# pkg-config: relocatable (prefix from the .pc file's own location).
file(RELATIVE_PATH _bigmul_pc_to_prefix "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
set(BIGMUL_PC_PREFIX "\${pcfiledir}/${_bigmul_pc_to_prefix}")
string(REGEX REPLACE "/$" "" BIGMUL_PC_PREFIX "${BIGMUL_PC_PREFIX}")
set(BIGMUL_PC_LIBS)
foreach(t IN LISTS _bigmul_sorted)
  string(APPEND BIGMUL_PC_LIBS " -l${t}")
endforeach()
set(BIGMUL_PC_REQUIRES "gmp")
set(BIGMUL_PC_EXTRA_LIBS "-pthread")
foreach(t IN LISTS _bigmul_imported)
  if(t MATCHES "^CUDA::(.+)$")
    string(APPEND BIGMUL_PC_EXTRA_LIBS " -l${CMAKE_MATCH_1}")
  endif()
endforeach()
if(BIGMUL_HAVE_CUDA AND CUDAToolkit_LIBRARY_DIR)
  string(PREPEND BIGMUL_PC_EXTRA_LIBS "-L${CUDAToolkit_LIBRARY_DIR} ")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/bigmul.pc.in ${PROJECT_BINARY_DIR}/bigmul.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/bigmul.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# The licence: LGPL-3.0-or-later, whose text is the GPL-3.0 plus the LGPL's additions.
install(FILES ${PROJECT_SOURCE_DIR}/COPYING ${PROJECT_SOURCE_DIR}/COPYING.LESSER DESTINATION ${CMAKE_INSTALL_DOCDIR})
