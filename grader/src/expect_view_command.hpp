// `labcheck expect launcher-view`: the test of the launcher isolated by hand
// (labN.isolation.launcher_view, cmake/AddLab.cmake). The lab program runs one check as `labcheck
// run` runs it, without bubblewrap (LABGRADE_BWRAP names none), as root, with a --seed on its
// command line, and its launcher is a shell script in a folder under /tmp that prints what it
// sees and exits; launcher_view_expectation.cpp decides whether that view is the one it must
// have. Skipped when not root, which cannot isolate by hand.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct LauncherViewOptions {
  std::string spec;
  std::string results_dir;
  std::string check;
  std::vector<std::string> command;  // the lab program and its arguments
};

int expect_launcher_view_command(const LauncherViewOptions& options);

}  // namespace grader
