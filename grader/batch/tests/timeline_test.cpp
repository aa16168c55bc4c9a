#include "batch/timeline.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace batch {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// scripts/batch-timeline.py reads these lines: a header, then seconds,submission,phase,event with
// the seconds never going back, one whole line per mark even from many threads at once.
TEST(Timeline, OneWholeLinePerMarkInTimeOrder) {
  const fs::path file = fs::temp_directory_path() / "labgrade-timeline-test.csv";
  {
    Timeline timeline(file);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < 50; ++i) {
          timeline.mark("student-" + std::to_string(t), "speed@0", i % 2 ? "end" : "start");
        }
      });
    }
    for (auto& thread : threads) thread.join();
  }
  const auto lines = lines_of(file);
  ASSERT_EQ(lines.size(), 201u);
  EXPECT_EQ(lines[0], "seconds,submission,phase,event");
  double last = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::istringstream fields(lines[i]);
    std::string seconds, submission, phase, event, extra;
    ASSERT_TRUE(std::getline(fields, seconds, ',') && std::getline(fields, submission, ',') &&
                std::getline(fields, phase, ',') && std::getline(fields, event, ','))
        << lines[i];
    EXPECT_FALSE(std::getline(fields, extra, ',')) << lines[i];
    EXPECT_EQ(phase, "speed@0");
    EXPECT_TRUE(event == "start" || event == "end") << lines[i];
    EXPECT_GE(std::stod(seconds), last) << lines[i];
    last = std::stod(seconds);
  }
  fs::remove(file);
}

TEST(Timeline, AnEmptyPathRecordsNothing) {
  Timeline timeline{fs::path()};
  timeline.mark("student", "build", "start");  // must not crash
  SUCCEED();
}

}  // namespace
}  // namespace batch
