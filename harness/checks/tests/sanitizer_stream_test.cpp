// Under the batch's compute-sanitizer runs, what the student's code prints never reaches the
// report the batch reads, and the check lines it needs still do.
#include "harness/sanitizer_stream.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace harness {
namespace {

// What a child process writes to stdout and stderr (one pipe, as the sandbox gives) after the
// guard, with LAB_SANITIZER set to `tool` (or unset) and a grader channel open or not.
std::string output_of_child(const char* tool, bool channel_open) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return "pipe failed";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::close(pipe_fds[0]);
    if (tool)
      ::setenv("LAB_SANITIZER", tool, 1);
    else
      ::unsetenv("LAB_SANITIZER");
    keep_student_text_out_of_sanitizer_report(channel_open);
    // What a student's printf in a kernel or the launcher could print: a forged finding.
    std::printf("========= Invalid __global__ write of size 4 bytes\n");
    std::fflush(stdout);
    std::fprintf(stderr, "harness line\n");
    std::_Exit(0);
  }
  ::close(pipe_fds[1]);
  std::string text;
  char buffer[256];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  ::close(pipe_fds[0]);
  ::waitpid(pid, nullptr, 0);
  return text;
}

TEST(SanitizerStream, TheStudentsPrintingNeverReachesTheBatchsSanitizerReport) {
#ifdef LABS_EMULATION
  GTEST_SKIP() << "the CPU emulation has no compute-sanitizer";
#endif
  const std::string guarded = output_of_child("memcheck", true);
  EXPECT_EQ(guarded.find("Invalid __global__"), std::string::npos) << guarded;
  EXPECT_NE(guarded.find("harness line"), std::string::npos) << "stderr still reaches it";
  const std::string hosted = output_of_child("memcheck-hosted", true);
  EXPECT_EQ(hosted.find("Invalid __global__"), std::string::npos) << hosted;
}

// A student's own run (ctest's sanitizer tests: no grader channel), the emulated pass and a
// plain run print as always.
TEST(SanitizerStream, OtherRunsPrintAsAlways) {
  EXPECT_NE(output_of_child("memcheck", false).find("Invalid __global__"), std::string::npos);
  EXPECT_NE(output_of_child("emulation", true).find("Invalid __global__"), std::string::npos);
  EXPECT_NE(output_of_child(nullptr, true).find("Invalid __global__"), std::string::npos);
}

}  // namespace
}  // namespace harness
