// One conversation with the student's launcher process, the same on a GPU and under the CPU
// emulation: start it (early, in the background of the lab program's own start-up), take its
// hello, and ask it to run one contract function at a time, showing the student what it printed.
// What the answers mean is the runtime's business (student_runtime.cpp, emulated_runtime.cpp).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/student_call.hpp"
#include "launcher_process.hpp"

namespace harness::student {

class LauncherSession {
 public:
  // Starts the launcher, `arena_fd` (or -1) handed over as its fd 4; a failure is reported by
  // hello().
  void spawn(const std::string& path, int arena_fd = -1);
  bool spawned() const { return process_ != nullptr; }
  // The launcher's hello (throws std::runtime_error saying why there is none).
  nlohmann::json hello();
  // Sends the one reply to the hello (throws std::runtime_error when the launcher has gone).
  void reply(const nlohmann::json& message);
  // Runs one request; the answer is an object. Throws StudentError when the launcher failed,
  // has failed before, or answered {"error": why}.
  nlohmann::json ask(const nlohmann::json& request, const std::string& call_text, int deadline_ms);
  // What the launcher printed since the last look, as "\nIt printed:\n..." (or nothing).
  std::string output_suffix();

 private:
  std::unique_ptr<LauncherProcess> process_;
  std::string path_;
  int arena_fd_ = -1;
  std::string lost_;  // why the launcher can answer no more
};

// The program set_student_launcher named (empty before).
const std::string& student_launcher();

// "copy_matrix(in, out, 256, 256)": the lab's buffers by name, the other parameters as ints
// (every contract parameter that is not a pointer is an int).
std::string describe_call(const std::string& name, const StudentArgs& args);

}  // namespace harness::student
