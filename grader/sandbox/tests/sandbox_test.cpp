// The sandbox of batch grading, tested with what a hostile submission would try (hostile.cpp):
// every escape must fail inside, and every runaway must be stopped and reported. The same
// program run without isolation shows that each attempt would have worked, so a test cannot pass
// because the hostile program itself is broken.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "sandbox/sandbox.hpp"

namespace sandbox {
namespace {

namespace fs = std::filesystem;

const Capabilities& capabilities() {
  static const Capabilities caps = probe();
  return caps;
}

// A scratch folder per test, readable by the sandbox's own uid when the tests run as root.
class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!capabilities().bubblewrap) {
      GTEST_SKIP() << "bubblewrap does not work here: " << capabilities().why_not;
    }
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    scratch_ = fs::temp_directory_path() / (std::string("labgrade-sandbox-test-") + info->name() +
                                            "-" + std::to_string(::getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_ / "work");
    fs::permissions(scratch_, fs::perms::all);
    secret_ = scratch_ / "secret.txt";
    std::ofstream(secret_) << "the instructor's solution\n";
  }
  void TearDown() override {
    std::error_code ignored;
    if (!scratch_.empty()) fs::remove_all(scratch_, ignored);
  }

  // The hostile program's folder read-only at /prog, the scratch work folder writable at /work.
  Policy policy() const {
    Policy p;
    p.binds.push_back({fs::path(HOSTILE_PATH).parent_path(), "/prog", false});
    p.binds.push_back({scratch_ / "work", "/work", true});
    p.workdir = "/work";
    p.time_limit_s = 20;
    return p;
  }

  Result hostile(const Policy& p, std::vector<std::string> args) const {
    const std::string program = p.isolate ? "/prog/" + fs::path(HOSTILE_PATH).filename().string()
                                          : std::string(HOSTILE_PATH);
    args.insert(args.begin(), program);
    return run(p, args);
  }

  fs::path scratch_;
  fs::path secret_;
};

TEST_F(SandboxTest, AnOrdinaryProgramRunsAndItsOutputIsKept) {
  const auto result = run(policy(), {"sh", "-c", "echo hello; echo oops >&2; exit 3"});
  EXPECT_FALSE(result.failed_to_start) << result.output;
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.output.find("hello"), std::string::npos);
  EXPECT_NE(result.output.find("oops"), std::string::npos);
  EXPECT_EQ(describe(result), "exit code 3");
}

// The batch's emulated pass runs at the lowest priority; isolated or not, the program (and what
// it starts: `nice` runs under sh) has the policy's niceness.
TEST_F(SandboxTest, TheProgramRunsAtThePolicysNiceness) {
  for (const bool isolate : {true, false}) {
    auto low = policy();
    low.isolate = isolate;
    low.nice = 19;
    const auto result = run(low, {"sh", "-c", "nice"});
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(result.output, "19\n") << (isolate ? "isolated" : "not isolated");
  }
}

TEST_F(SandboxTest, HostFilesOutsideTheBindsAreInvisible) {
  auto open = policy();
  open.isolate = false;
  const auto outside = hostile(open, {"read", secret_.string()});
  ASSERT_EQ(outside.exit_code, 0) << "the test's own premise: unsandboxed, the file is readable";

  const auto inside = hostile(policy(), {"read", secret_.string()});
  EXPECT_EQ(inside.exit_code, ENOENT) << inside.output;
  EXPECT_EQ(inside.output.find("instructor's solution"), std::string::npos);
  // Nor the instructor's home, the grader's tree or host secrets.
  for (const char* path : {"/etc/shadow", "/etc/passwd", "/root/.bashrc", "/work/main/README.md"}) {
    const auto attempt = hostile(policy(), {"read", path});
    EXPECT_NE(attempt.exit_code, 0) << path << " was readable: " << attempt.output;
  }
}

