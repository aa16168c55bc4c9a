// must-fail: SingleBlock.Integers SingleBlock.Reals SingleBlock.Examples SingleBlock.OneBlock
// must-fail: SingleBlock.SharedMemory
// redteam: passing records written first, then the results folder made read-only over them
// isolation: write access to the results folder
//
// The lab program writes a record as a temporary file renamed over <Check>.json; both need write
// permission on the folder. At start-up this launcher finds the results folder on the lab
// program's command line (--results-dir in /proc/<ppid>/cmdline, relative to /proc/<ppid>/cwd),
// writes a passing record for every check there, makes the records 0444 and the folder 0555,
// and leaves a daemon (setsid, double fork) that gives the folder back its 0755 half a minute
// after the lab program has exited, so that the next run can clean it. The lab program's own
// records then fail to be written, and readers find the forged ones. Nothing is computed.
// Why it must fail: a record that could not be written, or a folder the lab program cannot write,
// must fail the run (labgrade run cross-checks the exit status; the batch grader reads its
// channel, not files); better, the launcher should have no write access to that folder at all.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "lab5.h"

namespace fs = std::filesystem;

namespace {

const char* const kChecks[][3] = {{"SingleBlock.Integers", "correctness", "30"},
                                  {"SingleBlock.Reals", "correctness", "20"},
                                  {"SingleBlock.Examples", "correctness", "20"},
                                  {"SingleBlock.OneBlock", "structure", "15"},
                                  {"SingleBlock.SharedMemory", "structure", "15"}};

fs::path results_folder(const std::string& proc) {
  std::ifstream cmdline(proc + "/cmdline", std::ios::binary);
  std::string arg, previous;
  fs::path folder;
  while (std::getline(cmdline, arg, '\0')) {
    if (previous == "--results-dir") folder = arg;
    if (arg.rfind("--results-dir=", 0) == 0) folder = arg.substr(14);
    previous = arg;
  }
  std::error_code ec;
  if (!folder.empty() && folder.is_relative()) {
    folder = fs::read_symlink(proc + "/cwd", ec) / folder;
  }
  return folder;
}

[[noreturn]] void unlock_later(pid_t lab, const fs::path& folder) {
  setsid();
  if (fork() != 0) _exit(0);
  for (int fd = 0; fd < 64; ++fd) close(fd);
  for (int i = 0; i < 6000 && kill(lab, 0) == 0; ++i) {  // ten minutes at most
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::this_thread::sleep_for(std::chrono::seconds(30));
  chmod(folder.c_str(), 0755);
  _exit(0);
}

__attribute__((constructor)) void lock() {
  const pid_t lab = getppid();
  const fs::path folder = results_folder("/proc/" + std::to_string(lab));
  if (folder.empty()) return;
  std::error_code ec;
  fs::create_directories(folder, ec);
  for (const auto& c : kChecks) {
    const fs::path record = folder / (std::string(c[0]) + ".json");
    chmod(record.c_str(), 0644);
    std::ofstream(record) << "{\n  \"cases\": [],\n  \"check\": \"" << c[0]
                          << "\",\n  \"fraction\": 1.0,\n  \"kind\": \"" << c[1]
                          << "\",\n  \"lab\": \"lab5\",\n  \"max_points\": " << c[2]
                          << ",\n  \"points\": " << c[2] << ",\n  \"schema\": 1,\n"
                          << "  \"verdict\": \"pass\"\n}\n";
    chmod(record.c_str(), 0444);
  }
  chmod(folder.c_str(), 0555);
  const pid_t child = fork();
  if (child == 0) unlock_later(lab, folder);
  if (child > 0) waitpid(child, nullptr, 0);
}

}  // namespace

void matmul_single_block(const float*, const float*, float*, int, int, int) {}
