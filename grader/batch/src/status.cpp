#include "batch/status.hpp"

#include <array>

#include "exports/outcome.hpp"

namespace batch {
namespace {

constexpr std::array kAllStatuses{
    Status::graded,          Status::results_rejected, Status::compile_error,   Status::link_error,
    Status::build_timed_out, Status::no_kernel_file,   Status::not_a_text_file, Status::bad_archive,
    Status::kernel_refused,  Status::interrupted,      Status::grader_error,    Status::not_graded,
};

}  // namespace

std::string_view status_words(Status status) {
  switch (status) {
    // The exports tell a graded submission from a problem by these words: theirs, not a copy.
    case Status::graded:
      return exports::kGradedStatus;
    case Status::results_rejected:
      return "results rejected";
    case Status::compile_error:
      return "compile error";
    case Status::link_error:
      return "link error";
    case Status::build_timed_out:
      return "build timed out";
    case Status::no_kernel_file:
      return "no kernel file";
    case Status::not_a_text_file:
      return "not a text file";
    case Status::bad_archive:
      return "bad archive";
    case Status::kernel_refused:
      return "kernel refused";
    case Status::interrupted:
      return exports::kInterruptedStatus;
    case Status::grader_error:
      return exports::kGraderErrorStatus;
    case Status::not_graded:
      return exports::kNotGradedStatus;
  }
  return "grader error";  // not reached: every status is worded above
}

std::optional<Status> status_from_words(std::string_view words) {
  for (const Status status : kAllStatuses) {
    if (status_words(status) == words) return status;
  }
  return std::nullopt;
}

bool has_records_to_grade(Status status) {
  return status == Status::graded || status == Status::results_rejected;
}

}  // namespace batch
