// The facts measured in the student's kernels (evidence_view.hpp).
#include "evidence_view.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "reports/html.hpp"

namespace reports::detail {
namespace {

constexpr std::size_t kMostSpeedEvidence = 12;

// Who measured: the record's word, named for a student.
std::string source_name(const std::string& source) {
  if (source == "emulation") return "the CPU emulation";
  return source.empty() ? std::string("the grader") : source;
}

}  // namespace

std::string evidence_block(const std::vector<contract::Evidence>& facts) {
  if (facts.empty()) return {};
  std::string items;
  for (const auto& fact : facts) {
    items += fmt::format("<li class=\"evidence-{}\">{}</li>\n", html_escape(fact.kind),
                         html_escape(fact.words));
  }
  const auto& source = facts.front().source;
  const bool emulated = source == "emulation";
  return fmt::format(
      R"(<div class="evidence">
<h4>What {source} measured in your kernel</h4>
<ul>
{items}</ul>
<p class="hint">{how}</p>
</div>
)",
      fmt::arg("source", html_escape(source_name(source))), fmt::arg("items", items),
      fmt::arg("how", emulated ? "Measured while your kernels ran on the CPU, at the line of "
                                 "kernel.cu, on a sample of each launch's blocks (the first two "
                                 "and the last; elements written and blocks that wrote nothing: "
                                 "all of them). What a GPU would do with these accesses; no "
                                 "points depend on it."
                               : "What was measured in your kernels; no points depend on it."));
}

std::vector<contract::Evidence> speed_evidence(std::span<const CheckView> checks) {
  std::vector<contract::Evidence> facts;
  const auto add = [&](const CheckView& check) {
    if (!check.record) return;
    for (const auto& fact : check.record->evidence) {
      contract::add_evidence(facts, fact, kMostSpeedEvidence);
    }
  };
  for (const auto& check : checks) {
    if (check.kind == "speed") add(check);
  }
  // A batch runs the speed checks in a run of their own: the other checks' facts, then.
  if (facts.empty()) {
    for (const auto& check : checks) add(check);
  }
  return facts;
}

std::string speed_evidence_block(std::span<const CheckView> checks) {
  if (const auto facts = speed_evidence(checks); !facts.empty()) return evidence_block(facts);
  const bool emulated = std::any_of(checks.begin(), checks.end(), [](const CheckView& check) {
    return check.record && contract::ran_under_emulation(*check.record);
  });
  return fmt::format(
      R"(<div class="evidence evidence-none">
<h4>What your kernel's accesses do</h4>
<p>{}</p>
</div>
)",
      emulated ? "The CPU emulation measured your kernels' accesses and found none of the slow "
                 "patterns it looks for (uncoalesced reads or writes, shared-memory bank "
                 "conflicts, divergent warps, blocks that do nothing)."
               : "Not measured in this run: the speed figure says how fast, not why. The CPU "
                 "emulation measures it at the line of kernel.cu (sectors per warp request, "
                 "bank conflicts, divergent warps, idle blocks): a build with "
                 "-DLABS_BACKEND=emulation does, and so does a batch's emulated pass.");
}

}  // namespace reports::detail
