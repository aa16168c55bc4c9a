# labs_device_sources(<out-var> <tag> <source>...): the sources a target compiles, for the
# backend in use. With cuda they are returned unchanged. With emulation every .cu file is
# rewritten by labs_cu_rewrite (emulation/rewriter: launches become calls, #line keeps messages
# on the original file) into <build>/emulated/<tag>/<path>.cpp, which the host compiler builds
# against the emulator's cuda_runtime.h. `tag` (the target's name) keeps the outputs of targets
# that share a source apart.
function(labs_device_sources out tag)
  if(NOT LABS_EMULATION)
    set(${out} ${ARGN} PARENT_SCOPE)
    return()
  endif()
  set(result "")
  foreach(source IN LISTS ARGN)
    get_filename_component(absolute "${source}" ABSOLUTE)
    if(NOT absolute MATCHES "\\.cu$")
      list(APPEND result "${absolute}")
      continue()
    endif()
    file(RELATIVE_PATH relative "${PROJECT_SOURCE_DIR}" "${absolute}")
    if(relative MATCHES "^\\.\\./")
      string(MD5 hash "${absolute}")
      get_filename_component(name "${absolute}" NAME)
      set(relative "external/${hash}/${name}")
    endif()
    set(generated "${CMAKE_BINARY_DIR}/emulated/${tag}/${relative}.cpp")
    add_custom_command(
      OUTPUT "${generated}"
      COMMAND labs_cu_rewrite "${absolute}" "${generated}"
      DEPENDS "${absolute}" labs_cu_rewrite
      COMMENT "Rewriting ${relative} for the CPU emulation"
      VERBATIM)
    list(APPEND result "${generated}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()
