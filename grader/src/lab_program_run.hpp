// One run of a lab program on a student's machine, as ctest runs it: through the batch's runner
// and verdict table (batch/run_step.hpp, batch/verdict_table.hpp), with the student's machine's
// request (student_run.hpp: no isolation, no limits but time), with LAB_ISOLATION_FILE set so that
// the lab program says how it kept its launcher (the student's code) apart. `labcheck run` and
// `labcheck expect` both run the program here, so a check ctest grades and a known-wrong kernel's
// self-test are judged by the same rules.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "batch/run_step.hpp"
#include "contract/spec.hpp"
#include "student_run.hpp"  // kInterrupted

namespace grader {

struct LabProgramRequest {
  // The lab program and the arguments it always gets; the runner adds --gtest_filter.
  std::vector<std::string> command;
  std::vector<std::string> checks;  // in spec order
  double max_check_seconds = 0;     // 0: each check's own timeout_s from the spec
  std::uint64_t seed = 0;           // sent over the grader channel
  bool show_output = true;          // print the program's output as it comes
  // Set for the program on top of the caller's environment (LAB_LAUNCHER, LABGRADE_BWRAP).
  std::vector<std::pair<std::string, std::string>> env;
};

struct LabProgramRun {
  batch::RunOutcome outcome;  // one record per check, decided by the verdict table
  std::string output;         // what the program printed, stdout and stderr together
  // The lab program's lines in LAB_ISOLATION_FILE, one per launcher it started: "isolated: how"
  // or "not isolated: why" (harness/runtime/src/student/launcher_isolation.hpp).
  std::vector<std::string> isolation_lines;
};

// Runs the checks; nullopt when Ctrl-C (or ctest) stopped it.
std::optional<LabProgramRun> run_lab_program(const contract::LabSpec& spec,
                                             const LabProgramRequest& request);

// The results folder made before the lab program starts, and left writable by its owner alone:
// the student's launcher, isolated under another uid, must not be able to write records there.
void prepare_results_folder(const std::filesystem::path& results_dir);
// The same, emptied first: no record of an earlier run stays (a self-test's folder).
void fresh_results_folder(const std::filesystem::path& results_dir);

// Removes the records and logs of `checks`: one left from an earlier run must never stand for
// this one, whatever happens next.
void forget_earlier_records(const std::filesystem::path& results_dir,
                            const std::vector<std::string>& checks);

// Writes each record (with the run's problems and `extra_note` when not empty) and its part of the
// output to the results folder, and prints its verdict line; the last record's ctest status, or
// nullopt when a record could not be written (said on stderr).
std::optional<int> keep_records(const std::filesystem::path& results_dir, LabProgramRun& run,
                                const std::string& extra_note);

// Where a check's part of the program's output is kept.
std::filesystem::path output_path(const std::filesystem::path& results_dir,
                                  const std::string& check);

}  // namespace grader
