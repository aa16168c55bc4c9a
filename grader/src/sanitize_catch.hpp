// `labcheck sanitize --expect-findings`: whether compute-sanitizer catches a known-wrong kernel
// (a "// must-fail: sanitizer.memcheck" or "sanitizer.racecheck" line, cmake/AddLab.cmake). The
// judgement is the batch's charging rule (batch/sanitize_step.hpp): caught when the pass charges
// a finding in the kernel's own file to at least one correctness check. A finding in the
// harness's kernels, or a pass that did not finish, catches nothing.
#pragma once

#include "batch/sanitize_step.hpp"
#include "contract/spec.hpp"
#include "sanitize_command.hpp"

namespace grader {

// Runs `pass` over every correctness check, every case (a known-wrong kernel's mistake may show
// only past the first, smallest one), as if each had earned its points; writes the charged
// records to the results folder. 0 when caught, 1 when not.
int judge_the_catch(const SanitizeOptions& options, const contract::LabSpec& spec,
                    batch::SanitizerPass pass);

// `--expect-no-findings` (a right kernel, labN.must_pass.NAME.sanitizer; the solutions): the
// same pass must charge no check and find nothing in the kit's own kernels. 0 when clean, 1 when
// not, 77 when nothing ran.
int judge_clean(const SanitizeOptions& options, const contract::LabSpec& spec,
                batch::SanitizerPass pass);

}  // namespace grader
