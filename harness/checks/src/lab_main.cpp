// main() of every lab's test program. Usage:
//   labN [--seed N] [--results-dir DIR] [--spec FILE] [GoogleTest flags, e.g. --gtest_filter=X]
// Exit status (contract/exit_status.hpp): pass (no selected check failed), fail (a check failed),
// bad_setup (bad arguments or lab spec), skipped (no GPU: every check skipped, which ctest shows as
// skipped and graders count as not passed; or under the CPU emulation every selected check was a
// speed check, not measured there).
#include <sys/prctl.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "contract/exit_status.hpp"
#include "contract/seed.hpp"
#include "harness/check.hpp"
#include "harness/device_info.hpp"
#include "harness/host_refusal.hpp"
#include "harness/sanitizer_stream.hpp"
#include "harness/student_call.hpp"
#include "harness/trace.hpp"

#ifndef LAB_SPEC_PATH
#error "LAB_SPEC_PATH must name the lab's spec.json"
#endif
#ifndef LAB_RESULTS_DIR
#error "LAB_RESULTS_DIR must name the default results folder"
#endif

namespace {

namespace exit_status = contract::exit_status;

struct Options {
  std::optional<std::string> seed;
  std::string launcher;
  std::string results_dir = LAB_RESULTS_DIR;
  std::string spec = LAB_SPEC_PATH;
};

std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto value = [&](std::string_view flag) -> std::optional<std::string> {
      if (arg.rfind(std::string(flag) + "=", 0) == 0)
        return std::string(arg.substr(flag.size() + 1));
      if (arg == flag && i + 1 < argc) return std::string(argv[++i]);
      return std::nullopt;
    };
    if (auto v = value("--seed")) {
      options.seed = *v;
    } else if (auto v = value("--results-dir")) {
      options.results_dir = *v;
    } else if (auto v = value("--spec")) {
      options.spec = *v;
    } else if (auto v = value("--launcher")) {
      options.launcher = *v;
    } else {
      std::fprintf(stderr,
                   "unknown argument '%s'\nusage: %s [--seed N] [--results-dir DIR] "
                   "[--spec FILE] [--launcher PROGRAM] [--gtest_filter=Suite.Name]\n",
                   argv[i], argv[0]);
      return std::nullopt;
    }
  }
  return options;
}

// The tests compiled in and the checks in the spec must be the same set, or points would be
// given for checks that never run (or checks would run for no points).
bool tests_match_spec(const contract::LabSpec& spec) {
  std::set<std::string> compiled;
  const auto* unit = ::testing::UnitTest::GetInstance();
  for (int s = 0; s < unit->total_test_suite_count(); ++s) {
    const auto* suite = unit->GetTestSuite(s);
    for (int t = 0; t < suite->total_test_count(); ++t) {
      compiled.insert(fmt::format("{}.{}", suite->name(), suite->GetTestInfo(t)->name()));
    }
  }
  bool ok = true;
  for (const auto& check : spec.checks) {
    if (!compiled.erase(check.id)) {
      std::fprintf(stderr, "%s: check '%s' has no test in this program\n", spec.source.c_str(),
                   check.id.c_str());
      ok = false;
    }
  }
  for (const auto& id : compiled) {
    std::fprintf(stderr, "%s: the test '%s' has no entry in the spec\n", spec.source.c_str(),
                 id.c_str());
    ok = false;
  }
  return ok;
}

// Sets up the run from the options: the spec, the grader's channel and seed, the launcher, and
// under the CPU emulation its schedule and sizes. False (with the error printed): a bad setup.
bool set_up_run(harness::LabRun& run, const Options& options, const char* argv0) {
  try {
    run.spec = contract::load_spec(options.spec);
    run.channel = contract::GraderChannel::open_from_environment();
    // Under the batch grader the seed is the grader's secret, whatever the command line says.
    run.seed =
        run.channel
            ? run.channel->message().seed
            : contract::choose_seed(options.seed ? std::optional<std::string_view>(*options.seed)
                                                 : std::nullopt);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return false;
  }
  if (!tests_match_spec(run.spec)) return false;
  run.results_dir = options.results_dir;
  run.executable = std::filesystem::absolute(argv0).lexically_normal().string();
  // The student's code runs in its own process (the launcher); this one holds nothing of it.
  // Not dumpable: that process, under the same user, cannot read or trace this one.
  ::prctl(PR_SET_DUMPABLE, 0);
  // A launcher that closes its socket must not kill this program with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  run.launcher = !options.launcher.empty()                ? options.launcher
                 : std::getenv("LAB_LAUNCHER") != nullptr ? std::getenv("LAB_LAUNCHER")
                                                          : LAB_LAUNCHER_PATH;
  harness::set_student_launcher(run.launcher);

#ifdef LABS_EMULATION
  // The CPU emulation: the schedule's seed follows the lab's, so one replay command replays the
  // inputs and the order the threads ran in; checks whose sizes are too large for the CPU use
  // their spec's "emulation" sizes.
  try {
    emu::configure(emu::settings_from_environment(run.seed));
    contract::apply_overrides(run.spec, "emulation");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return false;
  }
  run.emulated = true;
  run.backend = "emulation: " + emu::describe();
#endif
  return true;
}

