#include "expectation_parts.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "expectation.hpp"
#include "isolation_lines.hpp"

namespace grader {
namespace {

using contract::CheckRecord;

// The evidence kinds of the records, each once, in order.
std::set<std::string> kinds_of(const std::vector<CheckRecord>& records) {
  std::set<std::string> kinds;
  for (const auto& record : records) {
    for (const auto& fact : record.evidence) kinds.insert(fact.kind);
  }
  return kinds;
}

// The words of the facts of `kind` among the records, each once, sorted.
std::set<std::string> words_of(const std::vector<CheckRecord>& records, const std::string& kind) {
  std::set<std::string> words;
  for (const auto& record : records) {
    for (const auto& fact : record.evidence) {
      if (fact.kind == kind && !fact.words.empty()) words.insert(fact.words);
    }
  }
  return words;
}

}  // namespace

std::vector<std::string> missing_evidence(const std::vector<std::string>& expected,
                                          const std::vector<CheckRecord>& records) {
  const auto found = kinds_of(records);
  std::vector<std::string> missing;
  for (const auto& kind : expected) {
    if (!found.count(kind)) missing.push_back(kind);
  }
  return missing;
}

namespace expectation_parts {

const CheckRecord* find_record(const std::vector<CheckRecord>& records, const std::string& check) {
  const auto found = std::find_if(records.begin(), records.end(),
                                  [&](const CheckRecord& record) { return record.check == check; });
  return found == records.end() ? nullptr : &*found;
}

std::string not_judged_line(const CheckRecord& record) {
  return fmt::format("not judged: {} is {} here ({})", record.check,
                     contract::verdict_words(record.verdict), record.reason);
}

bool holds_words(const CheckRecord& record, const std::string& words) {
  if (record.reason.find(words) != std::string::npos) return true;
  const nlohmann::json json = record;
  return json.dump().find(words) != std::string::npos;
}

bool grader_paths_shown(const std::string& output, std::vector<std::string>& lines) {
  static const std::regex kit_source(
      R"((harness|contract|launcher|emulation)/(src|include)/[A-Za-z0-9_/]+\.(cu|cpp|hpp|h):)");
  std::vector<std::string> shown;
  std::istringstream in(output);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (std::regex_search(line, kit_source)) shown.push_back(fmt::format("{}:{}", number, line));
  }
  if (shown.empty()) return false;
  lines.emplace_back("GRADER PATH SHOWN: the output names a file of the kit's sources:");
  lines.insert(lines.end(), shown.begin(), shown.begin() + std::min<std::size_t>(shown.size(), 5));
  return true;
}

bool not_isolated_by_hand(const std::vector<std::string>& isolation_lines,
                          std::vector<std::string>& lines) {
  const std::string why_not = why_not_isolated(isolation_lines);
  const std::string how = how_isolated(isolation_lines);
  if (!why_not.empty()) {
    lines.push_back(fmt::format("NOT ISOLATED: the launcher ran without isolation ({})", why_not));
  } else if (how.empty()) {
    lines.emplace_back("NOT ISOLATED: the lab program did not say how its launcher was isolated");
  } else if (how == "bubblewrap") {
    lines.emplace_back(
        "NOT ISOLATED BY HAND: the launcher ran under bubblewrap, which this test leaves out");
  } else {
    lines.push_back(fmt::format("isolated without bubblewrap: {}", how));
    return false;
  }
  return true;
}

bool out_of_sandbox(const std::vector<std::string>& isolation_lines,
                    const std::string& bubblewrap_here, std::vector<std::string>& lines) {
  if (bubblewrap_here.empty()) {
    lines.emplace_back(
        "not checked: bubblewrap cannot run here, so the launcher may run without it");
    return false;
  }
  const std::string how = how_isolated(isolation_lines);
  const bool every_launcher_in_it =
      how == "bubblewrap" &&
      std::all_of(isolation_lines.begin(), isolation_lines.end(),
                  [](const std::string& line) { return line == "isolated: bubblewrap"; });
  if (every_launcher_in_it) {
    lines.emplace_back("kept in bubblewrap, as it must be");
    return false;
  }
  const std::string why_not = why_not_isolated(isolation_lines);
  lines.push_back(fmt::format("OUT OF ITS SANDBOX: {} runs here, but the launcher ran {}{}",
                              bubblewrap_here,
                              why_not.empty() ? "" : fmt::format("not isolated ({})", why_not),
                              how.empty() ? "" : fmt::format("isolated: {}", how)));
  return true;
}

bool evidence_missing(const std::vector<std::string>& expected, const std::string& rerun_checks,
                      const std::vector<CheckRecord>& records,
                      const std::vector<CheckRecord>* rerun, std::vector<std::string>& lines) {
  std::vector<CheckRecord> all = records;
  if (rerun) {
    lines.push_back(fmt::format("evidence: running {} for the emulator's facts", rerun_checks));
    all.insert(all.end(), rerun->begin(), rerun->end());
  }
  const auto found = kinds_of(all);
  bool missing = false;
  for (const auto& kind : expected) {
    if (found.count(kind)) {
      lines.push_back(fmt::format("evidence: the records carry {}, as they must:", kind));
      const auto words = words_of(all, kind);
      for (auto it = words.begin(); it != words.end() && std::distance(words.begin(), it) < 2; ++it)
        lines.push_back("  " + *it);
      continue;
    }
    lines.push_back(
        fmt::format("NO EVIDENCE: no record's evidence has a {} fact (the run's: {})", kind,
                    found.empty() ? "none" : fmt::format("{}", fmt::join(found, ", "))));
    missing = true;
  }
  return missing;
}

}  // namespace expectation_parts
}  // namespace grader
