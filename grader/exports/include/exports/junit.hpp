// JUnit XML for CI dashboards: one <testsuite> per student (name = student), one <testcase> per
// check of the spec (classname = lab, name = check id). fail, error and not run are <failure>s
// (type says which), skipped, inconclusive and not measured are <skipped> with the reason; a
// student without a grade has every check failed as "not run" with the status, and the message in
// <system-out>. Text is XML-escaped with control characters removed; valid UTF-8 is kept.
#pragma once

#include <string>
#include <vector>

#include "exports/outcome.hpp"

namespace exports {

std::string junit_xml(const contract::LabSpec& spec, const std::vector<StudentOutcome>& outcomes);

}  // namespace exports
