#include "diagnosis_view.hpp"

#include <fmt/format.h>

#include "format.hpp"
#include "harness/diagnose.hpp"
#include "reports/html.hpp"

namespace reports::detail {
namespace {

// The handout's heading for a known id; a record may carry any id, so unknown ones get none.
std::string heading_of(const std::string& id) {
  for (const auto& info : harness::mistake_catalog()) {
    if (info.id == id) return std::string(info.heading);
  }
  return {};
}

// The primary mistake's box: the likely mistake, why, where to look, the handout's section.
std::string primary_box(const contract::Diagnosis& d, const std::string& handout) {
  const std::string heading = heading_of(d.id);
  std::string where;
  if (!d.handout.empty()) {
    where = fmt::format(
        R"(<p class="diagnosis-handout">In the handout: {}<code>{}{}</code></p>)",
        heading.empty() ? std::string() : fmt::format("&#8220;{}&#8221;, ", html_escape(heading)),
        html_escape(handout), html_escape(d.handout));
  }
  return fmt::format(
      R"(<div class="diagnosis" data-diagnosis="{id}">
<p class="diagnosis-title"><strong>Likely mistake:</strong> {summary}</p>
<p class="diagnosis-evidence"><strong>Why:</strong> {evidence}</p>
<p class="diagnosis-hint"><strong>Look at:</strong> {hint}</p>
{where}
</div>
)",
      fmt::arg("id", html_escape(d.id)), fmt::arg("summary", html_escape(d.summary)),
      fmt::arg("evidence", html_escape(d.evidence)), fmt::arg("hint", html_escape(d.hint)),
      fmt::arg("where", where));
}

// One "Also" item: the mistake's heading (or id), then its evidence.
struct OtherMistake {
  std::string id;
  std::string evidence;
};

// The mistakes other than the primary, each once: those failed cases named first (with the first
// such case's evidence), then those the primary or a case lists as fitting as well.
std::vector<OtherMistake> other_mistakes(const contract::Diagnosis& primary,
                                         const std::vector<contract::CaseResult>& cases) {
  std::vector<OtherMistake> others;
  const auto add = [&](const std::string& id, std::string evidence) {
    if (id == primary.id) return;
    for (const auto& o : others) {
      if (o.id == id) return;
    }
    others.push_back({id, std::move(evidence)});
  };
  for (const auto& c : cases) {
    if (c.verdict == contract::Verdict::pass || !c.diagnosis) continue;
    add(c.diagnosis->id, fmt::format("case {}: {}", c.name, c.diagnosis->evidence));
  }
  for (const auto& id : primary.also) add(id, "fits the same evidence as the mistake above");
  for (const auto& c : cases) {
    if (c.verdict == contract::Verdict::pass || !c.diagnosis) continue;
    for (const auto& id : c.diagnosis->also) {
      add(id, fmt::format("case {}: fits the same evidence as {}", c.name, c.diagnosis->id));
    }
  }
  return others;
}

}  // namespace

std::string diagnosis_box(const contract::Diagnosis& primary,
                          const std::vector<contract::CaseResult>& cases,
                          const std::string& handout) {
  std::string box = primary_box(primary, handout);
  const auto others = other_mistakes(primary, cases);
  if (others.empty()) return box;
  std::string items;
  for (const auto& o : others) {
    const std::string heading = heading_of(o.id);
    items += fmt::format(R"(<li data-diagnosis="{}"><strong>{}</strong>: {}</li>
)",
                         html_escape(o.id), html_escape(heading.empty() ? o.id : heading),
                         html_escape(o.evidence));
  }
  // Inside the box, after the primary's lines: the box's closing tag is its last line.
  const auto close = box.rfind("</div>");
  return box.substr(0, close) +
         fmt::format(R"(<div class="diagnosis-also"><p>Also:</p>
<ul>
{}</ul>
</div>
)",
                     items) +
         box.substr(close);
}

std::string diagnosis_line(const contract::Diagnosis& d,
                           const std::optional<contract::Diagnosis>& primary) {
  if (primary) return {};
  return fmt::format(
      R"(<p class="diagnosis-line"><strong>Likely:</strong> {} <span class="muted">({})</span></p>)",
      html_escape(d.summary), html_escape(d.evidence));
}

std::string kernel_facts_table(const std::vector<contract::KernelFacts>& kernels) {
  if (kernels.empty()) return {};
  std::string rows;
  for (const auto& k : kernels) {
    rows += fmt::format(
        R"(<tr><th scope="row"><code>{name}</code><span class="subtext">block ({b0}, {b1}, {b2}), grid ({g0}, {g1}, {g2})</span></th><td class="num">{regs}</td><td class="num">{shared}</td><td class="num">{local}</td><td class="num">{occ}</td><td>{reading}</td></tr>
)",
        fmt::arg("name", html_escape(k.name)), fmt::arg("b0", k.block[0]),
        fmt::arg("b1", k.block[1]), fmt::arg("b2", k.block[2]), fmt::arg("g0", k.grid[0]),
        fmt::arg("g1", k.grid[1]), fmt::arg("g2", k.grid[2]),
        fmt::arg("regs", k.registers_per_thread),
        fmt::arg("shared", format_count(k.shared_bytes_per_block)),
        fmt::arg("local", k.local_bytes_per_thread > 0
                              ? fmt::format(R"(<span class="wrong-value">{}</span>)",
                                            format_count(k.local_bytes_per_thread))
                              : std::string("0")),
        fmt::arg("occ", format_percent(k.occupancy)), fmt::arg("reading", html_escape(k.reading)));
  }
  return table_html(
      "kernel-facts",
      "Resources of your kernels, as the GPU ran them (theoretical occupancy: resident warps over "
      "the most a multiprocessor holds)",
      R"(<th scope="col">Kernel</th><th scope="col" class="num">Registers / thread</th><th scope="col" class="num">Shared bytes / block</th><th scope="col" class="num">Local (spill) bytes / thread</th><th scope="col" class="num">Occupancy</th><th scope="col">Reading</th>)",
      rows);
}

}  // namespace reports::detail
