#include "exports/leaderboard.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "class_page.hpp"
#include "exports/text.hpp"
#include "reports/ceiling.hpp"
#include "reports/html.hpp"

namespace exports {
namespace {

using reports::html_escape;

std::string line(std::string_view text) { return detail::html_line(text); }

// The reference's name as the records give it ("cuBLAS SGEMM (FP32)"), from the first measured
// record of the class; a neutral word when nobody was measured.
std::string reference_name(const contract::LabSpec& spec,
                           const std::vector<StudentOutcome>& outcomes) {
  for (const auto& column : leaderboard_columns(spec)) {
    for (const auto& outcome : outcomes) {
      const auto* grade = find_check(outcome, column.check->id);
      if (grade && grade->record && grade->record->timing &&
          !grade->record->timing->reference_name.empty()) {
        return grade->record->timing->reference_name;
      }
    }
  }
  return "the reference";
}

std::string percent(const std::optional<double>& share) {
  return share ? fmt::format("{:.1f}%", *share * 100) : "&#8211;";
}

double mean_of_others(const std::vector<std::optional<double>>& shares) {
  double sum = 0;
  for (std::size_t i = 1; i < shares.size(); ++i) sum += shares[i].value_or(0);
  return shares.size() > 1 ? sum / static_cast<double>(shares.size() - 1) : 0;
}

}  // namespace

std::vector<LeaderboardColumn> leaderboard_columns(const contract::LabSpec& spec) {
  std::vector<LeaderboardColumn> columns;
  for (const auto& check : spec.checks) {
    const auto it = check.params.find("leaderboard");
    if (check.kind != "speed" || it == check.params.end() || !it->is_string()) continue;
    columns.push_back({&check, it->get<std::string>()});
  }
  return columns;
}

bool leaderboard_implausible(const StudentOutcome& outcome, std::string_view check_id) {
  const auto* grade = find_check(outcome, check_id);
  if (!grade) return false;
  if (grade->verdict == contract::Verdict::implausible) return true;
  // The ceiling is checked here too, so that a record judged by a harness that did not know its
  // ceiling, or a verdict changed after the fact, can never put an impossible figure on top.
  return grade->record && grade->record->timing && reports::beyond_ceiling(*grade->record->timing);
}

std::optional<double> leaderboard_share(const StudentOutcome& outcome, std::string_view check_id) {
  const auto* grade = find_check(outcome, check_id);
  if (!grade || !grade->record || !grade->record->timing) return std::nullopt;
  if (grade->verdict != contract::Verdict::pass && grade->verdict != contract::Verdict::fail) {
    return std::nullopt;  // inconclusive, error, implausible, ...: no figure to rank
  }
  if (leaderboard_implausible(outcome, check_id)) return std::nullopt;
  const double ratio = grade->record->timing->ratio;
  if (!std::isfinite(ratio) || ratio < 0) return std::nullopt;
  return ratio;
}

nlohmann::json gradescope_leaderboard(const contract::LabSpec& spec,
                                      const StudentOutcome& outcome) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& column : leaderboard_columns(spec)) {
    const auto share = leaderboard_share(outcome, column.check->id);
    const double value = share ? std::round(*share * 1000) / 10 : 0.0;
    entries.push_back(
        {{"name", text::clean(column.name, false)}, {"value", value}, {"order", "desc"}});
  }
  return entries;
}

std::vector<LeaderboardRow> rank_class(const contract::LabSpec& spec,
                                       const std::vector<StudentOutcome>& outcomes) {
  const auto columns = leaderboard_columns(spec);
  std::vector<LeaderboardRow> rows;
  for (const auto& outcome : outcomes) {
    LeaderboardRow row;
    row.outcome = &outcome;
    for (const auto& column : columns) {
      row.shares.push_back(leaderboard_share(outcome, column.check->id));
      row.implausible.push_back(leaderboard_implausible(outcome, column.check->id));
    }
    rows.push_back(std::move(row));
  }
  const auto primary = [](const LeaderboardRow& row) {
    return row.shares.empty() ? std::nullopt : row.shares.front();
  };
  std::sort(rows.begin(), rows.end(), [&](const LeaderboardRow& a, const LeaderboardRow& b) {
    const auto pa = primary(a);
    const auto pb = primary(b);
    if (pa.has_value() != pb.has_value()) return pa.has_value();
    if (pa && pb && *pa != *pb) return *pa > *pb;
    if (pa && pb) {
      const double ma = mean_of_others(a.shares);
      const double mb = mean_of_others(b.shares);
      if (ma != mb) return ma > mb;
    }
    return a.outcome->student < b.outcome->student;
  });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!primary(rows[i])) break;
    // Standard competition ranking: equal shares (to the 0.1% shown) share a rank.
    const auto shown = [&](std::size_t j) { return std::round(*primary(rows[j]) * 1000); };
    rows[i].rank = i > 0 && shown(i) == shown(i - 1) ? rows[i - 1].rank : static_cast<int>(i) + 1;
  }
  return rows;
}

std::string leaderboard_html(const contract::LabSpec& spec,
                             const std::vector<StudentOutcome>& outcomes,
                             const std::string& generated_at) {
  const auto columns = leaderboard_columns(spec);
  const auto rows = rank_class(spec, outcomes);
  const auto reference = reference_name(spec, outcomes);

  std::string head = R"(<th scope="col" class="num">Rank</th><th scope="col">Student</th>)";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    head += fmt::format(R"(<th scope="col" class="num">{}{}</th>)", line(columns[i].name),
                        i == 0 ? " (ranked by)" : "");
  }
  std::string body;
  for (const auto& row : rows) {
    body += fmt::format("<tr><td class=\"num\">{}</td><th scope=\"row\">{}</th>",
                        row.rank > 0 ? fmt::format("{}", row.rank) : "&#8211;",
                        line(row.outcome->student));
    for (std::size_t i = 0; i < row.shares.size(); ++i) {
      body += row.implausible[i]
                  ? fmt::format(R"(<td class="num"><span class="implausible">{}</span></td>)",
                                kImplausibleSpeed)
                  : fmt::format("<td class=\"num\">{}</td>", percent(row.shares[i]));
    }
    body += "</tr>\n";
  }

  std::string page =
      detail::class_page_head(fmt::format("Leaderboard: {} {}", spec.lab, spec.title));
  page += fmt::format(
      "<header class=\"page-header\">\n"
      R"(<p class="eyebrow">Class leaderboard &#183; <span class="lab-id">{}</span></p>)"
      "\n<h1>{}</h1>\n"
      R"(<p class="muted">Share of {} measured in the same run, on the same GPU, in two rounds; )"
      "a figure counts only when the product was right and the timings steady (inconclusive runs "
      "are not ranked), and never when it is beyond what the GPU can do (flagged &#8220;{}&#8221;)."
      "</p>\n</header>\n<main>\n",
      line(spec.lab), line(spec.title), line(reference), kImplausibleSpeed);
  page += fmt::format(
      "<div class=\"table-wrap\">\n<table class=\"students\">\n<caption>{} students, best share "
      "first</caption>\n<thead><tr>{}</tr></thead>\n<tbody>\n{}</tbody>\n</table>\n</div>\n",
      rows.size(), head, body);
  page += detail::class_page_foot(generated_at, "");
  return page;
}

}  // namespace exports
