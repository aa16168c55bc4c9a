# labs_unity_build(<target>...): compile each library's C++ files a few at a time in one
# translation unit (CMake's UNITY_BUILD), so that fmt, nlohmann-json, GoogleTest and the standard
# headers are parsed once a batch rather than once a file. A student's first `make lab1` builds
# the harness, the contract, the reports and (without a GPU) the emulator: on 2 cores, 167 s
# before and 91 s after (make -j2; docs/architecture.md, "Libraries and who links what"). CUDA
# sources (.cu) stay translation units of their own: nvcc is not given merged files, and
# students' files are never in these targets. -DLABS_UNITY_BUILD=OFF builds file by file
# (quicker rebuilds while editing one file).
option(LABS_UNITY_BUILD "Build the project's own libraries as unity builds" ON)

function(labs_unity_build)
  if(NOT LABS_UNITY_BUILD)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON)
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.cu$")
    if(sources)
      set_source_files_properties(${sources} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
