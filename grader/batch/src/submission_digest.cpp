#include "batch/submission_digest.hpp"

#include "batch/digest.hpp"

namespace batch {

std::string submission_digest(const intake::Submission& submission) {
  Digest digest;
  digest.add(submission.problem);
  digest.add(submission.kernel_text);
  for (const auto& [name, content] : submission.optional_texts) {
    digest.add(name);
    digest.add(content);
  }
  return digest.hex();
}

}  // namespace batch
