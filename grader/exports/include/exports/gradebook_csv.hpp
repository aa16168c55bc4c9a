// The class gradebook as CSV for spreadsheets (RFC 4180: comma separated, CRLF line ends, fields
// quoted when needed). Columns: student, one per check of the spec (points earned; empty for a
// student without a grade; "not measured" for a speed check graded under the CPU emulation,
// which earns 0 without failing; "implausible speed" for a speed check whose figure was beyond
// what the GPU can do, which earns 0 and needs a look), total, max, status, report. Every text
// field is guarded against formula injection: one starting with = + - @ or a tab gets a leading '.
#pragma once

#include <string>
#include <vector>

#include "exports/outcome.hpp"

namespace exports {

std::string gradebook_csv(const contract::LabSpec& spec,
                          const std::vector<StudentOutcome>& outcomes);

}  // namespace exports
