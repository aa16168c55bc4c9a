// Several submissions of one student. The newest is graded: Canvas numbers uploads (a larger
// attachment id was uploaded later) and renames a file submitted again ("kernel-1.cu"); Moodle's
// download holds one submission per student, so two there are a folder and loose files, and the
// last in name order is taken. A lab's optional file (bonus.cu) is not a second submission: a
// loose one joins the graded kernel, as if it had been beside it.
#include "class_pick.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

namespace lms {
namespace {

namespace fs = std::filesystem;

std::string lowered(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

// The optional file a loose .cu entry is ("bonus.cu" for "smithjohn_12345_680_bonus.cu" and for
// its resubmission "..._bonus-1.cu"), if it is one.
std::optional<std::string> optional_file(const Entry& entry,
                                         const std::vector<std::string>& optional_sources) {
  if (!entry.download || lowered(entry.submission.source.extension().string()) != ".cu") {
    return std::nullopt;
  }
  std::error_code error;
  if (fs::is_directory(fs::symlink_status(entry.submission.source, error))) return std::nullopt;
  for (const std::string& file : optional_sources) {
    if (lowered(fs::path(file).stem().string()) == lowered(entry.download->original_base)) {
      return file;
    }
  }
  return std::nullopt;
}

std::uint64_t attachment_of(const Entry& entry) {
  return entry.download ? entry.download->attachment : 0;
}
int resubmission_of(const Entry& entry) {
  return entry.download ? entry.download->resubmission : 0;
}

bool older(const Entry& a, const Entry& b) {
  if (attachment_of(a) != attachment_of(b)) return attachment_of(a) < attachment_of(b);
  if (resubmission_of(a) != resubmission_of(b)) return resubmission_of(a) < resubmission_of(b);
  return a.name() < b.name();
}

// Why the newest of `entries` won over the others.
std::string rule_for(const std::vector<Entry>& entries, const Entry& newest) {
  const bool attachments = std::all_of(entries.begin(), entries.end(),
                                       [](const Entry& e) { return attachment_of(e) > 0; });
  if (attachments) {
    return fmt::format("the newest upload (the largest Canvas attachment id, {})",
                       attachment_of(newest));
  }
  const bool renamed = std::any_of(entries.begin(), entries.end(), [&](const Entry& e) {
    return resubmission_of(e) != resubmission_of(newest);
  });
  if (renamed) return "the last resubmission (the LMS numbers a file submitted again: -1, -2)";
  return "the last in name order (the download does not say which is newer)";
}

// The newest entry out of `entries` (not empty), the others recorded as left out.
Entry take_newest(std::vector<Entry> entries, std::size_t student, ClassMatch& match) {
  std::sort(entries.begin(), entries.end(), older);
  if (entries.size() > 1) {
    Duplicate duplicate{student, entries.back().name(), {}, rule_for(entries, entries.back())};
    for (std::size_t i = 0; i + 1 < entries.size(); ++i) {
      duplicate.left_out.push_back(entries[i].name());
    }
    match.duplicates.push_back(std::move(duplicate));
  }
  return std::move(entries.back());
}

void join_optional(Entry& kernel, const Entry& extra, const std::string& file, std::size_t student,
                   ClassMatch& match) {
  intake::Submission& graded = kernel.submission;
  if (!graded.accepted()) return;  // nothing is built: the extra file changes nothing
  if (graded.optional_texts.contains(file)) {
    match.duplicates.push_back({student,
                                graded.source.filename().string(),
                                {extra.name()},
                                fmt::format("the submission's own {} comes first", file)});
    return;
  }
  if (extra.submission.accepted()) {
    graded.optional_texts[file] = extra.submission.kernel_text;
    match.optional_taken.push_back({student, file, extra.name()});
  } else {
    graded.notes.push_back(fmt::format("{} left out: {}", file, extra.submission.problem));
  }
}

}  // namespace

Entry pick_submission(std::vector<Entry> entries, std::size_t student,
                      const std::vector<std::string>& optional_sources, ClassMatch& match) {
  std::map<std::string, std::vector<Entry>> optional_entries;  // by optional file
  std::vector<Entry> kernels;
  for (Entry& entry : entries) {
    if (const auto file = optional_file(entry, optional_sources)) {
      optional_entries[*file].push_back(std::move(entry));
    } else {
      kernels.push_back(std::move(entry));
    }
  }
  if (kernels.empty()) {
    // Only optional files: the newest is the student's line, with nothing to build.
    const std::string file = optional_entries.begin()->first;
    Entry only = take_newest(std::move(optional_entries.begin()->second), student, match);
    only.submission.problem = fmt::format("no kernel file: only {} was submitted", file);
    only.submission.kernel_text.clear();
    only.submission.optional_texts.clear();
    return only;
  }
  Entry graded = take_newest(std::move(kernels), student, match);
  for (auto& [file, extras] : optional_entries) {
    const Entry newest = take_newest(std::move(extras), student, match);
    join_optional(graded, newest, file, student, match);
  }
  return graded;
}

}  // namespace lms
