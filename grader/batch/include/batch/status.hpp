// How far a submission got through batch grading: one value per submission, kept in the result
// cache and shown in the gradebook. The words are what the gradebook, the CSV, Gradescope and
// JUnit print (and what the cache and the outcome files keep): status_words is their one source.
#pragma once

#include <optional>
#include <string_view>

namespace batch {

enum class Status {
  graded,            // built, ran, its records are its grade
  results_rejected,  // ran, but its records do not match the grader's own check of the outputs
  compile_error,
  link_error,
  build_timed_out,
  no_kernel_file,   // intake found no kernel.cu
  not_a_text_file,  // intake refused the kernel: not text
  bad_archive,      // intake could not unpack the submission
  kernel_refused,   // intake refused the kernel: a symbolic link, empty, too large
  interrupted,      // the batch stopped before this submission finished
  grader_error,     // the grader itself failed on this submission
  not_graded,       // a shard's submission whose shard has not finished (labgrade shard merge)
};

// "graded", "compile error", "results rejected", ...: the gradebook's words.
std::string_view status_words(Status status);

// The status these words name (a cache entry's); nullopt for words no status has.
std::optional<Status> status_from_words(std::string_view words);

// Whether the submission's records make its grade: graded, or graded with its records rejected.
bool has_records_to_grade(Status status);

}  // namespace batch
