// Part of the emulated CUDA runtime: everything is in cuda_runtime.h.
#pragma once
#include "cuda_runtime.h"
