# Every dependency comes from the distribution (Debian 12 and Ubuntu 24.04 both package them);
# a missing one stops configuration with the package to install.
function(labs_require package apt_package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "${package} was not found. Install it with:\n"
                        "    sudo apt-get install ${apt_package}\n"
                        "or run scripts/install-deps.sh, which installs everything the labs need.")
  endif()
endfunction()

if(NOT LABS_EMULATION)
  labs_require(CUDAToolkit "the CUDA toolkit (nvcc, cuBLAS): https://developer.nvidia.com/cuda-downloads")
else()
  # The emulator's fibers (boost.context's fcontext: a switch costs tens of nanoseconds).
  labs_require(Boost libboost-context-dev 1.71 CONFIG COMPONENTS context)
  # Boost's headers alone (libboost-dev) can satisfy find_package(Boost) under CMake 4 without
  # the context library's target: say the package here, not in a generator expression later.
  if(NOT TARGET Boost::context)
    message(FATAL_ERROR "Boost.Context (the emulator's fibers) was not found. Install it with:\n"
                        "    sudo apt-get install libboost-context-dev\n"
                        "or run scripts/install-deps.sh, which installs everything the labs need.")
  endif()
endif()
labs_require(GTest libgtest-dev)
labs_require(fmt libfmt-dev)
labs_require(nlohmann_json nlohmann-json3-dev)
labs_require(CLI11 libcli11-dev)
find_package(Threads REQUIRED)

if(NOT LABS_EMULATION AND NOT TARGET CUDA::cupti)
  message(FATAL_ERROR "CUPTI (part of the CUDA toolkit) was not found: the launch-shape checks need it. "
                      "Install the full CUDA toolkit (cuda-toolkit-13-0 or later).")
endif()
