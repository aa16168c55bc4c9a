include_guard(GLOBAL)
# GPU tests under `ctest -j`: each takes a GPU of its own through ctest's resource allocation.
# At configure time scripts/ctest-gpu-resources.sh writes <build>/gpu-resources.json (one "gpus"
# resource of one slot per GPU) and CTEST_RESOURCE_SPEC_FILE points ctest at it, so a plain
# `ctest -j` uses it; every GPU test asks for "gpus:1" and cmake/ctest_gpu.sh sets
# CUDA_VISIBLE_DEVICES to the GPU ctest gave it. Timing tests thus never share a GPU, and a
# machine with several GPUs runs as many GPU tests at once.
# Without a GPU at configure time (or with LABS_CTEST_GPU_RESOURCES=OFF) ctest would ignore the
# resource groups, so the GPU tests take RESOURCE_LOCK gpu instead: one at a time, as before.
set(LABS_CTEST_GPU_RESOURCES "auto" CACHE STRING
    "GPU tests take a GPU each from a ctest resource spec: auto (when nvidia-smi lists GPUs), ON, OFF")
set_property(CACHE LABS_CTEST_GPU_RESOURCES PROPERTY STRINGS auto ON OFF)
set(LABS_GPU_RESOURCE_SPEC "${CMAKE_BINARY_DIR}/gpu-resources.json")
set(LABS_GPU_TESTS_USE_RESOURCES OFF)
if(NOT LABS_CTEST_GPU_RESOURCES STREQUAL "OFF")
  execute_process(
    COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/../scripts/ctest-gpu-resources.sh"
            "${LABS_GPU_RESOURCE_SPEC}"
    RESULT_VARIABLE labs_gpu_spec_status OUTPUT_VARIABLE labs_gpu_spec_output
    ERROR_VARIABLE labs_gpu_spec_output OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(labs_gpu_spec_status EQUAL 0)
    set(LABS_GPU_TESTS_USE_RESOURCES ON)
    # Written into the top CTestTestfile.cmake: ctest uses it unless --resource-spec-file says
    # otherwise.
    set(CTEST_RESOURCE_SPEC_FILE "${LABS_GPU_RESOURCE_SPEC}")
    message(STATUS "GPU tests: one GPU each under ctest -j (${LABS_GPU_RESOURCE_SPEC})")
  elseif(LABS_CTEST_GPU_RESOURCES STREQUAL "ON")
    message(FATAL_ERROR "LABS_CTEST_GPU_RESOURCES=ON but: ${labs_gpu_spec_output}")
  else()
    file(REMOVE "${LABS_GPU_RESOURCE_SPEC}")
  endif()
endif()

# Marks a test as one that runs kernels on a GPU: timings need the GPU alone, so never two such
# tests on one GPU, even under ctest -j. The CPU emulation measures no time: its checks may run
# side by side.
function(labs_gpu_test test)
  if(LABS_EMULATION)
    return()
  elseif(LABS_GPU_TESTS_USE_RESOURCES)
    set_tests_properties(${test} PROPERTIES RESOURCE_GROUPS "gpus:1")
  else()
    set_tests_properties(${test} PROPERTIES RESOURCE_LOCK gpu)
  endif()
endfunction()
