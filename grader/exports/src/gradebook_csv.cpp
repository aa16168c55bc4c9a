#include "exports/gradebook_csv.hpp"

#include "exports/text.hpp"

namespace exports {
namespace {

void add_row(std::string& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += fields[i];
  }
  out += "\r\n";
}

}  // namespace

std::string gradebook_csv(const contract::LabSpec& spec,
                          const std::vector<StudentOutcome>& outcomes) {
  using text::csv_field;
  std::string out;
  std::vector<std::string> header{"student"};
  for (const auto& check : spec.checks) header.push_back(csv_field(check.id));
  header.insert(header.end(), {"total", "max", "status", "report"});
  add_row(out, header);

  const std::string max = contract::format_points(spec.total_points());
  for (const auto& outcome : outcomes) {
    std::vector<std::string> row{csv_field(text::clean(outcome.student, false))};
    for (const auto& check : spec.checks) {
      // A speed check under the CPU emulation earned 0 without failing: its cell says so.
      if (!outcome.grade) {
        row.emplace_back();
      } else if (check_verdict(outcome, check.id) == contract::Verdict::not_measured) {
        row.emplace_back(kNotMeasured);
      } else if (check_verdict(outcome, check.id) == contract::Verdict::implausible) {
        // It earned 0 by failing, but unlike a slow kernel it needs a look: the words say so.
        row.emplace_back(kImplausibleSpeed);
      } else {
        row.push_back(contract::format_points(check_points(outcome, check.id)));
      }
    }
    row.push_back(contract::format_points(total_points(spec, outcome)));
    row.push_back(max);
    row.push_back(csv_field(text::clean(outcome.status, false)));
    row.push_back(csv_field(outcome.report_path));
    add_row(out, row);
  }
  return out;
}

}  // namespace exports
