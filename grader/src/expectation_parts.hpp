// The pieces of `labcheck expect`'s decision (expectation.hpp) that each look at one thing: a
// record, the program's output, the isolation lines, the evidence facts. Each appends what it
// prints to `lines` and returns true when what it looked at fails the test.
#pragma once

#include <string>
#include <vector>

#include "contract/record.hpp"

namespace grader::expectation_parts {

// The record of `check` among `records`, or nullptr.
const contract::CheckRecord* find_record(const std::vector<contract::CheckRecord>& records,
                                         const std::string& check);

// "not judged: Suite.Name is not measured here (why)": a check that earns and fails nothing.
std::string not_judged_line(const contract::CheckRecord& record);

// Whether `words` are in the record: its reason, or anywhere in its JSON (a case's reason, a
// note), as the record file holds them.
bool holds_words(const contract::CheckRecord& record, const std::string& words);

// What the student reads names their own files, never the grader's sources: true (and the first
// lines that do) when the output names a file of the kit's sources.
bool grader_paths_shown(const std::string& output, std::vector<std::string>& lines);

// A run that must have isolated the launcher by hand (no bubblewrap, as root): true when it did
// not.
bool not_isolated_by_hand(const std::vector<std::string>& isolation_lines,
                          std::vector<std::string>& lines);

// Where `bubblewrap_here` (the bubblewrap that runs on this machine; "" : none) runs, the
// launcher must have run in it: true when a launcher of the run did not.
bool out_of_sandbox(const std::vector<std::string>& isolation_lines,
                    const std::string& bubblewrap_here, std::vector<std::string>& lines);

// Under the CPU emulation every kind in `expected` must be among the facts of `records` (any
// check's) or of `rerun`'s (the run of `rerun_checks`, made when the first lacked a kind): true
// when one is in neither. Shows a fact's words for each kind found.
bool evidence_missing(const std::vector<std::string>& expected, const std::string& rerun_checks,
                      const std::vector<contract::CheckRecord>& records,
                      const std::vector<contract::CheckRecord>* rerun,
                      std::vector<std::string>& lines);

}  // namespace grader::expectation_parts
