// The shape of a kernel launch (grid and block), as the GPU's launch recorder or the emulation saw
// it: what the launch limits judge and what the diagnosis rules read.
#pragma once

namespace harness {

// The launch that wrote the output, as recorded on the GPU.
struct LaunchShape {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
};

}  // namespace harness
