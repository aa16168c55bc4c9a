// render_fixture_report <spec.json> <results_dir> <out.html> [student]
//
// Grades a folder of result records against a lab spec and writes the HTML report: the input of
// the headless-Chromium test, and a quick way to look at the template while editing it.
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "contract/grade.hpp"
#include "contract/record.hpp"
#include "contract/spec.hpp"
#include "reports/render.hpp"

int main(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    fmt::print(stderr, "usage: {} <spec.json> <results_dir> <out.html> [student]\n", argv[0]);
    return 2;
  }
  try {
    const std::filesystem::path spec_file = argv[1];
    auto spec = contract::load_spec(spec_file);
    std::vector<std::string> problems;
    auto records = contract::read_records(argv[2], &problems);
    // As `labgrade report` does: records of the CPU emulation ran the spec's emulation sizes.
    if (contract::ran_under_emulation(records)) contract::apply_overrides(spec, "emulation");
    const auto grade = contract::grade_lab(spec, std::move(records), std::move(problems));

    reports::ReportContext context;
    context.generated_at = contract::utc_timestamp();
    // Fixed text rather than the (machine-specific) folder, so screenshots are the same anywhere.
    context.kernel_source = "labs/lab1-matrix-copy/kernel.cu (sample records)";
    context.handout = "labs/lab1-matrix-copy/README.md";
    if (argc == 5) context.student = argv[4];

    std::ofstream out(argv[3], std::ios::trunc);
    out << reports::render_lab_report(grade, context);
    if (!out.flush()) {
      fmt::print(stderr, "cannot write {}\n", argv[3]);
      return 1;
    }
    fmt::print("wrote {} ({} of {} points)\n", argv[3], grade.points, grade.max_points);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "render_fixture_report: {}\n", e.what());
    return 1;
  }
}
