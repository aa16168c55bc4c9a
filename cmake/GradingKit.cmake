# The grading kit of a lab: everything `labgrade batch` needs to build a student's kernel.cu
# without the instructor's source tree. build/grading-kit/labN/ holds the lab's contract header,
# its spec, the checks and the harness as static libraries, and kit.json with the exact compile
# and link commands (the same flags CMake uses for the lab). The kit is what the sandbox shows a
# submission: no solutions, no other labs, no build tree.
set(LABS_KIT_ROOT "${CMAKE_BINARY_DIR}/grading-kit")
set(LABS_EMULATION_KIT_ROOT "" CACHE PATH
    "GPU builds: an emulation build's grading-kit folder (its labN_kit targets built), whose kits \
labgrade batch uses for the emulated memory and race pass; empty: no emulated pass")
if(NOT TARGET grading_kits)
  add_custom_target(grading_kits)
endif()

# nvcc flags for CMAKE_CUDA_ARCHITECTURES ("native", or entries like 80-real, 90, 90-virtual).
function(_labs_cuda_arch_flags out)
  set(flags "")
  set(archs "")
  foreach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
    # Kit builds run in a sandbox without the GPU, where nvcc cannot detect "native" itself.
    if(arch STREQUAL "native" AND LABS_NATIVE_CUDA_ARCHITECTURES)
      list(APPEND archs ${LABS_NATIVE_CUDA_ARCHITECTURES})
    elseif(arch STREQUAL "native" AND CMAKE_CUDA_ARCHITECTURES_NATIVE)
      list(APPEND archs ${CMAKE_CUDA_ARCHITECTURES_NATIVE})
    else()
      list(APPEND archs ${arch})
    endif()
  endforeach()
  foreach(arch IN LISTS archs)
    if(arch STREQUAL "native" OR arch STREQUAL "all" OR arch STREQUAL "all-major")
      list(APPEND flags "-arch=${arch}")
    elseif(arch MATCHES "^([0-9]+[a-z]?)-real$")
      list(APPEND flags "--generate-code=arch=compute_${CMAKE_MATCH_1},code=[sm_${CMAKE_MATCH_1}]")
    elseif(arch MATCHES "^([0-9]+[a-z]?)-virtual$")
      list(APPEND flags "--generate-code=arch=compute_${CMAKE_MATCH_1},code=[compute_${CMAKE_MATCH_1}]")
    elseif(arch MATCHES "^([0-9]+[a-z]?)$")
      list(APPEND flags
           "--generate-code=arch=compute_${arch},code=[compute_${arch},sm_${arch}]")
    endif()
  endforeach()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# Quotes each element of a CMake list as a JSON string array.
