#include "batch/build_step.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include <fmt/format.h>

#include "batch/line_directives.hpp"
#include "batch/link_errors.hpp"
#include "batch/run_step.hpp"

namespace batch {
namespace {

// "/submission/kernel.cu(12): error" reads better as "kernel.cu(12): error".
std::string without_sandbox_paths(std::string text, const std::filesystem::path& workdir) {
  const std::string prefix = workdir.string() + "/";
  for (auto at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at)) {
    text.erase(at, prefix.size());
  }
  return text;
}

// An isolated build whose sandbox could not start the compiler or linker: the grader's failure,
// not a compile error of the submission's (run_step.hpp, SandboxNotStarted).
[[noreturn]] void throw_not_started(const char* what, const sandbox::Result& result) {
  std::string why = result.output.substr(0, 300);
  throw SandboxNotStarted(fmt::format(
      "the grader could not start {} in its sandbox ({}): not the submission's doing; run the "
      "batch again",
      what, why));
}

// The kernels of the built launcher, listed by the kit's cuobjdump in the build's sandbox (the
// file is the student's: the tool reads it where it can harm nothing).
std::vector<std::string> launcher_kernels(const Kit& kit, const sandbox::Policy& policy) {
  if (kit.cuobjdump.empty()) return {};
  const auto listed =
      sandbox::run(policy, {kit.cuobjdump, "-symbols", sandbox_launcher(kit, policy)});
  if (listed.timed_out || listed.stopped || listed.failed_to_start || listed.exit_code != 0) {
    return {};
  }
  return kernel_names_in_symbols(listed.output);
}

}  // namespace

std::vector<std::string> kernel_names_in_symbols(const std::string& listing) {
  std::vector<std::string> names;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("STO_ENTRY") == std::string::npos) continue;
    const auto start = line.find_last_of(" \t");
    const std::string name = line.substr(start == std::string::npos ? 0 : start + 1);
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
    });
    if (!plain) return {};
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

// The lab program is the kit's; the submission's build is its launcher.
std::string sandbox_program(const Kit& kit, const sandbox::Policy&) { return kit.program.string(); }

std::string sandbox_launcher(const Kit& kit, const sandbox::Policy& policy) {
  return (policy.workdir / (kit.lab + "_launcher")).string();
}

sandbox::Policy submission_policy(const Kit& kit, const std::filesystem::path& scratch,
                                  const sandbox::Policy& base) {
  sandbox::Policy policy = base;
  // Without the sandbox (only on the instructor's explicit request) paths are the host's.
  const std::filesystem::path inside = policy.isolate ? std::filesystem::path(kSandboxSubmission)
                                                      : std::filesystem::absolute(scratch);
  policy.binds.push_back({std::filesystem::absolute(scratch), inside, true});
  for (const auto& path : kit.read_only) policy.binds.push_back({path, path, false});
  policy.workdir = inside;
  return policy;
}

namespace {

// Links the compiled `objects` into the submission's launcher; false (with the linker's words
// explained in `build`) when it fails.
bool link_launcher(const Kit& kit, const sandbox::Policy& policy,
                   const std::vector<std::string>& objects, BuildResult& build) {
  std::vector<std::string> link{kit.cxx};
  link.insert(link.end(), objects.begin(), objects.end());
  link.insert(link.end(), {"-o", sandbox_launcher(kit, policy)});
  link.insert(link.end(), kit.link_flags.begin(), kit.link_flags.end());
  const auto linked = sandbox::run(policy, link);
  build.seconds += linked.seconds;
  build.output += without_sandbox_paths(linked.output, policy.workdir);
  if (linked.failed_to_start && policy.isolate) throw_not_started("the linker", linked);
  if (linked.timed_out || linked.stopped || linked.failed_to_start || linked.exit_code != 0) {
    build.status = Status::link_error;
    const auto sentences = explain_link_error(linked.output);
    for (const auto& sentence : sentences) build.output += "\n" + sentence;
    build.problem = sentences.front();
    return false;
  }
  return true;
}

// A source that moves its own lines is a compile error before the compiler runs.
bool refused_line_directives(const std::filesystem::path& scratch,
                             const std::vector<std::string>& sources, BuildResult& build) {
  auto problem = line_directive_problem(scratch, sources);
  if (!problem) return false;
  build.status = Status::compile_error;
  build.output += *problem + "\n";
  build.problem = std::move(*problem);
  return true;
}

}  // namespace

BuildResult build_submission(const Kit& kit, const std::filesystem::path& scratch,
                             const sandbox::Policy& base_policy, double time_limit_s) {
  BuildResult build;
  auto policy = submission_policy(kit, scratch, base_policy);
  policy.gpu = false;
  // Only the trusted toolchain runs here, and nvcc crashes under a uid without a name on some
  // hosts: the build stays root inside the sandbox, with no capabilities.
  policy.own_uid = false;
  policy.time_limit_s = time_limit_s;
  // kernel.cu, then the optional sources the submission has (a bonus.cu).
  std::vector<std::string> sources{"kernel.cu"};
  for (const auto& name : kit.optional_sources) {
    if (std::filesystem::exists(scratch / name)) sources.push_back(name);
  }
  if (refused_line_directives(scratch, sources, build)) return build;
  std::vector<std::string> objects;
  for (const auto& name : sources) {
    const std::string source = (policy.workdir / name).string();
    const std::string object = (policy.workdir / (name.substr(0, name.size() - 3) + ".o")).string();
    objects.push_back(object);
    std::vector<std::string> compile{kit.nvcc, "-c", source, "-o", object};
    compile.insert(compile.end(), kit.compile_flags.begin(), kit.compile_flags.end());
    const auto compiled = sandbox::run(policy, compile);
    build.seconds += compiled.seconds;
    build.output += without_sandbox_paths(compiled.output, policy.workdir);
    const bool optional = name != "kernel.cu";
    if (optional && (compiled.timed_out || compiled.stopped || compiled.failed_to_start ||
                     compiled.exit_code != 0)) {
      // A broken extra must not cost the lab itself: its checks say "not attempted".
      objects.pop_back();
      build.output += fmt::format("\n{} does not compile ({}): graded without it\n", name,
                                  sandbox::describe(compiled));
      build.notes.push_back(name +
                            " does not compile: graded without it (see the compiler's "
                            "messages in the report)");
      continue;
    }
    if (compiled.timed_out || compiled.stopped) {
      build.status = Status::build_timed_out;
      build.output +=
          fmt::format("\nthe compiler did not finish {} within {:.0f} s", name, time_limit_s);
      return build;
    }
    if (compiled.failed_to_start && policy.isolate) throw_not_started("the compiler", compiled);
    if (compiled.failed_to_start || compiled.exit_code != 0) {
      build.status = Status::compile_error;
      if (compiled.signal || compiled.out_of_memory) {
        build.output += "\nthe compiler " + sandbox::describe(compiled);
      }
      return build;
    }
  }

  if (!link_launcher(kit, policy, objects, build)) return build;
  build.ok = true;
  build.kernels = launcher_kernels(kit, policy);
  return build;
}

}  // namespace batch
