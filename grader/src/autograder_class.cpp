#include "autograder_class.hpp"

#include <sys/stat.h>

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "batch/files.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

bool is_archive(const fs::path& file) {
  const std::string name = file.filename().string();
  for (const char* suffix : {".zip", ".tar", ".tar.gz", ".tgz"}) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

// The folder's only entry when it is an archive; empty otherwise.
fs::path lone_archive(const fs::path& submission) {
  fs::path found;
  int entries = 0;
  for (const auto& entry : fs::directory_iterator(submission)) {
    ++entries;
    if (entry.is_regular_file() && is_archive(entry.path())) found = entry.path();
  }
  return entries == 1 ? found : fs::path();
}

// A word for a shell script, in single quotes.
std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The compiler as nobody: the build step calls it as `nvcc -c SOURCE -o OBJECT FLAGS...` (and
// emucc takes the same), from the submission's scratch folder, which nobody cannot write; so the
// source is compiled in a folder of nobody's own, and the object copied back. The messages name
// the source as the sandboxed build's do (kernel.cu:25:73), not the folder it was compiled in.
std::string compile_as_nobody_script(const std::string& compiler) {
  return fmt::format(R"(#!/bin/sh
# Written by labgrade autograder: the kit's compiler run as nobody, for grading without bubblewrap.
set -u
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
if [ $# -lt 4 ] || [ "$1" != -c ] || [ "$3" != -o ]; then
  echo "compile-as-nobody: expected -c SOURCE -o OBJECT [flags]" >&2
  exit 2
fi
source=$2
object=$4
shift 4
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir" "$dir.log"' EXIT
name=$(basename "$source")
cp "$source" "$dir/$name" && chown -R 65534:65534 "$dir" || exit 2
(cd "$dir" && exec setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs \
   {} -c "$dir/$name" -o "$dir/$name.o" "$@") > "$dir.log" 2>&1
status=$?
sed "s|$dir/||g" "$dir.log"
[ $status -eq 0 ] || exit $status
cp "$dir/$name.o" "$object"
)",
                     quoted(compiler));
}

}  // namespace

void make_class_of_one(const fs::path& submission, const fs::path& class_dir) {
  if (!fs::is_directory(submission)) {
    throw std::runtime_error(
        fmt::format("{} is not a folder of submitted files", submission.string()));
  }
  fs::remove_all(class_dir);
  fs::create_directories(class_dir);
  if (const fs::path archive = lone_archive(submission); !archive.empty()) {
    std::string suffix = archive.filename().string();
    suffix = suffix.ends_with(".tar.gz") ? ".tar.gz" : archive.extension().string();
    fs::copy_file(archive, class_dir / (std::string(kAutograderStudent) + suffix));
    return;
  }
  fs::copy(submission, class_dir / kAutograderStudent,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

fs::path unprivileged_compile_kit(const batch::Kit& kit, const fs::path& dir) {
  if (!fs::exists("/usr/bin/setpriv") && !fs::exists("/bin/setpriv")) {
    throw std::runtime_error("setpriv (util-linux) is missing: cannot compile as nobody");
  }
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path script = dir / "compile-as-nobody";
  batch::write_whole_file(script, compile_as_nobody_script(kit.nvcc));
  ::chmod(script.c_str(), 0755);
  fs::create_directory_symlink(fs::absolute(kit.dir / "lib"), dir / "lib");
  std::ifstream in(kit.dir / "kit.json");
  auto document = nlohmann::json::parse(in);
  document["nvcc"] = fs::absolute(script).string();
  batch::write_whole_file(dir / "kit.json", document.dump(2));
  return dir;
}

}  // namespace grader