function(_labs_json_array out)
  set(items "")
  foreach(item IN LISTS ARGN)
    string(REPLACE "\\" "\\\\" item "${item}")
    string(REPLACE "\"" "\\\"" item "${item}")
    list(APPEND items "\"${item}\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

function(_labs_add_grading_kit lab folder lab_dir spec)
  set(kit "${LABS_KIT_ROOT}/${lab}")
  # The lab program is the kit's own, bin/labN, built once; a submission builds its launcher only.
  set(program "${kit}/bin/${lab}")
  # The checks as an archive: linked whole, since their tests register themselves from static
  # initializers that the linker would otherwise drop.
  add_library(${lab}_kit_checks STATIC EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${lab}_checks>)
  set_target_properties(${lab}_kit_checks PROPERTIES ARCHIVE_OUTPUT_DIRECTORY "${kit}/lib")

  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  separate_arguments(cxx_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${config}}")
  if(LABS_EMULATION)
    # The CPU emulation: the kit's "nvcc" is emucc (cmake/emucc.sh.in), which rewrites kernel.cu
    # with the kit's copy of labs_cu_rewrite and compiles the result with g++ against the kit's
    # copy of the emulation headers; the launcher links with the emulator and Boost.Context.
    set(compiler "${kit}/bin/emucc")
    set(backend emulation)
    _labs_json_array(compile_json ${cxx_flags} "-std=c++${CMAKE_CXX_STANDARD}" "-pthread"
                     "-DLABS_EMULATION=1" "-I${kit}/include" "-I${kit}/emulation-include")
    _labs_json_array(link_json ${cxx_flags} "-pthread" "-Wl,--start-group"
      "${kit}/lib/lib${lab}_launcher_main.a" "${kit}/lib/liblabs_wire.a"
      "${kit}/lib/liblabs_emulation.a" "-Wl,--end-group"
      "$<TARGET_LINKER_FILE:Boost::context>" "-ldl")
  else()
    _labs_cuda_arch_flags(arch_flags)
    separate_arguments(cuda_flags UNIX_COMMAND
                       "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${config}}")
    set(host_compiler "${CMAKE_CXX_COMPILER}")
    if(CMAKE_CUDA_HOST_COMPILER)
      set(host_compiler "${CMAKE_CUDA_HOST_COMPILER}")
    endif()
    # nvcc tells compilers apart by name: give it g++-12 rather than the c++ link that leads there.
    get_filename_component(host_compiler "${host_compiler}" REALPATH)
    set(compiler "${CMAKE_CUDA_COMPILER}")
    set(backend cuda)
    _labs_json_array(compile_json "-ccbin" "${host_compiler}" ${cuda_flags} ${arch_flags}
                     ${LABS_STUDENT_CUDA_FLAGS} "-std=c++${CMAKE_CUDA_STANDARD}"
                     "-I${kit}/include")
    # On a GPU a submission links into its launcher only (kernel.cu's host code against the
    # stand-in runtime, launcher/).
    _labs_json_array(link_json ${cxx_flags} "-Wl,--start-group"
      "${kit}/lib/lib${lab}_launcher_main.a" "${kit}/lib/liblabs_launcher_runtime.a"
      "${kit}/lib/liblabs_wire.a" "-Wl,--end-group")
  endif()
  # The toolchains the sandboxed build runs: a compiler outside /usr (e.g. /opt/gcc/bin/g++, or a
  # /usr/bin link into /opt) is bound read-only at its own path, its whole prefix (bin, lib,
  # libexec). nvcc is told that host compiler, not whatever `gcc` the sandbox's PATH finds.
  set(tool_prefixes "${kit}")
  foreach(tool "${CMAKE_CXX_COMPILER}" "${CMAKE_CUDA_HOST_COMPILER}" "${CMAKE_CUDA_COMPILER}")
    if(NOT tool)
      continue()
    endif()
    get_filename_component(real "${tool}" REALPATH)
    get_filename_component(prefix "${real}" DIRECTORY)
    get_filename_component(prefix "${prefix}" DIRECTORY)
    if(NOT prefix MATCHES "^/usr(/|$)" AND NOT prefix STREQUAL "/")
      list(APPEND tool_prefixes "${prefix}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES tool_prefixes)
  _labs_json_array(read_only_json ${tool_prefixes})
  # compute-sanitizer for the batch's memory and race pass (GPU kits only; empty: no pass).
  set(sanitizer "")
  set(cuobjdump "")
  if(LABS_COMPUTE_SANITIZER AND NOT LABS_EMULATION)
    set(sanitizer "${LABS_COMPUTE_SANITIZER}")
    # Lists a submission's kernels, so that the hosted memcheck run instruments them alone.
    if(LABS_CUOBJDUMP)
      set(cuobjdump "${LABS_CUOBJDUMP}")
    endif()
  endif()
  # An emulation build's kit of this lab for the batch's emulated pass (memory errors and races
  # found by the CPU emulator, docs/batch-grading-h100.md); GPU kits only.
  set(emulation_kit "")
  if(LABS_EMULATION_KIT_ROOT AND NOT LABS_EMULATION)
    set(emulation_kit "${LABS_EMULATION_KIT_ROOT}/${lab}")
  endif()
  set(reference "${PROJECT_SOURCE_DIR}/solutions/${folder}/kernel.cu")
  if(NOT EXISTS "${reference}")
    set(reference "")
  endif()
  # The optional bonus: a submission's bonus.cu, when present, is compiled and linked with its
  # kernel.cu (without it the bonus checks say "not attempted").
  set(reference_bonus "${PROJECT_SOURCE_DIR}/solutions/${folder}/bonus.cu")
  if(NOT EXISTS "${reference_bonus}")
    set(reference_bonus "")
  endif()
  file(GENERATE OUTPUT "${kit}/kit.json" CONTENT "{
  \"lab\": \"${lab}\",
  \"folder\": \"${folder}\",
  \"backend\": \"${backend}\",
  \"spec\": \"${kit}/spec.json\",
  \"handout\": \"${lab_dir}/README.md\",
  \"reference_kernel\": \"${reference}\",
  \"optional_sources\": [\"bonus.cu\"],
  \"reference_bonus\": \"${reference_bonus}\",
  \"program\": \"${program}\",
  \"nvcc\": \"${compiler}\",
  \"cxx\": \"${CMAKE_CXX_COMPILER}\",
  \"compile\": ${compile_json},
  \"link\": ${link_json},
  \"read_only\": ${read_only_json},
  \"sanitizer\": \"${sanitizer}\",
  \"cuobjdump\": \"${cuobjdump}\",
  \"emulation_kit\": \"${emulation_kit}\"
}
")
  file(GLOB headers "${lab_dir}/*.h")
  set(backend_files "")
  set(backend_targets "")
  if(LABS_EMULATION)
    configure_file("${PROJECT_SOURCE_DIR}/cmake/emucc.sh.in" "${kit}/bin/emucc" @ONLY
                   FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set(backend_files
      COMMAND "${CMAKE_COMMAND}" -E copy_directory "${PROJECT_SOURCE_DIR}/emulation/include"
              "${kit}/emulation-include"
      COMMAND "${CMAKE_COMMAND}" -E copy_if_different $<TARGET_FILE:labs_cu_rewrite> "${kit}/bin/"
      COMMAND "${CMAKE_COMMAND}" -E copy_if_different $<TARGET_FILE:labs_emulation> "${kit}/lib/")
    set(backend_targets labs_cu_rewrite labs_emulation)
  else()
    set(backend_files COMMAND "${CMAKE_COMMAND}" -E copy_if_different
                              $<TARGET_FILE:labs_launcher_runtime> "${kit}/lib/")
    set(backend_targets labs_launcher_runtime)
  endif()
  list(APPEND backend_files
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${kit}/bin"
    COMMAND "${CMAKE_COMMAND}" -E copy_if_different $<TARGET_FILE:${lab}> "${kit}/bin/"
    COMMAND "${CMAKE_COMMAND}" -E copy_if_different $<TARGET_FILE:${lab}_launcher_main>
            $<TARGET_FILE:labs_wire> "${kit}/lib/")
  list(APPEND backend_targets ${lab} ${lab}_launcher_main labs_wire)
  # The harness's libraries (harness/*/CMakeLists.txt), each folder's, and the contract.
  set(harness_targets harness_matmul harness harness_core harness_runtime harness_runtime_core
                      harness_mistakes labs_contract)
  set(harness_libraries "")
  foreach(target IN LISTS harness_targets)
    list(APPEND harness_libraries $<TARGET_FILE:${target}>)
  endforeach()
  add_custom_target(${lab}_kit
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${kit}/include" "${kit}/lib"
    COMMAND "${CMAKE_COMMAND}" -E copy_if_different ${headers} "${kit}/include/"
    COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${spec}" "${kit}/spec.json"
    COMMAND "${CMAKE_COMMAND}" -E copy_if_different ${harness_libraries} "${kit}/lib/"
    ${backend_files}
    DEPENDS ${lab}_kit_checks ${harness_targets} ${backend_targets} "${spec}"
            ${headers}
    COMMENT "Grading kit for ${lab} in ${kit}"
    VERBATIM)
  add_dependencies(${lab}_kit ${lab}_kit_checks ${harness_targets} ${backend_targets})
  if(NOT LABS_LABGRADE)
    add_dependencies(${lab}_kit labgrade)
  endif()
  add_dependencies(grading_kits ${lab}_kit)
endfunction()
