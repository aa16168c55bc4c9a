// The check-level rule for a failure that depends on the size and not on the run (diagnose_sizes
// in diagnose.hpp): some widths right, the others wrong, and each wrong output the same at every
// run. A case alone cannot tell it: at one width, an index that uses a constant instead of the
// width argument looks like any wrong index, and on fresh buffers its reads outside the inputs
// even looked like a race. Only the check's widths side by side show what holds at one size and
// fails at another.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/diagnose.hpp"

namespace harness {
namespace {

// Case diagnoses that say what is wrong in the output but not why: they leave the size rule free.
bool says_what_not_why(const std::string& id) {
  return id == "nan_everywhere" || id == "reads_outside_inputs";
}

bool names(const Diagnosis& d, const std::string& id) {
  return d.id == id || std::find(d.also.begin(), d.also.end(), id) != d.also.end();
}

// One specific mistake that fits every diagnosed failed case: the case rules named the mistake,
// and the widths add nothing to it.
bool one_mistake_explains_all(const std::vector<const CaseResult*>& failed, bool race_ruled_out) {
  std::vector<const Diagnosis*> diagnosed;
  for (const auto* c : failed) {
    if (c->diagnosis) diagnosed.push_back(&*c->diagnosis);
  }
  if (diagnosed.empty()) return false;
  std::vector<std::string> ids{diagnosed.front()->id};
  ids.insert(ids.end(), diagnosed.front()->also.begin(), diagnosed.front()->also.end());
  return std::any_of(ids.begin(), ids.end(), [&](const std::string& id) {
    if (race_ruled_out && id == "race") return false;
    return !says_what_not_why(id) && std::all_of(diagnosed.begin(), diagnosed.end(),
                                                 [&](const Diagnosis* d) { return names(*d, id); });
  });
}

// "32", "1 and 16", "32, 64, 96 and 512".
std::string listed(const std::set<long long>& widths) {
  std::string text;
  std::size_t at = 0;
  for (const long long w : widths) {
    if (at > 0) text += at + 1 == widths.size() ? " and " : ", ";
    text += std::to_string(w);
    ++at;
  }
  return text;
}

std::string widths_word(const std::set<long long>& widths) {
  return widths.size() == 1 ? "width" : "widths";
}

// Right at the multiples of a tile side and wrong at the other widths: the edges of partial
// tiles, which the case rules name better than a fixed size.
bool split_by_tile(const std::set<long long>& right, const std::set<long long>& wrong,
                   const std::set<long long>& sides) {
  return std::any_of(sides.begin(), sides.end(), [&](long long t) {
    return t > 1 &&
           std::all_of(right.begin(), right.end(), [t](long long w) { return w % t == 0; }) &&
           std::none_of(wrong.begin(), wrong.end(), [t](long long w) { return w % t == 0; });
  });
}

long long blocks_for(long long width, long long side) { return (width + side - 1) / side; }

// Whether the top-left `extent` x `extent` elements of a failed case's output are all right, as
// its error map shows: every cell that reaches into that corner has no wrong element (a cell
// that reaches past it with some wrong leaves it unknown, which is no).
bool top_left_right(const CaseResult& c, long long extent) {
  if (!c.error_map) return false;
  const auto& map = *c.error_map;
  if (map.cell_rows <= 0 || map.cell_cols <= 0 || extent <= 0) return false;
  const long long cell_rows = (std::min(extent, map.rows) + map.cell_rows - 1) / map.cell_rows;
  const long long cell_cols = (std::min(extent, map.cols) + map.cell_cols - 1) / map.cell_cols;
  for (long long r = 0; r < cell_rows; ++r) {
    for (long long col = 0; col < cell_cols; ++col) {
      const auto at = static_cast<std::size_t>(r * map.grid_cols + col);
      if (at >= map.wrong_fraction.size() || map.wrong_fraction[at] > 0) return false;
    }
  }
  return true;
}

// What the widths show, as the evidence's first words (`sizes`) and, where the wrong outputs tell
// more, its last (`blocks`).
struct SizeWords {
  std::string sizes;
  std::string blocks;
};

// Right at the small widths, wrong at the large ones: said in blocks of the recorded launch where
// the widths need different numbers of them, with what the wrong outputs show of the first blocks.
SizeWords right_below(const std::set<long long>& right, const std::set<long long>& wrong,
                      const std::vector<const CaseResult*>& failed) {
  const SizeWords plain{fmt::format("right at {} {}, wrong at the larger {} {}", widths_word(right),
                                    listed(right), widths_word(wrong), listed(wrong)),
                        ""};
  std::set<long long> sides;
  for (const auto* c : failed) {
    if (c->error_map && c->error_map->tile_cols > 1 &&
        c->error_map->tile_cols == c->error_map->tile_rows) {
      sides.insert(c->error_map->tile_cols);
    }
  }
  if (sides.size() != 1) return plain;
  const long long side = *sides.begin();
  const long long blocks_right = blocks_for(*right.rbegin(), side);
  const long long fewest_wrong = blocks_for(*wrong.begin(), side);
  const long long most_wrong = blocks_for(*wrong.rbegin(), side);
  if (blocks_right >= fewest_wrong) return plain;
  const auto blocks = [](long long n) {
    return n == 1 ? std::string("1 block") : fmt::format("{} blocks", n);
  };
  SizeWords words;
  words.sizes = fmt::format(
      "right at {} {} (at most {} of {}x{} threads a side), wrong at {} ({}{} blocks a side)",
      widths_word(right), listed(right), blocks(blocks_right), side, side, listed(wrong),
      fewest_wrong, most_wrong == fewest_wrong ? std::string() : fmt::format(" to {}", most_wrong));
  const long long extent = blocks_right * side;
  const bool first_blocks_right =
      std::all_of(failed.begin(), failed.end(),
                  [&](const CaseResult* c) { return top_left_right(*c, extent); });
  if (first_blocks_right) {
    words.blocks = fmt::format(
        "in every wrong output the top-left {}x{}, which the first {} a side cover{}, is right: "
        "the blocks after {} go wrong (is a block's first row blockIdx.y * blockDim.y and its "
        "first column blockIdx.x * blockDim.x?)",
        extent, extent, blocks_right == 1 ? std::string("block") : blocks(blocks_right),
        blocks_right == 1 ? "s" : "", blocks_right == 1 ? "it" : "them");
  }
  return words;
}

// What the runs and the wrong elements add to the evidence: whether the output repeated from run
// to run, and what every failed case shares (NaN left in place, reads outside the inputs).
void add_run_evidence(std::string& evidence, bool repeated, bool changed,
                      const std::set<long long>& wrong,
                      const std::vector<const CaseResult*>& failed) {
  if (repeated) {
    evidence +=
        wrong.size() == 1
            ? "; three runs of the wrong width on the same inputs gave the same output (no "
              "race): what goes wrong depends on the width, not on the run"
            : "; three runs of each wrong width on the same inputs gave the same output (no "
              "race): what goes wrong depends on the width, not on the run";
  } else {
    evidence +=
        "; right only at the largest width is no race (a race does not go away at the largest "
        "size): what goes wrong depends on the width";
    if (changed) {
      evidence +=
          "; the wrong outputs also changed from run to run, as reads past the end of a smaller "
          "input do when they land on memory that is being written";
    }
  }
  const bool all_nan = std::all_of(failed.begin(), failed.end(), [](const CaseResult* c) {
    return c->mismatches > 0 && c->nan_count == c->mismatches;
  });
  if (all_nan) {
    evidence += "; every wrong element still holds the NaN the output held before the launch";
  }
  const bool reads_outside = std::all_of(failed.begin(), failed.end(), [](const CaseResult* c) {
    return c->diagnosis && names(*c->diagnosis, "reads_outside_inputs");
  });
  if (reads_outside) {
    evidence += fmt::format(
        "; at the wrong {} the kernel reads outside its inputs (NaN put there changed the output)",
        widths_word(wrong));
  }
}

// The tile sides an edge mistake would split the widths by: 8, 16, 32 and the failed cases'
// recorded tiles (their error maps').
std::set<long long> tile_sides(const std::vector<const CaseResult*>& failed) {
  std::set<long long> sides{8, 16, 32};
  for (const auto* c : failed) {
    if (c->error_map) {
      sides.insert(c->error_map->tile_rows);
      sides.insert(c->error_map->tile_cols);
    }
  }
  return sides;
}

// Right at exactly one width, wrong on both sides of it: a constant where the width argument
// belongs (#define WIDTH 64) is right at that width only (two right widths are no one constant).
// Each wrong width above it repeated at every run (below it the reads past the smaller inputs may
// land on memory being written, and change); not an edge mistake. A race is ruled out only where
// every wrong width, below as well, repeated.
std::optional<Diagnosis> one_width_fixed_in_code(const std::set<long long>& right,
                                                 const std::set<long long>& wrong,
                                                 const std::vector<const CaseResult*>& failed) {
  if (right.size() != 1 || wrong.count(*right.begin())) return std::nullopt;  // one, and only right
  const long long only = *right.begin();
  std::set<long long> below;
  std::set<long long> above;
  for (const long long w : wrong) (w < only ? below : above).insert(w);
  bool all_repeated = true;
  for (const auto* c : failed) {
    if (c->width > only && c->output_repeats != true) return std::nullopt;
    all_repeated = all_repeated && c->output_repeats == true;
  }
  if (split_by_tile(right, wrong, tile_sides(failed)) ||
      one_mistake_explains_all(failed, all_repeated)) {
    return std::nullopt;
  }
  std::string evidence = fmt::format(
      "right at width {} only, wrong at the smaller {} {} and at the larger {} {}; three runs of "
      "each {} width on the same inputs gave the same output (no race): what goes wrong "
      "depends on the width, not on the run",
      only, widths_word(below), listed(below), widths_word(above), listed(above),
      all_repeated ? "wrong" : "larger");
  return make_diagnosis("size_fixed_in_code", evidence);
}

}  // namespace

std::optional<Diagnosis> diagnose_sizes(const std::vector<CaseResult>& cases) {
  std::set<long long> right;
  std::set<long long> wrong;
  std::vector<const CaseResult*> failed;
  for (const auto& c : cases) {
    if (c.verdict != Verdict::pass && c.verdict != Verdict::fail) continue;
    if (c.width <= 0) return std::nullopt;  // a case without one width: no size to compare
    if (c.verdict == Verdict::pass) {
      right.insert(c.width);
    } else {
      wrong.insert(c.width);
      failed.push_back(&c);
    }
  }
  if (right.empty() || wrong.empty()) return std::nullopt;
  const bool wrong_below = *wrong.rbegin() < *right.begin();
  const bool wrong_above = *right.rbegin() < *wrong.begin();
  if (!wrong_below && !wrong_above) return one_width_fixed_in_code(right, wrong, failed);
  // The same at every run: each failed case's re-runs on the same buffers agreed. Right only at
  // the largest widths needs no such proof: a race does not go away at the largest size (a
  // constant width's reads past a smaller input can land on the output being written, and
  // change from run to run without any race between the threads' own accesses).
  bool repeated = true;
  bool changed = false;
  for (const auto* c : failed) {
    repeated = repeated && c->output_repeats == true;
    changed = changed || c->output_repeats == false;
  }
  if (!repeated && !wrong_below) return std::nullopt;
  if (split_by_tile(right, wrong, tile_sides(failed)) ||
      one_mistake_explains_all(failed, wrong_below)) {
    return std::nullopt;
  }

  const SizeWords words =
      wrong_below
          ? SizeWords{fmt::format("right at {} {}, wrong at the smaller {} {}", widths_word(right),
                                  listed(right), widths_word(wrong), listed(wrong)),
                      ""}
          : right_below(right, wrong, failed);
  std::string evidence = words.sizes;
  add_run_evidence(evidence, repeated, changed, wrong, failed);
  if (!words.blocks.empty()) evidence += "; " + words.blocks;
  return make_diagnosis("size_fixed_in_code", evidence);
}

}  // namespace harness
