// Sees what a student's launcher ran: the launches the runtime made for it (on a GPU the lab
// program's own replay; under the CPU emulation what the launcher process reported), told to
// every recorder alive (student/launch_observers.hpp).
#include "harness/launch_recorder.hpp"

#include <fmt/format.h>

#include "student/launch_observers.hpp"

namespace harness {

LaunchRecorder::LaunchRecorder() : observer_(new student::LaunchObserver) {
  student::add_launch_observer(static_cast<student::LaunchObserver*>(observer_));
}

LaunchRecorder::~LaunchRecorder() {
  auto* observer = static_cast<student::LaunchObserver*>(observer_);
  if (!stopped_) student::remove_launch_observer(observer);
  delete observer;
}

RecordedActivity LaunchRecorder::stop() {
  auto* observer = static_cast<student::LaunchObserver*>(observer_);
  if (!stopped_) student::remove_launch_observer(observer);
  stopped_ = true;
  RecordedActivity activity;
  activity.kernels = std::move(observer->kernels);
  activity.memory_copies = observer->memory_copies;
  *observer = {};
  return activity;
}

std::string describe_launch(const KernelLaunch& launch) {
  return fmt::format("{}: grid ({}, {}, {}) x block ({}, {}, {})", launch.name, launch.grid[0],
                     launch.grid[1], launch.grid[2], launch.block[0], launch.block[1],
                     launch.block[2]);
}

}  // namespace harness
