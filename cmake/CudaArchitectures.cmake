# Chooses CMAKE_CUDA_ARCHITECTURES before the CUDA language is enabled: "native" where a GPU is
# present (fast builds for the card the student has), a fixed list otherwise (CI has no GPU, and a
# student kit built on a login node should still run on the common teaching cards).
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()

# sm_80 code also runs on 8.6 and 8.9 cards; compute_90 PTX lets newer cards JIT it.
set(LABS_FALLBACK_CUDA_ARCHITECTURES "75-real;80-real;90"
    CACHE STRING "CUDA architectures used when no GPU is found at configure time")

include("${CMAKE_CURRENT_LIST_DIR}/GpuProbe.cmake")
if(LABS_GPU_FOUND)
  # "native" asks the driver at compile time, which a sandboxed build without the GPU's device
  # nodes cannot do (nvcc crashes): the grading kit uses the capabilities read here instead.
  string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _labs_caps "${LABS_GPU_COMPUTE_CAPS}")
  list(TRANSFORM _labs_caps REPLACE "\\." "")
  list(REMOVE_DUPLICATES _labs_caps)
  set(LABS_NATIVE_CUDA_ARCHITECTURES "${_labs_caps}" CACHE INTERNAL "compute capabilities found")
  set(CMAKE_CUDA_ARCHITECTURES native CACHE STRING "CUDA architectures")
  message(STATUS "CUDA architectures: native (GPU compute capability ${LABS_GPU_COMPUTE_CAPS})")
else()
  set(CMAKE_CUDA_ARCHITECTURES "${LABS_FALLBACK_CUDA_ARCHITECTURES}" CACHE STRING "CUDA architectures")
  message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES} (no GPU found at configure time)")
endif()
