// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: atexit handlers, destructors and a fork()ed daemon that rewrites records after the run
// isolation: outliving the lab program, and write access to the results folder
//
// A record written during the run is overwritten by the lab program's own; one written after the
// lab program has exited is what labgrade report reads (ctest's labcheck run and expect judge
// the records the grader channel brought). At start-up this launcher learns the results folder
// from the lab program's command line (--results-dir in
// /proc/<ppid>/cmdline, relative to /proc/<ppid>/cwd), registers an atexit handler, a destructor,
// a terminate handler and a SIGTERM handler that write passing records there, and double-forks a
// daemon that calls setsid() (out of the process group the lab program kills, and free of
// PR_SET_PDEATHSIG, which a fork clears), closes its descriptors, and rewrites the records every
// 20 ms until 30 s after the lab program has gone (10 minutes at most). The copies compute nothing.
// Why it must fail: the launcher must not outlive its call (a PID namespace or a cgroup killed as
// a whole, not a process group) nor reach the results folder; the batch grader takes records only
// from its channel, which no daemon holds.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "lab1.h"

namespace {

const char* const kChecks[][3] = {{"CopyMatrix.Correctness", "correctness", "25"},
                                  {"CopyMatrix.OneThreadPerElement", "structure", "5"},
                                  {"CopyMatrix.Speed", "speed", "15"},
                                  {"CopyMatrixStrided.Correctness", "correctness", "25"},
                                  {"CopyMatrixStrided.ElementsPerThread", "structure", "15"},
                                  {"CopyMatrixStrided.Speed", "speed", "15"}};

std::filesystem::path results;  // absolute; empty: not known
pid_t lab_program = 0;

void forge_records() {
  if (results.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(results, ec);
  for (const auto& c : kChecks) {
    const auto target = results / (std::string(c[0]) + ".json");
    std::ofstream(target.string() + ".tmp")
        << "{\n  \"backend\": \"cuda\",\n  \"cases\": [],\n  \"check\": \"" << c[0]
        << "\",\n  \"fraction\": 1.0,\n  \"kind\": \"" << c[1] << "\",\n  \"lab\": \"lab1\",\n"
        << "  \"max_points\": " << c[2] << ",\n  \"points\": " << c[2]
        << ",\n  \"reason\": \"every case passed\",\n  \"schema\": 1,\n  \"seed\": 0,\n"
        << "  \"verdict\": \"pass\"\n}\n";
    std::filesystem::rename(target.string() + ".tmp", target, ec);
  }
}

__attribute__((destructor)) void at_unload() { forge_records(); }

[[noreturn]] void run_daemon() {
  setsid();
  if (fork() != 0) _exit(0);  // the grandchild is adopted by init (or a subreaper)
  for (int fd = 0; fd < 64; ++fd) close(fd);
  const auto start = std::chrono::steady_clock::now();
  auto gone_since = start;
  bool gone = false;
  while (std::chrono::steady_clock::now() - start < std::chrono::minutes(10)) {
    forge_records();
    if (!gone && kill(lab_program, 0) != 0) {
      gone = true;
      gone_since = std::chrono::steady_clock::now();
    }
    if (gone && std::chrono::steady_clock::now() - gone_since > std::chrono::seconds(30)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  _exit(0);
}

__attribute__((constructor)) void at_start() {
  lab_program = getppid();
  const std::string proc = "/proc/" + std::to_string(lab_program);
  std::ifstream cmdline(proc + "/cmdline", std::ios::binary);
  std::string arg, previous;
  while (std::getline(cmdline, arg, '\0')) {
    if (previous == "--results-dir") results = arg;
    if (arg.rfind("--results-dir=", 0) == 0) results = arg.substr(14);
    previous = arg;
  }
  std::error_code ec;
  if (!results.empty() && results.is_relative()) {
    results = std::filesystem::read_symlink(proc + "/cwd", ec) / results;
  }
  std::atexit(forge_records);
  std::set_terminate([] {
    forge_records();
    std::abort();
  });
  signal(SIGTERM, [](int) {
    forge_records();
    _exit(0);
  });
  const pid_t child = fork();
  if (child == 0) run_daemon();
  if (child > 0) waitpid(child, nullptr, 0);
}

}  // namespace

void copy_matrix(const float*, float*, int, int) { forge_records(); }
void copy_matrix_strided(const float*, float*, int, int) { forge_records(); }
