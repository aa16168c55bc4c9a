// The checks that labs 2, 3, 5, 6 and 7 share: a lab names its launcher once (LabMatmul) and
// runs random products, the course's worked examples, a recorded launch and a timed comparison
// through these, with the wording of its own handout where a message names the lab's design.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "harness/launch_recorder.hpp"
#include "harness/matmul.hpp"

namespace harness {

// A lab's product launcher as the shared checks call it.
struct LabMatmul {
  std::string name;  // "matmul_tiled": the timing table's name for it
  // The launcher bound to one shape's sizes (labs with a single width read shape.m).
  std::function<MatmulLauncher(const MatmulShape&)> bind;
  // The call as the handout writes it, for messages: "matmul_tiled(M, N, P, 64)".
  std::function<std::string(const MatmulShape&)> call;
};

// The two contracts of the labs, called as their handouts write them:
// name(M, N, P, width) for square products (labs 2, 3 and 6; the bound launcher reads shape.m)...
using SquareMatmul = void (*)(const float* m, const float* n, float* p, int width);
LabMatmul square_matmul(const std::string& name, SquareMatmul matmul);
// ...and name(A, B, C, m, k, n) for any shape (labs 5 and 7).
using ShapedMatmul = void (*)(const float* a, const float* b, float* c, int m, int k, int n);
LabMatmul shaped_matmul(const std::string& name, ShapedMatmul matmul);

// One case per shape and kind of values (shapes outer), labelled "integers 64x64 * 64x64": fresh
// inputs seeded by the label, the output poisoned and guarded, compared with check_matmul. Under
// compute-sanitizer, products above kSanitizerMaxWork are left out with a note (and a check left
// with no case is skipped).
void check_products(Check& check, const LabMatmul& lab, const std::vector<MatmulShape>& shapes,
                    const std::vector<Values>& kinds);

// One case per worked example, compared exactly with its published answer; with `note_sources`
// each example's source is noted on the check.
void check_known_answers(Check& check, const LabMatmul& lab,
                         const std::vector<KnownAnswer>& answers, bool note_sources);

// The verdict's reasons when the product is wrong: before its launches are judged, before timing,
// or in the timed runs. Two wordings, as the handouts speak of their sizes.
struct WrongProductReasons {
  std::string launch_not_graded;
  std::string before_timing;
  std::string in_timed_runs;
  // Labs 2 and 3: "the product at width 64 is wrong (or writes outside P), ...".
  static WrongProductReasons at_width(int width);
  // Labs 6 and 7: "the 64x64 * 64x64 product is wrong, ...".
  static WrongProductReasons of_shape(const MatmulShape& shape);
};

// Runs the launcher once under the launch recorder on integer inputs (seeded "input"): a launch
// is graded only for a kernel that computes the right answer. Returns nothing, with the verdict
// set (to fail with `wrong_reason` when the product is wrong or written outside C) when the
// launches cannot be judged.
std::optional<RecordedActivity> observe_product(Check& check, const LabMatmul& lab,
                                                const MatmulShape& shape,
                                                const std::string& wrong_reason);

// Passes when every recorded launch used shared memory; the failure names the launches without it
// and the handout's names for the tiles ("Mds and Nds").
void judge_shared_memory(Check& check, const RecordedActivity& activity, const std::string& tiles);

enum class SpeedReference { naive, cublas };  // naive_reference or cublas_reference

// Times the launcher against a reference at one shape, on integer inputs (seeded "input"), so the
// output can be compared bit for bit with cuBLAS's product on the GPU: once before timing (a
// kernel that computes nothing would otherwise be the fastest) and again on the output of the
// timed runs. The spec gives the threshold "min_ratio" (its "reference" must be this one's:
// naive or cublas), "max_spread" and "repetitions" (and optionally "rounds" and
// "full_points_at_ratio"); judge_share sets the verdict.
void check_matmul_speed(Check& check, const LabMatmul& lab, const MatmulShape& shape,
                        SpeedReference reference, const WrongProductReasons& reasons);

}  // namespace harness
