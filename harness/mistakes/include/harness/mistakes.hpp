// The catalogue of mistakes the harness can name: for each its id, the handout section that
// explains it (heading and anchor) and the words a student reads. The rules that decide which
// mistake a failed check shows are harness/diagnose.hpp's; the reports word a diagnosis from here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "contract/record.hpp"

namespace harness {

struct MistakeInfo {
  std::string_view id;       // "transposed_result"
  std::string_view heading;  // the handout's section heading, e.g. "Result transposed"
  std::string_view summary;  // one line for the student
  std::string_view hint;     // where to look
};

// Every known mistake, in a fixed order. Throws std::out_of_range for an unknown id.
const std::vector<MistakeInfo>& mistake_catalog();
const MistakeInfo& mistake(std::string_view id);

// GitHub's anchor for a heading: "Race: missing __syncthreads" -> "race-missing-__syncthreads".
std::string heading_anchor(std::string_view heading);

// A diagnosis whose prediction was compared with the output element by element (a product or
// layout hypothesis, diagnose_product.cpp) says so in its evidence with these words: "(checked at
// 48 wrong and 11 right elements)". The elements it predicted were written as it says, so the
// run that wrote them went that far: a kernel cut short leaves them NaN, which no prediction
// gives. The batch's hosted memcheck keeps such case diagnoses
// (grader/batch/src/sanitize_step.cpp).
std::string checked_elements_words(std::size_t wrong, std::size_t right);
bool checked_element_by_element(const contract::Diagnosis& d);

// A diagnosis with the catalog's texts, the handout anchor and the given evidence.
contract::Diagnosis make_diagnosis(std::string_view id, std::string evidence);

}  // namespace harness
