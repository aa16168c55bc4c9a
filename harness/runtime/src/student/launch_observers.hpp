// The LaunchRecorders alive now (harness/launch_recorder.hpp), which the runtime tells of every
// launch it makes for the student, and of every copy of the lab's buffers.
#pragma once

#include <vector>

#include "harness/launch_recorder.hpp"

namespace harness::student {

struct LaunchObserver {
  std::vector<KernelLaunch> kernels;
  int memory_copies = 0;
};

void add_launch_observer(LaunchObserver* observer);
void remove_launch_observer(LaunchObserver* observer);
const std::vector<LaunchObserver*>& launch_observers();

}  // namespace harness::student
