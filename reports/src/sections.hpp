// The report's sections, each rendered to an HTML fragment that render.cpp places into the page
// template. Every text from the grade or the context is escaped inside these functions.
#pragma once

#include <span>
#include <string>

#include "check_view.hpp"
#include "contract/grade.hpp"
#include "reports/render.hpp"

namespace reports::detail {

// Lab, student, score and how many checks passed.
std::string render_header(const contract::LabGrade& grade, std::span<const CheckView> checks,
                          const ReportContext& context);

// grade.problems in a warning box; empty when there are none.
std::string render_problems(const contract::LabGrade& grade);
// Why a batch-graded submission never ran (a compile error with the compiler's output, ...).
std::string render_submission_problem(const ReportContext& context);

// One row per check in spec order (title, kind, verdict, points, reason) and the grade's total.
std::string render_check_table(const contract::LabGrade& grade, std::span<const CheckView> checks);

// Bar chart and table for the speed checks; empty when the lab has none. When nothing was timed
// (`emulated`: the checks ran under the CPU emulation, or no GPU) it says why, lists the speed
// checks with their titles whole, and draws no chart.
std::string render_speed_section(std::span<const CheckView> checks, bool emulated);

// Everything a record says about each check: cases, wrong elements, error maps, timing, the
// command that reproduces it. Checks that need attention start open.
std::string render_check_details(std::span<const CheckView> checks, const std::string& handout);

// GPU, driver, seeds and where the report came from.
std::string render_environment(std::span<const CheckView> checks, const ReportContext& context);

}  // namespace reports::detail
