// What the product rules share (diagnose_product.cpp, diagnose_layout.cpp): a hypothesis is a
// common mistake with what it would compute at each element of the output.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/diagnose.hpp"

namespace harness::rules {

struct Hypothesis {
  std::string id;
  std::string evidence;
  std::function<std::optional<double>(long long row, long long col)> predict;
  // The prediction is a real sum that the kernel truncates to an int: its float sum may lie on
  // the other side of an integer than the exact one, anywhere within the tolerance.
  bool truncated = false;
};

inline double a_at(const ProductInputs& p, long long row, long long col) {
  return p.a[static_cast<std::size_t>(row * p.k + col)];
}

inline double b_at(const ProductInputs& p, long long row, long long col) {
  return p.b[static_cast<std::size_t>(row * p.n + col)];
}

// diagnose_layout.cpp: the wrong row length of a non-square product (m, k and n confused), a
// width fixed in the code on a square one, and tiles stored transposed (for each of `tiles`).
void layout_hypotheses(const ProductInputs& p, const std::vector<int>& tiles,
                       std::vector<Hypothesis>& out);

}  // namespace harness::rules
