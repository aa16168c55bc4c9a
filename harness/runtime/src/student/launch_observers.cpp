#include "launch_observers.hpp"

#include <algorithm>

namespace harness::student {
namespace {

std::vector<LaunchObserver*>& observers() {
  static std::vector<LaunchObserver*> all;
  return all;
}

}  // namespace

void add_launch_observer(LaunchObserver* observer) { observers().push_back(observer); }

void remove_launch_observer(LaunchObserver* observer) { std::erase(observers(), observer); }

const std::vector<LaunchObserver*>& launch_observers() { return observers(); }

}  // namespace harness::student
