// The CUDA runtime, emulated on the CPU (see docs/emulation.md). Files written for nvcc compile
// against this header unchanged once the build's rewriting step has turned their launches
// (kernel<<<grid, block>>>) into calls.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "emu/access.hpp"
#include "emu/control.hpp"
#include "emu/device.hpp"
#include "emu/launch.hpp"
#include "emu/runtime_api.hpp"
#include "emu/types.hpp"

#define LABS_EMULATION_RUNTIME 1
