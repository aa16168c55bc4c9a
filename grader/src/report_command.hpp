// `labgrade report`: result records + lab spec -> one self-contained HTML report, plus a one-line
// summary (score and report path) that ctest prints at the end of a run.
#pragma once

#include <string>

namespace grader {

struct ReportOptions {
  std::string spec;
  std::string results_dir;
  std::string out;
  std::string kernel_source;
  std::string handout;
  std::string student;
  std::string summary_file;  // optional: the summary line is also written here
};

int report_command(const ReportOptions& options);

}  // namespace grader
