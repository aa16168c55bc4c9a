#include "batch/sanitize_step.hpp"

#include <algorithm>
#include <future>
#include <map>

#include <fmt/format.h>

#include "batch/sanitizer_report.hpp"
#include "contract/device_buffer_note.hpp"

namespace batch {
namespace {

using contract::CheckRecord;
using contract::Verdict;

// The checks worth the pass: correctness checks that earned something (a failed check has
// nothing left to lose).
std::vector<std::string> checks_to_sanitize(const contract::LabSpec& spec,
                                            const std::vector<CheckRecord>& records) {
  std::vector<std::string> checks;
  for (const auto& record : records) {
    const auto* check = spec.find(record.check);
    if (!check || check->kind != "correctness") continue;
    if (record.verdict == Verdict::pass ||
        (record.verdict == Verdict::fail && record.fraction > 0)) {
      checks.push_back(record.check);
    }
  }
  return checks;
}

// compute-sanitizer prints its summary last: without it the pass did not finish.
bool finished(const std::string& tool, const std::string& output) {
  return output.find(tool == "racecheck" ? "RACECHECK SUMMARY:" : "ERROR SUMMARY:") !=
         std::string::npos;
}

std::vector<contract::DeviceBufferPlace> buffers_of(const std::vector<CheckRecord>& records,
                                                    const std::string& check) {
  std::vector<contract::DeviceBufferPlace> buffers;
  for (const auto& record : records) {
    if (record.check != check) continue;
    for (const auto& note : record.notes) {
      if (auto place = contract::parse_device_buffer_note(note)) buffers.push_back(*place);
    }
  }
  return buffers;
}

void fail_with_findings(CheckRecord& record, const std::string& tool,
                        const std::vector<std::string>& words) {
  const bool race = tool == "racecheck";
  record.verdict = Verdict::fail;
  record.fraction = 0;
  record.diagnosis.reset();
  record.reason = fmt::format(
      "compute-sanitizer {} found {} in your kernel (the results can look right, but the code is "
      "wrong): {}",
      tool, race ? "a race on shared memory" : "an access outside the memory it was given",
      words.front());
  for (std::size_t i = 1; i < words.size(); ++i) record.notes.push_back(words[i]);
  record.notes.push_back(fmt::format(
      "compute-sanitizer {} ran on this check's first case; the line is your file's", tool));
}

// The lab program's run under one compute-sanitizer tool.
RunRequest under_tool(const RunRequest& request, const std::string& sanitizer,
                      const std::string& tool) {
  RunRequest sanitized = request;
  // Only the lab program is tracked: the launcher runs the student's host code against a
  // stand-in runtime and must not load the real driver. 200 reports: at 20, the first check's
  // errors hid the later checks' (lab 7's loads past the edge, H100).
  sanitized.command = {sanitizer,
                       "--tool",
                       tool,
                       "--target-processes",
                       "application-only",
                       "--print-limit",
                       "200",
                       "--report-api-errors",
                       "no"};
  sanitized.command.insert(sanitized.command.end(), request.command.begin(), request.command.end());
  sanitized.policy.env.emplace_back("LAB_SANITIZER", tool);
  sanitized.policy.env.emplace_back("LAB_SANITIZER_CASES", "first");
  return sanitized;
}

}  // namespace

SanitizerOutcome sanitize_checks(const contract::LabSpec& spec, const SanitizerPass& pass,
                                 RunRequest request, std::vector<CheckRecord>& records) {
  SanitizerOutcome outcome;
  const auto checks = checks_to_sanitize(spec, records);
  if (pass.sanitizer.empty() || checks.empty()) return outcome;
  request.checks = checks;
  std::vector<std::string> all_checks;  // a finding is named after any check, run or not
  for (const auto& check : spec.checks) all_checks.push_back(check.id);
  request.check_limits.clear();  // the reference's durations were measured without the sanitizer
  request.startup_seconds = std::max(request.startup_seconds, 60.0);
  // The CUDA toolkit's compute-sanitizer is readable by root only on some installs (the H100
  // machine's: "cannot open ... Permission denied" under the run's uid of its own). The pass runs
  // as root without capabilities, as builds do; time and memory limits stay.
  request.policy.own_uid = false;
  // The tools run side by side, each in its own process: the pass holds the GPU's shared slot
  // for the longer of them, not for their sum.
  struct ToolRun {
    std::string tool;
    std::string output;
    RunOutcome ran;
  };
  std::vector<std::future<ToolRun>> running;
  for (const auto& tool : pass.tools) {
    RunRequest sanitized = under_tool(request, pass.sanitizer, tool);
    running.push_back(std::async(std::launch::async, [&spec, tool, sanitized]() mutable {
      ToolRun run{tool, {}, {}};
      sanitized.on_output = [&run](std::string_view text) {
        if (run.output.size() < (8u << 20)) run.output.append(text);
      };
      run.ran = run_checks(spec, sanitized);
      return run;
    }));
  }
  std::map<std::string, std::vector<std::string>> failed;  // check -> the findings' words
  std::map<std::string, std::string> failed_by;            // check -> the tool
  for (auto& future : running) {
    const ToolRun run = future.get();
    ++outcome.runs;
    if (!finished(run.tool, run.output)) {
      outcome.problems.push_back(fmt::format(
          "the compute-sanitizer {} pass did not finish; its findings are not known", run.tool));
      // For the instructor: what the sanitizer said, never shown to a student.
      const auto tail =
          run.output.size() > 600 ? run.output.substr(run.output.size() - 600) : run.output;
      outcome.log.push_back(fmt::format("compute-sanitizer {} did not finish ({} process(es)): {}",
                                        run.tool, run.ran.processes, tail));
    }
    for (const auto& finding : parse_sanitizer_output(run.tool, run.output, all_checks)) {
      // Only the student's code is judged: their files are compiled with -lineinfo, so their
      // kernels' findings name them. One elsewhere (the harness's or a library's kernels) is a
      // problem of the kit's, for the instructor's log.
      const bool students = std::find(pass.student_files.begin(), pass.student_files.end(),
                                      finding.file) != pass.student_files.end();
      if (!students) {
        outcome.log.push_back(
            fmt::format("compute-sanitizer {} finding outside the student's "
                        "files, not charged to them: {} in {} ({})",
                        run.tool, finding.what, finding.kernel,
                        finding.file.empty() ? "no line" : finding.file));
        continue;
      }
      // A finding whose check is not known (a race reported after the program's last line) is
      // charged to the first check the pass ran.
      const std::string check = finding.check.empty() ? checks.front() : finding.check;
      if (std::find(checks.begin(), checks.end(), check) == checks.end()) continue;
      if (failed_by.count(check) && failed_by[check] != run.tool) continue;  // one tool's words
      failed_by[check] = run.tool;
      failed[check].push_back(
          describe_finding(finding, buffers_of(run.ran.records, check), pass.student_files));
      ++outcome.findings;
    }
  }
  for (auto& record : records) {
    if (const auto it = failed.find(record.check); it != failed.end()) {
      fail_with_findings(record, failed_by[record.check], it->second);
    }
  }
  return outcome;
}

}  // namespace batch
