# SPDX-License-Identifier: LGPL-3.0-or-later
# ctest api_reference: builds the API reference and fails on any Doxygen
# warning (an undocumented public entity, a broken reference), printing them.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${DOXYGEN} ${DOXYFILE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(log "")
if(EXISTS ${OUT}/warnings.txt)
  file(READ ${OUT}/warnings.txt log)
endif()
if(NOT rc EQUAL 0 OR NOT log STREQUAL "" OR NOT EXISTS ${OUT}/html/index.html)
  message(FATAL_ERROR "API reference: doxygen exit ${rc}; warnings:\n${log}${err}")
endif()
message(STATUS "API reference built warning-free: ${OUT}/html/index.html")