// Finds the GPU (or why there is none) and prints what the run is: the seed and the backend.
void find_device_and_print_banner(harness::LabRun& run) {
  run.gpu_unavailable = harness::gpu_unavailable_reason();
  if (run.gpu_unavailable.empty()) {
    try {
      run.device = harness::query_device();
    } catch (const std::exception& error) {
      run.gpu_unavailable = error.what();
    }
  }
  harness::trace("the lab program's CUDA is ready");
  std::printf("%s (%s): seed %llu (replay with LAB_SEED=%llu or --seed %llu)\n",
              run.spec.lab.c_str(), run.spec.title.c_str(),
              static_cast<unsigned long long>(run.seed), static_cast<unsigned long long>(run.seed),
              static_cast<unsigned long long>(run.seed));
  if (run.emulated) {
    std::printf(
        "Backend: %s (no GPU: correctness and launch shapes are checked, speed is not "
        "measured; LABS_EMU_SCHEDULE=forward|reverse|random)\n",
        run.backend.c_str());
  } else if (run.device) {
    std::printf("GPU: %s (compute capability %s, driver %s)\n", run.device->name.c_str(),
                run.device->compute_capability.c_str(), run.device->driver_version.c_str());
  } else {
    std::printf("SKIPPED: %s; the checks need an NVIDIA GPU\n", run.gpu_unavailable.c_str());
  }
  std::fflush(stdout);
}

// The lab program's exit status from GoogleTest's (contract/exit_status.hpp).
int exit_status_of(int status, const harness::LabRun& run) {
  if (!run.gpu_unavailable.empty()) return exit_status::skipped;
  const auto* unit = ::testing::UnitTest::GetInstance();
  if (run.emulated && status == 0 && unit->successful_test_count() == 0 &&
      unit->skipped_test_count() > 0) {
    return exit_status::skipped;  // only speed checks ran: neither passed nor failed
  }
  return status == 0 ? exit_status::pass : exit_status::fail;
}

// An exception nobody caught: a thread the host refused (std::system_error EAGAIN, from
// std::async or std::thread anywhere in the harness) ends the program as refused by the host,
// not as a crash charged to the check that was running. Anything else: the usual handler (its
// "terminate called after throwing ..." line).
std::terminate_handler usual_terminate = nullptr;

[[noreturn]] void on_terminate() {
  if (const auto current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::system_error& error) {
      harness::end_if_refused_by_host(error);
    } catch (...) {
    }
  }
  if (usual_terminate) usual_terminate();
  std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  usual_terminate = std::set_terminate(on_terminate);
  ::testing::InitGoogleTest(&argc, argv);  // takes out the --gtest_ flags
  const auto options = parse_options(argc, argv);
  if (!options) return exit_status::bad_setup;

  auto& run = harness::lab_run();
  if (!set_up_run(run, *options, argv[0])) return exit_status::bad_setup;
  harness::keep_student_text_out_of_sanitizer_report(run.channel.has_value());
  // A program started before its turn (the batch's speed runs) starts the student's code only
  // once the turn has come: nothing of the student's runs while another submission is timed.
  const bool waits_for_turn = run.channel && run.channel->message().wait_for_turn;
  if (!::testing::GTEST_FLAG(list_tests) && !waits_for_turn) harness::prepare_student_launcher();
  find_device_and_print_banner(run);

  if (waits_for_turn) {
    // Started while another run may be timing: the CUDA contexts, the slow part of starting,
    // are made now; no check runs, and no code of the student's, until the grader says go.
#ifndef LABS_EMULATION
    if (run.gpu_unavailable.empty()) {
      cudaFree(nullptr);  // the lab program's own context
      harness::prepare_student_context();
    }
#endif
    try {
      run.channel->wait_for_turn();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "error: %s\n", error.what());
      return exit_status::bad_setup;
    }
    harness::trace("the grader gave the go-ahead");
    harness::prepare_student_launcher();
  }

  return exit_status_of(RUN_ALL_TESTS(), run);
}
