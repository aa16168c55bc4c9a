#include "batch/sanitize_step.hpp"

#include <algorithm>
#include <future>
#include <map>

#include <fmt/format.h>

#include "batch/sanitizer_report.hpp"
#include "contract/device_buffer_note.hpp"
#include "contract/sanitizer_run.hpp"
#include "harness/mistakes.hpp"

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

// The findings of the runs, by check: which tool found them and the words for the student.
struct ChargedFindings {
  std::map<std::string, std::vector<std::string>> words;  // check -> the findings' words
  std::map<std::string, std::string> tool;                // check -> the tool
  std::map<std::string, std::string> first_what;          // check -> the first finding's "what"
};

// Case diagnoses that rest on something other than the output (the launch refused, a library's
// kernel): they stay when the output is no evidence.
bool rests_on_the_launch(const contract::Diagnosis& d) {
  return d.id == "launch_config_invalid" || d.id == "library_kernel";
}

// The id for memcheck's finding: only an out-of-bounds access of global memory says which guard
// is missing (an invalid __global__ read: a load past an input; a write: a store past the
// output). Anything else (shared or local memory, a misaligned address, a hardware exception)
// keeps memcheck's own words under the neutral memory_access_error.
std::string memcheck_id(const std::string& what) {
  if (what.find("misaligned") == std::string::npos) {
    if (what.starts_with("Invalid __global__ read")) return "reads_outside_inputs";
    if (what.starts_with("Invalid __global__ write")) return "out_of_bounds_write";
  }
  return "memory_access_error";
}

// memcheck's first finding in a check, and what becomes of the diagnoses. The rule: a diagnosis
// stays where a run that went to the end established it; memcheck's finding is the primary
// otherwise.
//  - The pass (`cut_short` false) ran apart from the graded run, which went to the end: the
//    check's diagnosis and the cases' stay, and a check without one gets memcheck's finding.
//  - Hosted (`cut_short`): memcheck ended a kernel of the check at its first bad access (in which
//    case, the finding does not say), so an output may be cut short. A case diagnosis checked
//    element by element (a product or layout hypothesis, harness::checked_element_by_element)
//    shows that its run wrote those elements: it stays, and so does the check's diagnosis where
//    such a case names it first. Other case diagnoses read from an output (never written, NaN
//    everywhere, a race, ...) are taken out; those that rest on the launch stay.
// Where the check's diagnosis stays, memcheck's finding is a note with its line ("Also: ...").
void diagnose_memcheck(CheckRecord& record, const std::string& what, const std::string& words,
                       bool cut_short) {
  if (cut_short) {
    for (auto& c : record.cases) {
      if (c.diagnosis && !rests_on_the_launch(*c.diagnosis) &&
          !harness::checked_element_by_element(*c.diagnosis)) {
        c.diagnosis.reset();
      }
    }
  }
  const bool established =
      record.diagnosis &&
      (!cut_short || std::ranges::any_of(record.cases, [&](const contract::CaseResult& c) {
        return c.verdict == Verdict::fail && c.diagnosis && c.diagnosis->id == record.diagnosis->id;
      }));
  const std::string ended =
      cut_short ? "; memcheck ended the kernel at that access, so the output of that run was cut "
                  "short and shows nothing more"
                : "";
  if (established) {
    record.notes.push_back(fmt::format("Also: {}{}", words, ended));
    return;
  }
  record.diagnosis = harness::make_diagnosis(memcheck_id(what), words + ended);
}

void fail_with_findings(CheckRecord& record, const std::string& tool,
                        const std::vector<std::string>& words, bool every_case,
                        const std::string& first_what) {
  const bool race = tool == "racecheck";
  record.verdict = Verdict::fail;
  record.fraction = 0;
  if (race) {
    record.diagnosis.reset();
  } else {
    diagnose_memcheck(record, first_what, words.front(), every_case);
  }
  record.reason = fmt::format(
      "compute-sanitizer {} found {} in your kernel (the results can look right, but the code is "
      "wrong): {}",
      tool, race ? "a race on shared memory" : "an access outside the memory it was given",
      words.front());
  for (std::size_t i = 1; i < words.size(); ++i) record.notes.push_back(words[i]);
  record.notes.push_back(
      fmt::format("compute-sanitizer {} ran on this check's {}; the line is your "
                  "file's",
                  tool, every_case ? "cases" : "first case"));
}

