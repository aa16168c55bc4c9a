// common::spawn: the child holds exactly the descriptors asked for and the environment given, and
// a failed start says which step failed and why.
#include "common/spawn.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace common {
namespace {

// Runs `spec` with its output in a pipe (fds 1 and 2 unless the spec maps them) and returns the
// output; `status` gets the child's wait status.
std::string run_and_read(SpawnSpec spec, int& status) {
  int out[2];
  EXPECT_EQ(::pipe2(out, O_CLOEXEC), 0);
  spec.fds.insert(spec.fds.begin(), {{out[1], 1}, {out[1], 2}});
  const Spawned child = spawn(spec);
  ::close(out[1]);
  EXPECT_GT(child.pid, 0) << child.error;
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  ::close(out[0]);
  if (child.pid > 0) ::waitpid(child.pid, &status, 0);
  return text;
}

// The descriptors a child sees, from /proc/self/fd (without the one ls reads it through).
std::set<int> descriptors_listed(const std::string& ls_output) {
  std::set<int> fds;
  std::istringstream lines(ls_output);
  std::string line;
  while (std::getline(lines, line)) {
    const auto arrow = line.find(" -> ");
    if (arrow == std::string::npos) continue;
    const auto name_start = line.rfind(' ', arrow - 1) + 1;
    if (line.compare(arrow + 4, 6, "/proc/") == 0) continue;
    fds.insert(std::stoi(line.substr(name_start, arrow - name_start)));
  }
  return fds;
}

TEST(Spawn, TheChildHoldsOnlyTheDescriptorsGiven) {
  // Open in this process without close-on-exec, at a number in the child's range and above it.
  const int leaked_low = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(leaked_low, 0);
  ASSERT_EQ(::dup2(leaked_low, 4), 4);
  ASSERT_EQ(::dup2(leaked_low, 40), 40);
  const int given = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
  SpawnSpec spec;
  spec.path = "/bin/ls";
  spec.argv = {"ls", "-l", "/proc/self/fd/"};
  spec.env = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
  spec.fds = {{given, 0}, {given, 5}};
  int status = 0;
  const std::string listing = run_and_read(spec, status);
  ::close(given);
  ::close(4);
  ::close(40);
  if (leaked_low != 4 && leaked_low != 40) ::close(leaked_low);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << listing;
  EXPECT_EQ(descriptors_listed(listing), (std::set<int>{0, 1, 2, 5})) << listing;
  EXPECT_NE(listing.find("5 -> /dev/zero"), std::string::npos) << listing;
}

TEST(Spawn, ADescriptorMarkedCloseOnExecIsGoneAfterTheExec) {
  const int given = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
  SpawnSpec spec;
  spec.path = "/bin/ls";
  spec.argv = {"ls", "-l", "/proc/self/fd/"};
  spec.fds = {{given, 0}, {given, 5, true}};
  int status = 0;
  const std::string listing = run_and_read(spec, status);
  ::close(given);
  EXPECT_EQ(descriptors_listed(listing), (std::set<int>{0, 1, 2})) << listing;
}

TEST(Spawn, TheEnvironmentIsExactlyTheOneGiven) {
  ::setenv("LABS_SPAWN_TEST_SECRET", "hunter2", 1);
  SpawnSpec spec;
  spec.path = "/usr/bin/env";
  spec.argv = {"env"};
  spec.env = {"PATH=/nowhere", "ONE=1", "TWO=two words"};
  int status = 0;
  const std::string output = run_and_read(spec, status);
  ::unsetenv("LABS_SPAWN_TEST_SECRET");
  EXPECT_EQ(output, "PATH=/nowhere\nONE=1\nTWO=two words\n");
}

TEST(Spawn, TheChildLeadsAProcessGroupOfItsOwnInItsFolder) {
  SpawnSpec spec;
  spec.path = "/bin/sh";
  spec.argv = {"sh", "-c", "cut -d' ' -f5 /proc/$$/stat; echo $$; pwd"};
  spec.env = {"PATH=/usr/bin:/bin"};
  spec.workdir = "/usr";
  int status = 0;
  const std::string output = run_and_read(spec, status);
  std::istringstream lines(output);
  std::string group, pid, folder;
  lines >> group >> pid >> folder;
  EXPECT_EQ(group, pid) << output;
  EXPECT_EQ(folder, "/usr");
}

// A process under a lower hard limit than the spec asks for (the lab program in the batch's
// sandbox, starting its launcher) starts the child at its own limit: raising a hard limit is
// refused to anyone but root, and was once every check's failure.
TEST(Spawn, ALimitAboveTheProcesssOwnHardLimitStaysAtIt) {
  const pid_t tester = ::fork();
  ASSERT_GE(tester, 0);
  if (tester == 0) {
    const rlimit small{1 << 20, 1 << 20};
    if (::setrlimit(RLIMIT_FSIZE, &small) != 0) ::_exit(10);
    if (::geteuid() == 0 && ::setuid(65534) != 0) ::_exit(11);  // as root anything is allowed
    SpawnSpec spec;
    spec.path = "/bin/sh";
    spec.argv = {"sh", "-c", "test \"$(ulimit -H -f)\" = 2048"};  // 1 MiB in 512-byte blocks
    spec.file_size_limit = 64 << 20;
    spec.nice = 5;
    const Spawned child = spawn(spec);
    if (child.pid < 0) ::_exit(12);
    int status = 0;
    ::waitpid(child.pid, &status, 0);
    ::_exit(WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 13);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(tester, &status, 0), tester);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: setrlimit, 11: setuid, 12: spawn failed, 13: limit";
}

TEST(Spawn, AnExecThatFailsIsReportedWithItsReason) {
  SpawnSpec spec;
  spec.path = "/nonexistent/program";
  spec.argv = {"program"};
  const Spawned child = spawn(spec);
  EXPECT_EQ(child.pid, -1);
  EXPECT_EQ(child.error,
            "cannot start /nonexistent/program: exec failed: No such file or directory");
}

TEST(Spawn, AFolderThatCannotBeEnteredIsReportedWithItsReason) {
  SpawnSpec spec;
  spec.path = "/bin/true";
  spec.argv = {"true"};
  spec.workdir = "/nonexistent";
  const Spawned child = spawn(spec);
  EXPECT_EQ(child.pid, -1);
  EXPECT_EQ(child.error,
            "cannot start /bin/true: changing to the working folder failed: No such file or "
            "directory");
}

TEST(Spawn, TheStepBeforeTheExecRunsInTheChild) {
  SpawnSpec spec;
  spec.path = "/bin/sh";
  spec.argv = {"sh", "-c", "echo $LABS_SPAWN_STEP"};
  spec.before_exec = [](void*) { [[maybe_unused]] auto n = ::write(1, "step\n", 5); };
  int status = 0;
  EXPECT_EQ(run_and_read(spec, status), "step\n\n");
}

// Fake forks for fork_with_patience: the host's process limit reached `busy_forks` times, then a
// child (pid 4242, never started).
int busy_forks = 0;
int forks_tried = 0;
pid_t fork_when_the_limit_frees() {
  ++forks_tried;
  if (forks_tried <= busy_forks) {
    errno = EAGAIN;
    return -1;
  }
  return 4242;
}
pid_t fork_out_of_memory() {
  ++forks_tried;
  errno = ENOMEM;
  return -1;
}

TEST(ForkWithPatience, AForkRefusedForAWhileByTheProcessLimitSucceedsOnceItFrees) {
  busy_forks = 3;
  forks_tried = 0;
  EXPECT_EQ(fork_with_patience(std::chrono::seconds(5), fork_when_the_limit_frees), 4242);
  EXPECT_EQ(forks_tried, 4);
}

TEST(ForkWithPatience, ItGivesUpWithEagainOnceItsPatienceIsSpent) {
  busy_forks = 1 << 30;
  forks_tried = 0;
  const auto start = std::chrono::steady_clock::now();
  errno = 0;
  EXPECT_EQ(fork_with_patience(std::chrono::milliseconds(200), fork_when_the_limit_frees), -1);
  EXPECT_EQ(errno, EAGAIN);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(200));
  EXPECT_LT(waited, std::chrono::seconds(2));  // pauses of at most 0.5 s past the patience
  EXPECT_GT(forks_tried, 2);
}

TEST(ForkWithPatience, AnotherFailureIsNotTriedAgain) {
  forks_tried = 0;
  EXPECT_EQ(fork_with_patience(std::chrono::seconds(5), fork_out_of_memory), -1);
  EXPECT_EQ(errno, ENOMEM);
  EXPECT_EQ(forks_tried, 1);
}

TEST(FindInPath, TheFirstExecutableFileInTheFoldersWins) {
  EXPECT_EQ(find_in_path("sh", "/nonexistent::/bin:/usr/bin"), "/bin/sh");
  EXPECT_EQ(find_in_path("no-such-program-here", "/bin:/usr/bin"), "");
  EXPECT_FALSE(is_executable_file("/usr"));
}

}  // namespace
}  // namespace common
