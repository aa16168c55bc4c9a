# Where the kernels run: LABS_BACKEND is "cuda" (nvcc builds them, a GPU runs them) or "emulation"
# (the host compiler builds them, the CPU runs them: see docs/emulation.md). "auto", the default,
# picks cuda when nvcc is installed and nvidia-smi finds a GPU, and emulation otherwise, and says
# so. Sets LABS_EMULATION (ON/OFF) and enables the CUDA language for the cuda backend only, so a
# machine without the CUDA toolkit configures too.
set(LABS_BACKEND "auto" CACHE STRING
    "Where kernels run: cuda, emulation (on the CPU), or auto (cuda when nvcc and a GPU are found)")
set_property(CACHE LABS_BACKEND PROPERTY STRINGS auto cuda emulation)
if(NOT LABS_BACKEND MATCHES "^(auto|cuda|emulation)$")
  message(FATAL_ERROR "LABS_BACKEND must be auto, cuda or emulation, not '${LABS_BACKEND}'")
endif()

set(_labs_backend "${LABS_BACKEND}")
if(_labs_backend STREQUAL "auto")
  include(CheckLanguage)
  check_language(CUDA)
  include("${CMAKE_CURRENT_LIST_DIR}/GpuProbe.cmake")
  if(NOT CMAKE_CUDA_COMPILER)
    set(_labs_backend emulation)
    set(_labs_why "no CUDA compiler (nvcc) found")
  elseif(NOT LABS_GPU_FOUND)
    set(_labs_backend emulation)
    set(_labs_why "no CUDA device found by nvidia-smi")
  else()
    set(_labs_backend cuda)
  endif()
endif()

if(_labs_backend STREQUAL "emulation")
  set(LABS_EMULATION ON)
  if(LABS_BACKEND STREQUAL "auto")
    message(STATUS "Backend: emulation (${_labs_why}): kernels run on the CPU, correctness and "
                   "structure are checked, speed is not measured. -DLABS_BACKEND=cuda builds for "
                   "a GPU anyway")
  else()
    message(STATUS "Backend: emulation (LABS_BACKEND=emulation): kernels run on the CPU, speed is "
                   "not measured")
  endif()
else()
  set(LABS_EMULATION OFF)
  enable_language(CUDA)
  message(STATUS "Backend: cuda (nvcc ${CMAKE_CUDA_COMPILER_VERSION})")
endif()
