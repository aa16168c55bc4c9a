// A class's submissions matched to its roster: which student each submission is, the students who
// submitted nothing, the submissions that match no one, and a student's several files (one is
// graded: the newest; a separate bonus.cu joins the student's kernel). Nothing is dropped without
// a line saying so: a submission that matches no one is graded under its own name.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "intake/intake.hpp"
#include "lms/download_name.hpp"
#include "lms/roster.hpp"

namespace lms {

struct Matched {
  std::size_t student = 0;  // index into Roster::students
  std::string entry;        // the file or folder name in the submissions folder
  bool late = false;        // Canvas marked it late
};

struct Unmatched {
  std::string entry;
  std::string why;  // "Canvas user id 999 is not in the roster"
};

// Several submissions of one student: one graded, the others not.
struct Duplicate {
  std::size_t student = 0;
  std::string graded;
  std::vector<std::string> left_out;
  std::string rule;  // why `graded` won: "the newest upload (Canvas attachment id 679)"
};

// A lab's optional file (bonus.cu) submitted as a file of its own and given to the student's
// kernel, as if it had been beside it.
struct OptionalTaken {
  std::size_t student = 0;
  std::string file;  // "bonus.cu"
  std::string entry;
};

struct ClassMatch {
  // What the batch grades: one submission per student who submitted (named as the roster names
  // them), then every submission that matched no one (named as before).
  std::vector<intake::Submission> to_grade;
  std::map<std::string, std::size_t> student_of_slug;    // graded slug -> roster student
  std::map<std::string, DownloadName> download_of_slug;  // graded slug -> its LMS name, if any
  std::vector<Matched> matched;
  std::vector<Unmatched> unmatched;
  std::vector<std::size_t> missing;  // roster students without a submission
  std::vector<Duplicate> duplicates;
  std::vector<OptionalTaken> optional_taken;
};

// `optional_sources`: the lab's optional files (intake::LabRef::optional_sources, "bonus.cu").
ClassMatch match_class(std::vector<intake::Submission> submissions, const Roster& roster,
                       const std::vector<std::string>& optional_sources);

// The matching in words, one item a line, names cleaned of control characters: counts, then the
// submissions that match no one, the students with no submission, the duplicates and the
// optional files taken; with `matched`, also every student and their file.
std::string match_report(const Roster& roster, const ClassMatch& match, bool matched);

}  // namespace lms
