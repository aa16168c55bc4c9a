// The class's grades in the import formats of two LMSs, for a batch given a roster: only the
// students the roster placed (StudentOutcome::lms) are written, one row each; a student with no
// submission is not written (the LMS keeps what it has), nor is a submission that matched no one.
//
// canvas.csv, for Canvas's Grades > Import: Student, ID, SIS User ID, SIS Login ID, Section, then
// one assignment column "Title (assignment id)" (Canvas finds the assignment by the id, else by
// the title, else creates one); Canvas finds the student by ID, then the SIS ids, then the name
// (app/models/gradebook_importer.rb). No comments: Canvas's gradebook import takes scores (and
// custom columns such as Notes), not submission comments.
//
// moodle.csv, for the assignment's "Upload grading worksheet" (mod/assign/feedback/offline): the
// worksheet's Identifier, Full name, Email address, Grade, Maximum Grade, Last modified (grade)
// and Feedback comments. Moodle needs Identifier, Grade and Last modified (grade); it takes
// "Feedback comments" when the assignment has feedback comments on, and skips a grade above the
// maximum and a student graded in Moodle after the worksheet was downloaded.
//
// Scores are the student's points, scaled to the LMS's points for the assignment when the roster
// says them (Canvas's Points Possible row, the worksheet's Maximum Grade): 15 of 20 points is 75
// in an assignment out of 100. A student the grader did not finish with (interrupted, grader
// error) gets no score: an empty cell changes nothing in either LMS.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "exports/outcome.hpp"

namespace exports {

struct CanvasTarget {
  std::string column;                     // "Lab 6: Tiled matmul (4242)"
  std::optional<double> points_possible;  // the assignment's points in Canvas, when known
};

struct MoodleTarget {
  std::optional<double> maximum_grade;  // the assignment's maximum grade in Moodle, when known
};

std::string canvas_csv(const contract::LabSpec& spec, std::span<const StudentOutcome> outcomes,
                       const CanvasTarget& target);

std::string moodle_csv(const contract::LabSpec& spec, std::span<const StudentOutcome> outcomes,
                       const MoodleTarget& target);

// The score an LMS gets: the student's points (bonus included) scaled from the spec's total to
// `lms_points` when given, at most `lms_points` when `capped`, rounded to two decimals; nullopt
// when the grader did not finish with the student.
std::optional<double> lms_score(const contract::LabSpec& spec, const StudentOutcome& outcome,
                                std::optional<double> lms_points, bool capped);

// A few plain-text sentences for the student: the score, the checks not passed (by their titles),
// whether speed was measured, where the details are. Only the spec's and the grader's words: no
// compiler message or other text of the student's.
std::string lms_feedback(const contract::LabSpec& spec, const StudentOutcome& outcome);

}  // namespace exports
