// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: records written to every guessable path: forged passing <Check>.json in results folders
// isolation: write access to the results folder
//
// ctest and labgrade read build/results/lab1/<Check>.json. This launcher writes a faithful
// passing record (contract/src/record.cpp's to_json: the same keys, sorted, two-space indent,
// atomic rename) for every check into: the --results-dir of its own and of its parent's command
// line (/proc/<ppid>/cmdline), LAB_RESULTS_DIR (its own and /proc/<ppid>/environ), and
// results/lab1, build/results/lab1, ../results/lab1 and . under its working folder and the lab
// program's (/proc/<ppid>/cwd), and /tmp. It does so at start-up and again at every call (the lab
// program writes its record after the call). The copies compute nothing.
// Why it must fail: the lab program writes each record after the check, over any forgery, and
// the batch grader takes records from its channel only; the launcher should not be able to write
// there at all (a sandbox with the results folder out of reach, or another uid).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "lab1.h"

namespace fs = std::filesystem;

namespace {

const char* const kChecks[][3] = {{"CopyMatrix.Correctness", "correctness", "25"},
                                  {"CopyMatrix.OneThreadPerElement", "structure", "5"},
                                  {"CopyMatrix.Speed", "speed", "15"},
                                  {"CopyMatrixStrided.Correctness", "correctness", "25"},
                                  {"CopyMatrixStrided.ElementsPerThread", "structure", "15"},
                                  {"CopyMatrixStrided.Speed", "speed", "15"}};

std::vector<std::string> nul_fields(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> out;
  for (std::string item; std::getline(in, item, '\0');) out.push_back(item);
  return out;
}

// "--flag value", "--flag=value" or "NAME=value" in a NUL-separated list.
std::string find(const std::vector<std::string>& list, const std::string& name) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == name && i + 1 < list.size()) return list[i + 1];
    if (list[i].rfind(name + "=", 0) == 0) return list[i].substr(name.size() + 1);
  }
  return "";
}

std::string record(const char* const check[3], const std::string& seed) {
  const std::string p = check[2];
  return std::string("{\n") + "  \"backend\": \"cuda\",\n  \"cases\": [],\n  \"check\": \"" +
         check[0] + "\",\n  \"duration_s\": 0.42,\n  \"fraction\": 1.0,\n  \"kind\": \"" +
         check[1] + "\",\n  \"lab\": \"lab1\",\n  \"max_points\": " + p +
         ".0,\n  \"notes\": [],\n  \"points\": " + p + ".0,\n  \"reason\": \"every case passed\"" +
         ",\n  \"reproduce\": \"\",\n  \"schema\": 1,\n  \"seed\": " + seed +
         ",\n  \"started_at\": \"2026-01-01T00:00:00Z\",\n  \"title\": \"\",\n" +
         "  \"verdict\": \"pass\"\n}\n";
}

void write_everywhere() {
  const std::string parent = "/proc/" + std::to_string(getppid());
  const auto own_args = nul_fields("/proc/self/cmdline");
  const auto args = nul_fields(parent + "/cmdline");
  const auto env = nul_fields(parent + "/environ");
  std::string seed = find(args, "--seed");
  if (seed.empty()) seed = find(env, "LAB_SEED");
  if (seed.empty()) seed = "0";

  std::set<fs::path> folders;
  for (const auto& given : {find(own_args, "--results-dir"), find(args, "--results-dir"),
                            find(env, "LAB_RESULTS_DIR")}) {
    if (!given.empty()) folders.insert(given);
  }
  if (const char* own = std::getenv("LAB_RESULTS_DIR")) folders.insert(own);
  std::error_code ec;
  for (const fs::path base : {fs::current_path(ec), fs::read_symlink(parent + "/cwd", ec)}) {
    for (const char* guess : {"results/lab1", "build/results/lab1", "../results/lab1",
                              "../build/results/lab1", "."}) {
      if (fs::is_directory(base / guess, ec)) folders.insert(base / guess);
    }
  }
  folders.insert("/tmp");
  for (const auto& folder : folders) {
    fs::create_directories(folder, ec);
    for (const auto& check : kChecks) {
      const fs::path target = folder / (std::string(check[0]) + ".json");
      std::ofstream(target.string() + ".tmp") << record(check, seed);
      fs::rename(target.string() + ".tmp", target, ec);
    }
    std::fprintf(stderr, "records: wrote %s\n", folder.c_str());
  }
}

__attribute__((constructor)) void at_start() { write_everywhere(); }

}  // namespace

void copy_matrix(const float*, float*, int, int) { write_everywhere(); }
void copy_matrix_strided(const float*, float*, int, int) { write_everywhere(); }
