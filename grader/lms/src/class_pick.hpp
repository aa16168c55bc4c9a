// One student's submissions when there are several: which is graded, and a lab's optional file
// (bonus.cu) uploaded as a file of its own joining the graded kernel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "intake/intake.hpp"
#include "lms/class_match.hpp"
#include "lms/download_name.hpp"

namespace lms {

// A submission with what its name says, if anything.
struct Entry {
  intake::Submission submission;
  std::optional<DownloadName> download;
  std::string name() const { return submission.source.filename().string(); }
};

// The student's submission to grade, built from all of theirs (at least one), and what happened
// to the others, recorded in `match`.
Entry pick_submission(std::vector<Entry> entries, std::size_t student,
                      const std::vector<std::string>& optional_sources, ClassMatch& match);

}  // namespace lms