// compute-sanitizer's sandbox (SanitizerPass::as_root): as root without capabilities, as builds
// run, or under the run's own uid; room for the sanitizer's threads either way (enforced for the
// uid, told to the lab program for root); time and memory limits stay.
void run_as_the_pass_says(const SanitizerPass& pass, sandbox::Policy& policy) {
  if (pass.as_root) policy.own_uid = false;
  policy.max_processes = std::max(policy.max_processes, kSanitizedRunProcesses);
}

// The lab program's run under one compute-sanitizer tool.
RunRequest under_tool(const RunRequest& request, const SanitizerPass& pass,
                      const std::string& tool) {
  RunRequest sanitized = request;
  sanitized.command = sanitizer_command(pass.sanitizer, tool);
  sanitized.command.insert(sanitized.command.end(), request.command.begin(), request.command.end());
  sanitized.policy.env.emplace_back("LAB_SANITIZER", tool);
  if (pass.first_case_only) sanitized.policy.env.emplace_back("LAB_SANITIZER_CASES", "first");
  return sanitized;
}

// What one run under a tool printed, and what it recorded.
struct ToolRun {
  std::string tool;
  std::string output;
  RunOutcome ran;
};

// Adds what `run` found in the student's files to `charged`, for the checks in `eligible` only;
// the rest goes to the instructor's log (`outcome`).
void charge_findings(const SanitizerPass& pass, const ToolRun& run,
                     const std::vector<std::string>& all_checks,
                     const std::vector<std::string>& eligible, ChargedFindings& charged,
                     SanitizerOutcome& outcome) {
  if (!finished(run.tool, run.output)) {
    ++outcome.unfinished_runs;
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
      outcome.log.push_back(fmt::format(
          "compute-sanitizer {} finding outside the student's "
          "files, not charged to them: {} in {} ({})",
          run.tool, finding.what, finding.kernel, finding.file.empty() ? "no line" : finding.file));
      continue;
    }
    if (eligible.empty()) continue;
    // A finding whose check is not known (a race reported after the program's last line), or
    // not one the pass ran (it runs only the eligible checks, so the attribution is wrong), is
    // charged to the first check the run ran: a student's finding is never dropped.
    const bool ran = std::find(eligible.begin(), eligible.end(), finding.check) != eligible.end();
    const std::string check = ran ? finding.check : eligible.front();
    if (charged.tool.count(check) && charged.tool[check] != run.tool) continue;  // one tool's words
    charged.tool[check] = run.tool;
    charged.first_what.emplace(check, finding.what);
    charged.words[check].push_back(
        describe_finding(finding, buffers_of(run.ran.records, check), pass.student_files));
    ++outcome.findings;
  }
}

// The output up to the end of the last finding printed whole: compute-sanitizer closes each
// finding with a line of its prefix alone ("========= ").
std::string whole_findings(const std::string& output) {
  const auto end = output.rfind("\n========= \n");
  return end == std::string::npos ? std::string() : output.substr(0, end + 1);
}

void fail_charged_checks(const ChargedFindings& charged, std::vector<CheckRecord>& records,
                         bool every_case) {
  for (auto& record : records) {
    if (const auto it = charged.words.find(record.check); it != charged.words.end()) {
      fail_with_findings(record, charged.tool.at(record.check), it->second, every_case,
                         charged.first_what.at(record.check));
    }
  }
}

std::vector<std::string> all_check_ids(const contract::LabSpec& spec) {
  std::vector<std::string> ids;  // a finding is named after any check, run or not
  for (const auto& check : spec.checks) ids.push_back(check.id);
  return ids;
}

}  // namespace

// Only the lab program is tracked: the launcher runs the student's host code against a stand-in
// runtime and must not load the real driver. 200 reports: at 20, the first check's errors hid the
// later checks' (lab 7's loads past the edge, H100), and a check whose finding was not printed
// keeps points it should lose. API errors are the lab program's own (it probes each kernel's
// parameters with cuFuncGetParamInfo until the call fails): only the kernels' count.
std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool) {
  return {sanitizer,
          "--tool",
          tool,
          "--target-processes",
          "application-only",
          "--print-limit",
          "200",
          "--report-api-errors",
          "no"};
}

