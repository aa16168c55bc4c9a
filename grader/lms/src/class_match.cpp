// match_class: each submission placed with a roster student (by the id its download name
// carries, or by name where the roster has no ids to go by), each student's submissions reduced
// to the one graded (class_pick.cpp), and the students left without one.
#include "lms/class_match.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "class_pick.hpp"

namespace lms {
namespace {

// Names compared as people would: ASCII case folded, runs of spaces as one, ends trimmed.
std::string name_key(std::string_view name) {
  std::string key;
  bool space = false;
  for (const char c : name) {
    if (c == ' ' || c == '\t') {
      space = !key.empty();
      continue;
    }
    if (space) key += ' ';
    space = false;
    key += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return key;
}

class RosterIndex {
 public:
  explicit RosterIndex(const Roster& roster) {
    for (std::size_t i = 0; i < roster.students.size(); ++i) {
      if (!roster.students[i].id.empty()) by_id_.emplace(roster.students[i].id, i);
      by_name_[name_key(roster.students[i].name)].push_back(i);
    }
  }
  std::optional<std::size_t> by_id(const std::string& id) const {
    const auto it = by_id_.find(id);
    return it == by_id_.end() ? std::nullopt : std::optional(it->second);
  }
  std::vector<std::size_t> by_name(std::string_view name) const {
    const auto it = by_name_.find(name_key(name));
    return it == by_name_.end() ? std::vector<std::size_t>{} : it->second;
  }

 private:
  std::map<std::string, std::size_t> by_id_;
  std::map<std::string, std::vector<std::size_t>> by_name_;
};

struct Placement {
  std::optional<std::size_t> student;
  std::string why;  // when there is none
};

// Whether a download of `lms` can be one of this roster's students by its id: a Canvas export
// holds Canvas user ids, a Moodle worksheet participant numbers; a plain roster whatever its
// author put there.
bool fits(RosterKind kind, Lms lms) {
  if (kind == RosterKind::canvas) return lms == Lms::canvas;
  if (kind == RosterKind::plain) return true;
  return lms == Lms::moodle;
}

std::string not_found(const Roster& roster, const std::optional<DownloadName>& download,
                      const std::string& stem) {
  switch (roster.kind) {
    case RosterKind::canvas:
      return download ? fmt::format("Canvas user id {} is not in the roster", download->id)
                      : "its name is not a Canvas download's "
                        "(name_userid_attachmentid_file)";
    case RosterKind::moodle_worksheet:
      return download ? fmt::format("participant {} is not in the worksheet", download->id)
                      : "its name is not a Moodle download's "
                        "(Full name_participant_assignsubmission_file)";
    case RosterKind::moodle_grades:
      return fmt::format("no roster student is named '{}'", download ? download->name : stem);
    case RosterKind::plain:
      break;
  }
  return download ? fmt::format("id {} is not in the roster", download->id)
                  : fmt::format("no roster student has the id or name '{}'", stem);
}

std::string ambiguous(const Roster& roster, const std::vector<std::size_t>& found,
                      std::string_view name) {
  std::string lines;
  for (const std::size_t i : found) {
    lines += fmt::format("{}{}", lines.empty() ? "" : ", ", roster.students[i].line);
  }
  return fmt::format("{} roster students are named '{}' (lines {}): give the roster ids",
                     found.size(), name, lines);
}

Placement place(const Entry& entry, const Roster& roster, const RosterIndex& index) {
  const std::string& stem = entry.submission.student;
  if (entry.download) {
    if (auto who = index.by_id(entry.download->id)) return {who, ""};
  } else if (roster.kind == RosterKind::plain) {
    if (auto who = index.by_id(stem)) return {who, ""};  // a folder named by the student's id
  }
  // By name only where ids cannot say: a Canvas name is a mangled sortable name, and Canvas and
  // worksheet rosters have an id for everyone.
  const bool by_name = roster.kind == RosterKind::plain || roster.kind == RosterKind::moodle_grades;
  if (by_name && !(entry.download && entry.download->lms == Lms::canvas)) {
    const std::string name = entry.download ? entry.download->name : stem;
    const auto found = index.by_name(name);
    if (found.size() == 1) return {found.front(), ""};
    if (found.size() > 1) return {std::nullopt, ambiguous(roster, found, name)};
  }
  return {std::nullopt, not_found(roster, entry.download, stem)};
}

// The download reading that fits the roster: the first whose id is a student's, else the first.
std::optional<DownloadName> reading_for(const intake::Submission& submission, const Roster& roster,
                                        const RosterIndex& index) {
  std::optional<DownloadName> first;
  for (DownloadName& reading : read_download_name(submission.student)) {
    if (!fits(roster.kind, reading.lms)) continue;
    if (index.by_id(reading.id)) return std::move(reading);
    if (!first) first = std::move(reading);
  }
  return first;
}

// The roster's name for a student, with the id where two students share the name.
std::string display_name(const Roster& roster, const RosterIndex& index, std::size_t student) {
  const RosterStudent& who = roster.students[student];
  if (index.by_name(who.name).size() < 2) return who.name;
  return fmt::format("{} ({})", who.name,
                     who.id.empty() ? fmt::format("line {}", who.line) : who.id);
}

}  // namespace

ClassMatch match_class(std::vector<intake::Submission> submissions, const Roster& roster,
                       const std::vector<std::string>& optional_sources) {
  const RosterIndex index(roster);
  ClassMatch match;
  std::map<std::size_t, std::vector<Entry>> by_student;
  std::vector<Entry> unmatched;
  for (intake::Submission& submission : submissions) {
    Entry entry{std::move(submission), std::nullopt};
    entry.download = reading_for(entry.submission, roster, index);
    const Placement placement = place(entry, roster, index);
    if (placement.student) {
      match.matched.push_back(
          {*placement.student, entry.name(), entry.download && entry.download->late});
      by_student[*placement.student].push_back(std::move(entry));
    } else {
      match.unmatched.push_back({entry.name(), placement.why});
      unmatched.push_back(std::move(entry));
    }
  }
  for (auto& [student, entries] : by_student) {
    Entry graded = pick_submission(std::move(entries), student, optional_sources, match);
    graded.submission.student = display_name(roster, index, student);
    match.student_of_slug[graded.submission.slug] = student;
    if (graded.download) match.download_of_slug[graded.submission.slug] = *graded.download;
    match.to_grade.push_back(std::move(graded.submission));
  }
  std::sort(match.to_grade.begin(), match.to_grade.end(),
            [](const intake::Submission& a, const intake::Submission& b) {
              return a.student != b.student ? a.student < b.student : a.source < b.source;
            });
  for (Entry& entry : unmatched) {
    if (entry.download) match.download_of_slug[entry.submission.slug] = *entry.download;
    match.to_grade.push_back(std::move(entry.submission));
  }
  for (std::size_t i = 0; i < roster.students.size(); ++i) {
    if (!by_student.contains(i)) match.missing.push_back(i);
  }
  return match;
}

}  // namespace lms
