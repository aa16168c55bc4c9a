#include "report_command.hpp"

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "common/atomic_file.hpp"
#include "contract/grade.hpp"
#include "contract/record.hpp"
#include "contract/spec.hpp"
#include "reports/render.hpp"
#include "run_command.hpp"

namespace grader {
namespace {

// Written whole or not at all: a report open in a browser never shows half of one.
void write_text(const std::filesystem::path& file, const std::string& text) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  common::write_file_atomically(file, text);
}

// The first record note saying that the run was not isolated, or "".
std::string not_isolated_note(const std::vector<contract::CheckRecord>& records) {
  for (const auto& record : records) {
    for (const auto& note : record.notes) {
      if (note.rfind(kNotIsolatedNote, 0) == 0) return note;
    }
  }
  return "";
}

// ", 2 skipped (why), 1 not measured (speed needs a GPU)": the checks neither passed nor failed,
// and those failed as implausible, for the one-line summary.
std::string not_judged_text(const contract::LabGrade& grade) {
  int skipped = 0;
  int not_measured = 0;
  int implausible = 0;
  std::string skip_reason;
  for (const auto& check : grade.checks) {
    if (check.verdict == contract::Verdict::skipped) {
      ++skipped;
      if (skip_reason.empty() && check.record) skip_reason = check.record->reason;
    }
    // Speed under the CPU emulation: neither passed nor failed, and no points.
    not_measured += check.verdict == contract::Verdict::not_measured;
    implausible += check.verdict == contract::Verdict::implausible;
  }
  auto text = skipped ? fmt::format(", {} skipped ({})", skipped, skip_reason) : std::string();
  if (not_measured) text += fmt::format(", {} not measured (speed needs a GPU)", not_measured);
  // Failed, but not as a slow kernel does: the terminal says so before the report is opened.
  if (implausible) {
    text += fmt::format(", {} implausible (a speed beyond what this GPU can do)", implausible);
  }
  return text;
}

}  // namespace

int report_command(const ReportOptions& options) {
  try {
    auto spec = contract::load_spec(options.spec);
    std::vector<std::string> problems;
    auto records = contract::read_records(options.results_dir, &problems);
    // A run whose launcher was not isolated (`labgrade run`'s note on its records) says so at the
    // top of the report and in the summary, not only beside each check.
    const std::string not_isolated = not_isolated_note(records);
    if (!not_isolated.empty()) problems.push_back(not_isolated);
    // Checks that ran under the CPU emulation ran the spec's "emulation" sizes: the report shows
    // the titles that name those sizes. Points are the same either way.
    if (contract::ran_under_emulation(records)) contract::apply_overrides(spec, "emulation");
    const auto grade = contract::grade_lab(spec, std::move(records), std::move(problems));

    reports::ReportContext context;
    context.generated_at = contract::utc_timestamp();
    context.kernel_source = options.kernel_source;
    context.handout = options.handout;
    context.student = options.student;
    const auto out = std::filesystem::absolute(options.out).lexically_normal();
    write_text(out, reports::render_lab_report(grade, context));

    int passed = 0;
    for (const auto& check : grade.checks) passed += check.verdict == contract::Verdict::pass;
    const auto skipped_text = not_judged_text(grade);
    const auto summary = fmt::format("{} ({}): {}, {} of {} checks passed{}; report: {}", grade.lab,
                                     grade.title, contract::format_score_line(grade), passed,
                                     grade.checks.size(), skipped_text, out.string());
    std::printf("%s\n", summary.c_str());
    for (const auto& problem : grade.problems) std::printf("warning: %s\n", problem.c_str());
    const auto isolation_line =
        not_isolated.empty() ? std::string() : fmt::format("{}: {}\n", grade.lab, not_isolated);
    if (!options.summary_file.empty()) {
      write_text(options.summary_file, summary + "\n" + isolation_line);
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade report: %s\n", error.what());
    return 2;
  }
}

}  // namespace grader
