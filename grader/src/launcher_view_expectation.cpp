// `labcheck expect launcher-view`'s decision: the view a launcher isolated by hand must have of
// the machine (harness/runtime/src/student/launcher_view.hpp, launcher_isolation.hpp).
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "contract/exit_status.hpp"
#include "expectation.hpp"

namespace grader {
namespace {

// Whether a line of `text` holds a match of `pattern` (as grep does).
bool any_line_matches(const std::string& text, const std::string& pattern) {
  const std::regex expression(pattern);
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const auto end = text.find('\n', begin);
    const auto line =
        text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (std::regex_search(line, expression)) return true;
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return false;
}

// The first line of `text` that holds `words`, else "".
std::string line_with(const std::string& text, const std::string& words) {
  const auto at = text.find(words);
  if (at == std::string::npos) return "";
  const auto begin = text.rfind('\n', at);
  const auto end = text.find('\n', at);
  const auto from = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(from, end == std::string::npos ? std::string::npos : end - from);
}

}  // namespace

Judgement judge_launcher_view(const LauncherViewSeen& seen) {
  Judgement judgement;
  const auto fail = [&](const std::string& what) {
    judgement.lines.push_back("NOT ISOLATED AS IT MUST BE: " + what);
    judgement.status = contract::exit_status::fail;
  };
  const std::string isolation = fmt::format("{}", fmt::join(seen.isolation_lines, "\n"));
  const auto& out = seen.output;
  if (!any_line_matches(isolation, "^isolated: uid [0-9]* in a PID namespace of its own")) {
    fail("the lab program did not isolate it by hand in a PID namespace: " + isolation);
  }
  if (!any_line_matches(out, "view uid: 2[0-9]{5}$")) {
    fail("it did not run (from under /tmp) as a sandbox uid of its own");
  }
  if (!any_line_matches(out,
                        "view dev: fd full null random shm stderr stdin stdout urandom zero $")) {
    fail("its /dev is not its own (no GPU device nodes): " + line_with(out, "view dev"));
  }
  if (any_line_matches(out, "view init:.*--seed"))
    fail("its /proc/1/cmdline shows the lab program's");
  if (!any_line_matches(out, "view nproc: 1024$")) fail("its processes are not limited to 1024");
  if (any_line_matches(out, "view marker")) fail("it sees the machine's /tmp");
  if (seen.left_file_in_machine_tmp) fail("what it wrote in its /tmp is in the machine's");
  if (!any_line_matches(out, "view tmp: writable")) fail("its own /tmp is not writable");
  if (!any_line_matches(out, "view shm: writable")) fail("its own /dev/shm is not writable");
  if (judgement.status == contract::exit_status::pass) {
    judgement.lines.push_back("isolated by hand as it must be: " + isolation);
  }
  return judgement;
}

}  // namespace grader
