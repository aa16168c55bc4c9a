#include "zip_writer.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include <fmt/format.h>

namespace grader {
namespace {

namespace fs = std::filesystem;

// python3's zipfile: ZipFile.write keeps each file's mode (ZipInfo.from_file).
constexpr const char* kPythonZip = R"(import os, sys, zipfile
out, root = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, folders, files in os.walk(root):
        folders.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            archive.write(path, os.path.relpath(path, root))
)";

// The program's path in PATH, if it is there.
std::optional<fs::path> find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const auto colon = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, colon - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = colon + 1;
  }
  return std::nullopt;
}

// Runs argv in `folder`; its exit status (-1 when it did not start or died of a signal).
int run_in(const fs::path& folder, const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) return -1;
  if (child == 0) {
    if (::chdir(folder.c_str()) != 0) ::_exit(127);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  if (::waitpid(child, &status, 0) < 0 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace

void write_zip(const fs::path& folder, const fs::path& zip, const std::string& tool) {
  const auto zip_program = tool == "python3" ? std::nullopt : find_program("zip");
  const auto python = tool == "zip" ? std::nullopt : find_program("python3");
  if (!zip_program && !python) {
    throw ZipError(tool == "auto"
                       ? "cannot write a zip: neither the zip program nor python3 is installed "
                         "(apt-get install zip)"
                       : fmt::format("cannot write a zip: {} is not installed", tool));
  }
  const fs::path target = fs::absolute(zip);
  const fs::path partial = target.string() + ".partial";
  std::error_code ignored;
  fs::remove(partial, ignored);
  const int status =
      zip_program ? run_in(folder, {zip_program->string(), "-q", "-r", "-X", partial.string(), "."})
                  : run_in(folder, {python->string(), "-c", kPythonZip, partial.string(), "."});
  if (status != 0) {
    fs::remove(partial, ignored);
    throw ZipError(fmt::format("{} could not write {} (exit status {})",
                               zip_program ? "zip" : "python3", target.string(), status));
  }
  fs::rename(partial, target);
}

}  // namespace grader
