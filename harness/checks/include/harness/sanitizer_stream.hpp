// What the batch reads of a lab program run under compute-sanitizer: the tool's report and the
// program's "[ RUN      ] Suite.Name" lines, which say which check a finding belongs to
// (grader/batch/src/sanitizer_report.cpp). Nothing the student's code prints may reach it.
#pragma once

namespace harness {

// Under the batch's compute-sanitizer runs (LAB_SANITIZER set to a tool and a grader channel
// open), with the GPU backend: sends this program's stdout, where the student's device printf
// and the launcher's printing go, to /dev/null, and writes each check's "[ RUN      ] id" line to
// stderr instead, which no student code reaches. A student's text then can neither forge a
// finding nor move one to another check. Elsewhere (ctest, a student's own run): nothing changes.
// True when it did so.
bool keep_student_text_out_of_sanitizer_report(bool grader_channel_open);

}  // namespace harness