TEST_F(SandboxTest, WritesOutsideTheWorkFolderFailOrStayInside) {
  const auto escaped = scratch_ / "ESCAPED";
  auto p = policy();
  // Read-only: the program's folder and the system.
  EXPECT_EQ(hostile(p, {"write", "/prog/ESCAPED"}).exit_code, EROFS);
  EXPECT_NE(hostile(p, {"write", "/usr/ESCAPED"}).exit_code, 0);
  // Not there at all: the scratch folder's parent, seen from inside.
  EXPECT_NE(hostile(p, {"write", escaped.string()}).exit_code, 0);
  EXPECT_FALSE(fs::exists(escaped));
  // /tmp is private: a write there succeeds and vanishes with the sandbox.
  EXPECT_EQ(hostile(p, {"write", "/tmp/ESCAPED"}).exit_code, 0);
  EXPECT_FALSE(fs::exists("/tmp/ESCAPED"));
  // The work folder is the one place that keeps what is written.
  EXPECT_EQ(hostile(p, {"write", "/work/kept"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(scratch_ / "work" / "kept"));
}

TEST_F(SandboxTest, ThereIsNoNetworkNotEvenLoopback) {
  // A listener on the host's loopback: reachable unsandboxed, not from inside.
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t length = sizeof address;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const std::string port = std::to_string(ntohs(address.sin_port));

  auto open = policy();
  open.isolate = false;
  EXPECT_EQ(hostile(open, {"connect", "127.0.0.1", port}).exit_code, 0);
  const auto inside = hostile(policy(), {"connect", "127.0.0.1", port});
  EXPECT_NE(inside.exit_code, 0) << inside.output;
  const auto internet = hostile(policy(), {"connect", "1.1.1.1", "80"});
  EXPECT_EQ(internet.exit_code, ENETUNREACH) << internet.output;
  ::close(listener);
}

TEST_F(SandboxTest, AnEndlessLoopIsKilledAtTheTimeLimit) {
  auto p = policy();
  p.time_limit_s = 1;
  const auto start = std::chrono::steady_clock::now();
  const auto result = hostile(p, {"spin"});
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(result.timed_out);
  EXPECT_LT(took.count(), 5);
  EXPECT_EQ(describe(result), "timed out after 1 s");
}

TEST_F(SandboxTest, AForkBombIsContainedAndLeavesNothingRunning) {
  auto p = policy();
  p.time_limit_s = 3;
  p.max_processes = 32;
  const auto result = hostile(p, {"forkbomb"});
  EXPECT_TRUE(result.timed_out || result.signal != 0) << describe(result);
  // Nothing of it is left: no process of the sandbox's pid namespace survives its init.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto after = run(policy(), {"true"});
  EXPECT_EQ(after.exit_code, 0) << "a later sandbox still starts: " << describe(after);
  EXPECT_EQ(std::system("pgrep -f 'sandbox_hostil[e] forkbomb' >/dev/null"), 256)
      << "a fork bomb process outlived its sandbox";
}

TEST_F(SandboxTest, ACrashIsReportedWithItsSignal) {
  const auto result = hostile(policy(), {"segv"});
  EXPECT_EQ(result.signal, SIGSEGV) << describe(result) << "\n" << result.output;
  EXPECT_NE(describe(result).find("SIGSEGV"), std::string::npos);
}

TEST_F(SandboxTest, AnOutputFloodIsCutAtTheCap) {
  auto p = policy();
  p.max_output_bytes = 64 << 10;
  const auto result = hostile(p, {"flood", std::to_string(50ll << 20)});
  EXPECT_TRUE(result.output_truncated);
  EXPECT_LE(result.output.size(), p.max_output_bytes + 1024);
  EXPECT_NE(describe(result).find("output cut at 64 KiB"), std::string::npos) << describe(result);
}

TEST_F(SandboxTest, AHugeFileIsStoppedAtTheFileSizeCap) {
  auto p = policy();
  p.max_output_bytes = 1 << 20;
  const auto result = hostile(p, {"bigfile", "/work/huge", std::to_string(100ll << 20)});
  EXPECT_TRUE(result.signal == SIGXFSZ || result.exit_code == EFBIG) << describe(result);
  std::error_code ec;
  EXPECT_LE(fs::file_size(scratch_ / "work" / "huge", ec), p.max_output_bytes);
}

TEST_F(SandboxTest, TheEnvironmentIsClearedOfTheGradersSecrets) {
  ::setenv("LABGRADE_TEST_SECRET", "hunter2", 1);
  auto p = policy();
  p.env.emplace_back("GIVEN", "yes");
  const auto result = hostile(p, {"env", "LABGRADE_TEST_SECRET", "GIVEN", "HOME", "PATH"});
  ::unsetenv("LABGRADE_TEST_SECRET");
  EXPECT_NE(result.output.find("LABGRADE_TEST_SECRET unset"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("hunter2"), std::string::npos);
  EXPECT_NE(result.output.find("GIVEN=yes"), std::string::npos);
  EXPECT_NE(result.output.find("HOME=/work"), std::string::npos) << result.output;
}

TEST_F(SandboxTest, TheChannelSecretIsReadOnceAndOnlyWholeLinesArrive) {
  std::vector<std::string> lines;
  Channel channel;
  channel.input = "nonce-1234";
  channel.on_line = [&](std::string_view line) { lines.emplace_back(line); };
  auto p = policy();
  const auto result =
      run(p, {"/prog/" + fs::path(HOSTILE_PATH).filename().string(), "channel"}, channel);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  ASSERT_EQ(lines.size(), 2u) << result.output;
  EXPECT_EQ(lines[0], "got nonce-1234");
  EXPECT_EQ(lines[1], "again 0");  // end of file: the secret cannot be read a second time
  EXPECT_EQ(result.output.find("nonce-1234"), std::string::npos);
}

TEST_F(SandboxTest, MemoryIsCappedWithoutRlimitAs) {
  if (!capabilities().memory_capped) {
    GTEST_SKIP() << "memory is not capped on this machine: " << capabilities().memory_cap;
  }
  auto p = policy();
  p.memory_bytes = 256ull << 20;
  const auto result = hostile(p, {"hog", std::to_string(2ll << 30)});
  EXPECT_TRUE(result.out_of_memory) << describe(result) << "\n" << result.output;
  EXPECT_EQ(result.output.find("survived"), std::string::npos);
  // Under the cap it runs: the cap is not RLIMIT_AS, which would also refuse big mappings.
  const auto small = hostile(p, {"hog", std::to_string(64ll << 20)});
  EXPECT_NE(small.output.find("survived"), std::string::npos) << describe(small);
}

TEST_F(SandboxTest, AsRootTheProgramRunsUnderAnUnprivilegedUid) {
  if (::geteuid() != 0) GTEST_SKIP() << "the grader is not root: the sandbox keeps its uid";
  const auto result = hostile(policy(), {"id"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output.find("uid 0\n"), std::string::npos) << result.output;
}

TEST_F(SandboxTest, WithoutAUidOfItsOwnTheProgramIsRootWithNoCapabilities) {
  if (::geteuid() != 0) GTEST_SKIP() << "the grader is not root";
  auto p = policy();
  p.own_uid = false;
  const auto result = hostile(p, {"caps"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("CapEff:\t0000000000000000"), std::string::npos) << result.output;
  // And it cannot write where root could: the system folders are read-only binds.
  EXPECT_NE(hostile(p, {"write", "/usr/escaped"}).exit_code, 0);
}

// A grading kit in a build folder under /tmp (a CI clone there) is bound at the same path inside
// the sandbox's own, empty /tmp: the folders leading to it must be made enterable for the
// sandbox's uid, or the lab program cannot open its spec (it did not, in CI).
TEST_F(SandboxTest, AReadOnlyBindUnderTmpIsReadableByTheSandboxesUid) {
  const fs::path kit = scratch_ / "deep" / "kit";
  fs::create_directories(kit);
  std::ofstream(kit / "spec.json") << "{}\n";
  auto p = policy();
  p.binds.push_back({kit, kit, false});
  ASSERT_EQ(kit.string().rfind(fs::temp_directory_path().string(), 0), 0u);
  const auto result = run(p, {"cat", (kit / "spec.json").string()});
  EXPECT_EQ(result.exit_code, 0) << describe(result) << ": " << result.output;
  EXPECT_NE(result.output.find("{}"), std::string::npos) << result.output;
}

// The policy of `labgrade run` on a student's machine: no isolation, the student's environment,
// no resource limits (RLIMIT_NPROC would count all of the user's processes), output shown live.
// No bubblewrap needed.
Policy student_machine() {
  Policy p;
  p.isolate = false;
  p.inherit_environment = true;
  p.resource_limits = false;
  p.time_limit_s = 20;
  return p;
}

TEST(StudentMachine, TheProgramGetsTheCallersEnvironmentWithThePolicysOnTop) {
  ::setenv("LABGRADE_TEST_INHERITED", "kept", 1);
  ::setenv("LABGRADE_TEST_REPLACED", "old", 1);
  auto p = student_machine();
  p.env.emplace_back("LABGRADE_TEST_REPLACED", "new");
  const auto result =
      run_unisolated(p, {"sh", "-c", "echo \"$LABGRADE_TEST_INHERITED $LABGRADE_TEST_REPLACED\""});
  ::unsetenv("LABGRADE_TEST_INHERITED");
  ::unsetenv("LABGRADE_TEST_REPLACED");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "kept new\n");
}

// The lines of /proc/self/limits that name `what` ("Max processes"), of this process or from a
// program's output.
std::string limit_line(const std::string& limits, const std::string& what) {
  const auto at = limits.find(what);
  if (at == std::string::npos) return "";
  return limits.substr(at, limits.find('\n', at) - at);
}

TEST(StudentMachine, NoLimitsButTime) {
  std::ifstream own_file("/proc/self/limits");
  const std::string own{std::istreambuf_iterator<char>(own_file), std::istreambuf_iterator<char>()};
  const auto result = run_unisolated(student_machine(), {"cat", "/proc/self/limits"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (const auto* what : {"Max processes", "Max file size"}) {
    EXPECT_FALSE(limit_line(own, what).empty());
    EXPECT_EQ(limit_line(result.output, what), limit_line(own, what));
  }
  EXPECT_EQ(result.memory_cap_bytes, 0u);

  auto p = student_machine();
  p.time_limit_s = 0.5;
  EXPECT_TRUE(run_unisolated(p, {"sleep", "30"}).timed_out);
}

TEST(StudentMachine, OutputIsShownAsItComesAndAlsoKept) {
  auto p = student_machine();
  p.max_output_bytes = 4;
  std::string shown;
  Channel channel;
  channel.on_output = [&](std::string_view piece) { shown += piece; };
  const auto result =
      run_unisolated(p, {"sh", "-c", "echo first; sleep 0.1; echo second >&2"}, channel);
  EXPECT_EQ(shown, "first\nsecond\n");
  EXPECT_EQ(result.output, "firs");  // what is kept stays capped
  EXPECT_TRUE(result.output_truncated);
}

// A batch speed run's program starts before its turn and waits on fd 3 for the grader's "go";
// the wait does not count against its time limit.
TEST(StudentMachine, MoreInputComesLaterAndTheWaitIsNotCounted) {
  const auto run_waiting = [](bool uncounted) {
    auto p = student_machine();
    p.time_limit_s = 0.5;
    const auto start = std::chrono::steady_clock::now();
    const auto waited = [start] {
      return std::min(
          1.0, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    };
    bool said = false;
    Channel channel;
    channel.input = "first\n";
    channel.more_input = [&]() -> std::string {
      if (said || waited() < 1.0) return "";
      said = true;
      return "go\n";
    };
    if (uncounted) channel.uncounted_seconds = waited;
    return run_unisolated(p, {"sh", "-c", "read a <&3; read b <&3; echo \"$a $b\""}, channel);
  };
  const auto result = run_waiting(true);
  EXPECT_FALSE(result.timed_out) << describe(result);
  EXPECT_EQ(result.output, "first go\n");
  EXPECT_GT(result.seconds, 0.9);
  // The same wait, counted: past the limit.
  EXPECT_TRUE(run_waiting(false).timed_out);
}

TEST(StudentMachine, TheCallersEnvironmentNeverEntersAnIsolatedSandbox) {
  auto p = student_machine();
  p.isolate = true;
  const auto result = run(p, {"true"});
  EXPECT_TRUE(result.failed_to_start);
  EXPECT_NE(result.output.find("only for programs run without isolation"), std::string::npos)
      << result.output;
}

// labcheck links only the sandbox's core: a policy that asks for containment is refused there,
// never run uncontained; one that asks for none runs as sandbox::run runs it.
TEST(StudentMachine, TheCoreRunsOnlyWhatContainsNothing) {
  for (const bool isolate : {true, false}) {
    auto p = student_machine();
    p.inherit_environment = false;
    p.isolate = isolate;
    p.resource_limits = !isolate;
    const auto refused = run_unisolated(p, {"true"});
    EXPECT_TRUE(refused.failed_to_start);
    EXPECT_NE(refused.output.find("only labgrade's sandbox gives"), std::string::npos)
        << refused.output;
  }
  const std::vector<std::string> argv = {"sh", "-c", "echo \"$LABS_X\"; exit 4"};
  auto p = student_machine();
  p.env.emplace_back("LABS_X", "same");
  const auto core = run_unisolated(p, argv);
  const auto full = run(p, argv);
  EXPECT_EQ(describe(core), "exit code 4");
  EXPECT_EQ(describe(core), describe(full));
  EXPECT_EQ(core.output, "same\n");
  EXPECT_EQ(core.output, full.output);
}

TEST_F(SandboxTest, ABadPolicyIsRefusedWithAReasonNotACrash) {
  auto p = policy();
  p.binds.push_back({scratch_ / "does-not-exist", "/missing", false});
  const auto result = run(p, {"true"});
  EXPECT_TRUE(result.failed_to_start);
  EXPECT_NE(describe(result).find("not found"), std::string::npos) << describe(result);
  EXPECT_TRUE(run(policy(), {}).failed_to_start);
}

}  // namespace
}  // namespace sandbox
