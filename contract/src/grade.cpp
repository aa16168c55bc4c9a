#include "contract/grade.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace contract {

double points_for(const CheckSpec& check, Verdict verdict, double fraction) {
  switch (verdict) {
    case Verdict::pass:
      if (check.full_points_at_ratio <= 0) return check.points;
      [[fallthrough]];
    case Verdict::fail:
      // Round to hundredths so a report never shows 3.3333333 points.
      return std::round(check.points * std::clamp(fraction, 0.0, 1.0) * 100.0) / 100.0;
    default:
      return 0;
  }
}

std::string format_points(double points) {
  if (!std::isfinite(points)) return "n/a";
  std::string text = fmt::format("{:.2f}", points);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

std::string format_score(const LabGrade& grade) {
  std::string text =
      fmt::format("{} / {} points", format_points(grade.points), format_points(grade.max_points));
  if (grade.bonus_max_points > 0) {
    text += fmt::format(" (+{} of {} bonus)", format_points(grade.bonus_points),
                        format_points(grade.bonus_max_points));
  }
  return text;
}

std::optional<WithoutGpu> without_gpu(const LabGrade& grade) {
  if (!grade.emulated) return std::nullopt;
  WithoutGpu limit;
  bool earned = grade.problems.empty();
  for (const auto& check : grade.checks) {
    const bool bonus = check.spec && check.spec->bonus;
    const std::string_view kind =
        check.spec ? check.spec->kind : (check.record ? check.record->kind : "");
    if (bonus) continue;
    if (kind == "speed") {
      limit.speed_points += check.max_points;
    } else if (check.verdict != Verdict::pass || check.points < check.max_points) {
      earned = false;
    }
  }
  if (limit.speed_points <= 0) return std::nullopt;
  limit.most = grade.max_points - limit.speed_points;
  limit.earned = earned;
  return limit;
}

std::string gpu_only_words(const WithoutGpu& limit) {
  return fmt::format("speed, {} {}, is measured on a GPU only", format_points(limit.speed_points),
                     limit.speed_points == 1 ? "point" : "points");
}

std::string format_score_line(const LabGrade& grade) {
  const auto limit = without_gpu(grade);
  if (!limit) return format_score(grade);
  if (limit->earned) {
    return fmt::format("{}: the most a run without a GPU can earn ({})", format_score(grade),
                       gpu_only_words(*limit));
  }
  return fmt::format("{}; without a GPU at most {} can be earned ({})", format_score(grade),
                     format_points(limit->most), gpu_only_words(*limit));
}

LabGrade grade_lab(const LabSpec& spec, std::vector<CheckRecord> records,
                   std::vector<std::string> problems) {
  LabGrade grade;
  grade.lab = spec.lab;
  grade.title = spec.title;
  grade.problems = std::move(problems);
  for (const auto& check : spec.checks) {
    CheckGrade entry;
    entry.spec = &check;
    entry.max_points = check.points;  // for a bonus check: what it can add
    const auto it = std::find_if(records.begin(), records.end(),
                                 [&](const auto& r) { return r.check == check.id; });
    if (it != records.end()) {
      if (!it->lab.empty() && it->lab != spec.lab) {
        grade.problems.push_back(fmt::format("record for {} names lab '{}', expected '{}'",
                                             check.id, it->lab, spec.lab));
      } else {
        entry.record = *it;
        grade.emulated = grade.emulated || ran_under_emulation(*it);
        entry.verdict = it->verdict;
        entry.points = points_for(check, it->verdict, it->fraction);
      }
    }
    grade.points += entry.points;
    if (check.bonus) {
      grade.bonus_points += entry.points;
      grade.bonus_max_points += entry.max_points;
    } else {
      grade.max_points += entry.max_points;
    }
    grade.checks.push_back(std::move(entry));
  }
  for (const auto& record : records) {
    if (!spec.find(record.check)) {
      grade.problems.push_back(
          fmt::format("a result for '{}', which is not a check of {}", record.check, spec.lab));
    }
  }
  return grade;
}

}  // namespace contract
