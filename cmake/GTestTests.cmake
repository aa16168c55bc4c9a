# labs_gtest_discover_tests(<target> <gtest_discover_tests arguments>...): gtest_discover_tests,
# except for a test program that is not built yet (a build of some targets only, e.g. `make lab1`
# in a self-test build). gtest_discover_tests then registers a test "<target>_NOT_BUILT" whose
# command does not exist, and ctest (CMake 3.25 and 4.x alike) prints "Could not find executable
# <target>_NOT_BUILT" and the folders it looked in for it, on every `ctest -N` and every run.
# Here such a program gets one test "<TEST_PREFIX><target>.not_built" instead, which is skipped
# (exit 77) saying how to build the program; once it is built, its tests are the discovered ones.
include(GoogleTest)

function(labs_gtest_discover_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TEST_PREFIX" "PROPERTIES")
  set(labels self)
  set(next_is_labels OFF)
  foreach(item IN LISTS arg_PROPERTIES)
    if(next_is_labels)
      set(labels "${item}")
      break()
    endif()
    if(item STREQUAL "LABELS")
      set(next_is_labels ON)
    endif()
  endforeach()

  get_property(before DIRECTORY PROPERTY TEST_INCLUDE_FILES)
  gtest_discover_tests(${target} ${ARGN})
  get_property(after DIRECTORY PROPERTY TEST_INCLUDE_FILES)
  # The one file gtest_discover_tests added: it is included only once the program exists.
  list(LENGTH after count)
  math(EXPR last "${count} - 1")
  list(GET after ${last} discovered)
  set_property(DIRECTORY PROPERTY TEST_INCLUDE_FILES "${before}")

  set(name "${arg_TEST_PREFIX}${target}.not_built")
  set(reason "${target} is not built: make ${target} (or make all) builds it")
  file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/${target}_not_built_include.cmake" CONTENT
"if(EXISTS [==[$<TARGET_FILE:${target}>]==])
  include([==[${discovered}]==])
else()
  add_test([==[${name}]==] sh -c [==[echo '${reason}'; exit 77]==])
  set_tests_properties([==[${name}]==] PROPERTIES SKIP_RETURN_CODE 77 LABELS [==[${labels}]==])
endif()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES
               "${CMAKE_CURRENT_BINARY_DIR}/${target}_not_built_include.cmake")
endfunction()
