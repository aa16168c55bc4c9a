// Finished submissions, kept so that a batch stopped by Ctrl-C or a kill resumes where it was.
// An entry is reused only for the same grader (kit and labgrade fingerprint) and the same kernel
// text, compared byte for byte.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "batch/status.hpp"
#include "contract/record.hpp"

namespace batch {

struct GradedOutcome {
  Status status = Status::not_graded;
  std::string message;       // one line for the gradebook
  std::string build_output;  // the compiler's messages (compile and link errors)
  std::vector<contract::CheckRecord> records;
};

class ResultCache {
 public:
  ResultCache(std::filesystem::path dir, std::string grader);

  std::optional<GradedOutcome> find(const std::string& slug, const std::string& kernel_text) const;
  // Written atomically (common::write_file_atomically): a kill never leaves half an entry.
  void store(const std::string& slug, const std::string& kernel_text,
             const GradedOutcome& outcome) const;

 private:
  std::filesystem::path dir_;
  std::string grader_;
};

}  // namespace batch
