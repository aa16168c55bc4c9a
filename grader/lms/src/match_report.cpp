// The matching in words, for the batch's output and OUT/roster-report.txt. File names are the
// students' (any bytes): each is cleaned to one line of valid UTF-8 without control characters.
#include <fmt/format.h>

#include "exports/text.hpp"
#include "lms/class_match.hpp"

namespace lms {
namespace {

std::string line_safe(std::string_view text) { return exports::text::clean(text, false); }

// "Smith, John (ID 12345)", "Zoë Ødegård (Participant 123456)", "Ann Lee (line 4)".
std::string student_label(const Roster& roster, std::size_t index) {
  const RosterStudent& student = roster.students[index];
  std::string which = !student.identifier.empty() ? student.identifier
                      : !student.id.empty()       ? "ID " + student.id
                                                  : fmt::format("line {}", student.line);
  return line_safe(fmt::format("{} ({})", student.name, which));
}

std::size_t left_out_count(const ClassMatch& match) {
  std::size_t count = 0;
  for (const Duplicate& duplicate : match.duplicates) count += duplicate.left_out.size();
  return count;
}

void add_summary(std::string& out, const Roster& roster, const ClassMatch& match) {
  out += fmt::format("Roster: {}, {} of {} students.\n", line_safe(roster.file.string()),
                     kind_words(roster.kind), roster.students.size());
  out += fmt::format(
      "Submissions: {} in the folder: {} student(s) graded, {} submission(s) matching no one "
      "(graded under their own names), {} duplicate(s) not graded; {} student(s) with no "
      "submission.\n",
      match.matched.size() + match.unmatched.size(), match.student_of_slug.size(),
      match.unmatched.size(), left_out_count(match), match.missing.size());
}

void add_problems(std::string& out, const Roster& roster, const ClassMatch& match) {
  if (!match.unmatched.empty()) {
    out += "\nSubmissions matching no one (graded, but left out of canvas.csv and moodle.csv):\n";
    for (const Unmatched& one : match.unmatched) {
      out += fmt::format("  {}: {}\n", line_safe(one.entry), line_safe(one.why));
    }
  }
  if (!match.missing.empty()) {
    out += "\nRoster students with no submission (left out of canvas.csv and moodle.csv):\n";
    for (const std::size_t student : match.missing) {
      out += fmt::format("  {}\n", student_label(roster, student));
    }
  }
  if (!match.duplicates.empty()) {
    out += "\nSeveral submissions of one student (one graded):\n";
    for (const Duplicate& duplicate : match.duplicates) {
      std::string left_out;
      for (const std::string& entry : duplicate.left_out) {
        left_out += (left_out.empty() ? "" : ", ") + line_safe(entry);
      }
      out += fmt::format("  {}: graded {}, {}; not graded: {}\n",
                         student_label(roster, duplicate.student), line_safe(duplicate.graded),
                         duplicate.rule, left_out);
    }
  }
}

void add_taken_and_matched(std::string& out, const Roster& roster, const ClassMatch& match,
                           bool matched) {
  if (!match.optional_taken.empty()) {
    out += "\nOptional files submitted on their own, built with the student's kernel:\n";
    for (const OptionalTaken& taken : match.optional_taken) {
      out += fmt::format("  {}: {} from {}\n", student_label(roster, taken.student), taken.file,
                         line_safe(taken.entry));
    }
  }
  if (!matched || match.matched.empty()) return;
  out += "\nEvery submission matched to a student:\n";
  for (const Matched& one : match.matched) {
    out += fmt::format("  {}: {}{}\n", student_label(roster, one.student), line_safe(one.entry),
                       one.late ? " (marked late)" : "");
  }
}

}  // namespace

std::string match_report(const Roster& roster, const ClassMatch& match, bool matched) {
  std::string out;
  add_summary(out, roster, match);
  add_problems(out, roster, match);
  add_taken_and_matched(out, roster, match, matched);
  return out;
}

}  // namespace lms