SanitizerOutcome sanitize_checks(const contract::LabSpec& spec, const SanitizerPass& pass,
                                 RunRequest request, std::vector<CheckRecord>& records) {
  SanitizerOutcome outcome;
  const auto checks = checks_to_sanitize(spec, records);
  const auto tools = pass_tools(pass);
  if (pass.sanitizer.empty() || checks.empty() || tools.empty()) return outcome;
  request.checks = checks;
  request.check_limits.clear();  // the reference's durations were measured without the sanitizer
  request.startup_seconds = std::max(request.startup_seconds, 60.0);
  run_as_the_pass_says(pass, request.policy);
  // The tools run side by side, each in its own process: the pass holds the GPU's shared slot
  // for the longer of them, not for their sum.
  std::vector<std::future<ToolRun>> running;
  for (const auto& tool : tools) {
    RunRequest sanitized = under_tool(request, pass, tool);
    running.push_back(std::async(std::launch::async, [&spec, tool, sanitized]() mutable {
      ToolRun run{tool, {}, {}};
      sanitized.on_output = [&run](std::string_view text) {
        if (run.output.size() < (8u << 20)) run.output.append(text);
      };
      run.ran = run_checks(spec, sanitized);
      return run;
    }));
  }
  ChargedFindings charged;
  for (auto& future : running) {
    const ToolRun run = future.get();
    ++outcome.runs;
    for (const auto& record : run.ran.records) {
      outcome.judged_records += record.verdict != contract::Verdict::skipped;
    }
    charge_findings(pass, run, all_check_ids(spec), checks, charged, outcome);
  }
  fail_charged_checks(charged, records, !pass.first_case_only);
  for (const auto& [check, words] : charged.words) outcome.failed_checks.insert(check);
  return outcome;
}

std::vector<std::string> pass_tools(const SanitizerPass& pass) {
  std::vector<std::string> tools;
  for (const auto& tool : pass.tools) {
    if (!(pass.hosted_memcheck && tool == "memcheck")) tools.push_back(tool);
  }
  return tools;
}

RunRequest hosted_memcheck_request(const RunRequest& request, const SanitizerPass& pass,
                                   const std::vector<std::string>& student_kernels) {
  RunRequest hosted = request;
  hosted.command = sanitizer_command(pass.sanitizer, "memcheck");
  // One bad access ends its kernel, not the student's CUDA context: the run goes on to the next
  // case. The padding after each allocation stands in for the harness's guard zones (which the
  // harness leaves out here): an access just past a buffer lands outside every allocation.
  hosted.command.insert(hosted.command.end(), {"--destroy-on-device-error", "kernel", "--padding",
                                               std::to_string(kHostedMemcheckPaddingBytes)});
  // Only the student's kernels are instrumented; the harness's and cuBLAS's run at full speed.
  for (const auto& kernel : student_kernels) {
    hosted.command.insert(hosted.command.end(), {"--kernel-name", "kne=" + kernel});
  }
  hosted.command.insert(hosted.command.end(), request.command.begin(), request.command.end());
  hosted.policy.env.emplace_back("LAB_SANITIZER", std::string(contract::kHostedMemcheck));
  hosted.startup_seconds = std::max(request.startup_seconds, 60.0);
  run_as_the_pass_says(pass, hosted.policy);
  return hosted;
}

SanitizerOutcome charge_hosted_findings(const contract::LabSpec& spec, const SanitizerPass& pass,
                                        const std::string& output,
                                        std::vector<CheckRecord>& records) {
  SanitizerOutcome outcome;
  outcome.runs = 1;
  ToolRun run{"memcheck", output, {}};
  run.ran.records = records;  // the buffers' places, noted in the records under the sanitizer
  std::vector<std::string> eligible;
  for (const auto& record : records) {
    const auto* check = spec.find(record.check);
    if (check && check->kind == "correctness") eligible.push_back(record.check);
  }
  // A run cut short (killed at its time limit: a kernel with thousands of bad accesses is slow to
  // report) may end in the middle of a finding. Only the findings it printed whole are read.
  if (!finished(run.tool, run.output)) run.output = whole_findings(run.output);
  ChargedFindings charged;
  charge_findings(pass, run, all_check_ids(spec), eligible, charged, outcome);
  fail_charged_checks(charged, records, true);
  for (const auto& [check, words] : charged.words) outcome.failed_checks.insert(check);
  // The places were for the words above; a student reads the record.
  for (auto& record : records) {
    std::erase_if(record.notes, [](const std::string& note) {
      return contract::parse_device_buffer_note(note).has_value();
    });
  }
  return outcome;
}

std::vector<std::string> take_checks_left_for_plain_run(std::vector<CheckRecord>& records) {
  std::vector<std::string> left;
  std::erase_if(records, [&left](const CheckRecord& record) {
    if (record.verdict != Verdict::skipped || !contract::left_for_plain_run(record.reason)) {
      return false;
    }
    left.push_back(record.check);
    return true;
  });
  return left;
}

}  // namespace batch
