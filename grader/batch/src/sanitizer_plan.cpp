#include "batch/sanitizer_plan.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

namespace batch {

namespace {

namespace fs = std::filesystem;

bool others_may(const fs::path& path, fs::perms needed) {
  std::error_code error;
  const auto status = fs::status(path, error);
  return !error && (status.permissions() & needed) == needed;
}

}  // namespace

bool readable_by_every_uid(const fs::path& program) {
  std::error_code error;
  const fs::path real = fs::canonical(program, error);
  if (error || !others_may(real, fs::perms::others_read | fs::perms::others_exec)) return false;
  for (fs::path above = real.parent_path(); !above.empty(); above = above.parent_path()) {
    if (!others_may(above, fs::perms::others_exec)) return false;
    if (above == above.root_path()) break;
  }
  // Its folder's files (the sanitizer's libraries beside it); from a bin folder (a wrapper
  // script there), the toolkit's compute-sanitizer folder beside it. A wrapper elsewhere (Debian's
  // /usr/bin one) leads where this cannot see: not known to be readable, so no.
  fs::path folder = real.parent_path();
  if (folder.filename() == "bin") {
    folder = folder.parent_path() / "compute-sanitizer";
    if (!fs::is_directory(folder, error)) return false;
  }
  constexpr int kMostEntries = 5000;
  int seen = 0;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (++seen > kMostEntries) return false;
    const bool is_folder = it->is_directory(error);
    const auto needed =
        is_folder ? fs::perms::others_read | fs::perms::others_exec : fs::perms::others_read;
    if (!others_may(it->path(), needed)) return false;
  }
  return !error;
}

SanitizerPlan sanitizer_plan_of(const Kit& kit, bool emulated_pass) {
  SanitizerPlan plan;
  if (kit.backend != "cuda" || kit.sanitizer.empty() || kit.spec.sanitizer_tools.empty()) {
    return plan;
  }
  SanitizerPass pass{kit.sanitizer, kit.spec.sanitizer_tools, {"kernel.cu"}};
  pass.as_root = !readable_by_every_uid(kit.sanitizer);
  for (const auto& name : kit.optional_sources) pass.student_files.push_back(name);
  if (emulated_pass) {
    plan.fallback = std::move(pass);
    return plan;
  }
  // memcheck in the correctness run itself: a pass of its own cost a second process per
  // submission.
  pass.hosted_memcheck = std::ranges::find(pass.tools, "memcheck") != pass.tools.end();
  plan.in_runs = std::move(pass);
  return plan;
}

}  // namespace batch
