# labspec (contract/tools/labspec_main.cpp): the spec's reader, table and defaults of contract/ as
# a small program, built here, when CMake configures, and again only when its sources change.
# add_lab asks it for a lab's checks (ids, kinds, time limits, bonus ids) in a generated CMake
# file, so CMake never parses spec.json itself and a spec error stops configuration with the same
# one line labcheck would print. `build/tools/labspec keys` prints docs/spec.md's table.
set(LABS_SPEC_TOOL "${CMAKE_BINARY_DIR}/tools/labspec")
set(_labspec_sources "${PROJECT_SOURCE_DIR}/contract/tools/labspec_main.cpp"
                     "${PROJECT_SOURCE_DIR}/contract/src/spec.cpp"
                     "${PROJECT_SOURCE_DIR}/contract/src/spec_schema.cpp")
set(_labspec_inputs ${_labspec_sources}
                    "${PROJECT_SOURCE_DIR}/contract/include/contract/spec.hpp"
                    "${PROJECT_SOURCE_DIR}/contract/include/contract/spec_schema.hpp")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_labspec_inputs})

set(_labspec_stale OFF)
foreach(input IN LISTS _labspec_inputs)
  if(NOT EXISTS "${LABS_SPEC_TOOL}" OR "${input}" IS_NEWER_THAN "${LABS_SPEC_TOOL}")
    set(_labspec_stale ON)
  endif()
endforeach()
if(_labspec_stale)
  message(STATUS "Building labspec, the spec reader add_lab asks for each lab's checks")
  try_compile(_labspec_built "${CMAKE_BINARY_DIR}/tools/labspec-build"
    SOURCES ${_labspec_sources}
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${PROJECT_SOURCE_DIR}/contract/include"
                "-DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}"
    COMPILE_DEFINITIONS -O1
    LINK_LIBRARIES fmt::fmt nlohmann_json::nlohmann_json
    CXX_STANDARD 20
    CXX_STANDARD_REQUIRED ON
    OUTPUT_VARIABLE _labspec_output
    COPY_FILE "${LABS_SPEC_TOOL}")
  if(NOT _labspec_built)
    message(FATAL_ERROR "Could not build labspec (contract/tools/labspec_main.cpp):\n"
                        "${_labspec_output}")
  endif()
endif()

# labs_read_spec(<spec.json> <lab>): sets LAB_SPEC_IDS, LAB_SPEC_KINDS, LAB_SPEC_TIMEOUTS (whole
# seconds, the spec's or contract::kDefaultCheckSeconds; the emulation's under LABS_EMULATION)
# and LAB_SPEC_BONUS_IDS in the caller's scope, from labspec's generated build/specs/<lab>.cmake.
macro(labs_read_spec spec_file lab)
  set(_labspec_args cmake "${spec_file}" "${CMAKE_BINARY_DIR}/specs/${lab}.cmake")
  if(LABS_EMULATION)
    list(APPEND _labspec_args --emulation)
  endif()
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/specs")
  execute_process(COMMAND "${LABS_SPEC_TOOL}" ${_labspec_args}
                  RESULT_VARIABLE _labspec_status ERROR_VARIABLE _labspec_error)
  if(NOT _labspec_status EQUAL 0)
    string(STRIP "${_labspec_error}" _labspec_error)
    message(FATAL_ERROR "${_labspec_error}")
  endif()
  include("${CMAKE_BINARY_DIR}/specs/${lab}.cmake")
endmacro()
