// must-fail: TiledMatmul.Integers TiledMatmul.Reals TiledMatmul.Large TiledMatmul.SharedMemory
// must-fail: TiledMatmul.ThreadsPerElement TiledMatmul.Speed TiledMatmul.SpeedAt4096
// must-fail: TiledMatmul.ShareOfCublas
// redteam: harness-function interposition: the matmul checks' judges redefined to pass
//
// With kernel.cu linked into the lab program ahead of the harness's static archive, the first
// definition of a symbol wins. This file defines, with the signatures of harness/*/include
// (matmul.hpp, matmul_checks.hpp, device_compare.hpp, speed.hpp), the functions that decide a
// product is wrong: run_matmul_case and check_large_matmul (leave the case as it starts:
// passed), compare_on_device (no mismatches), count_differences_on_device (0),
// judge_shared_memory and judge_speed/judge_share (no verdict at all), and check_matmul_speed
// (times nothing). matmul_tiled launches a tiled-looking kernel that computes nothing.
// Why it must fail: the lab program links no student code; these definitions sit unused in the
// launcher. (The CPU emulation still links kernel.cu into the lab program: not for grading.)
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab6.h"

// The record's types are the contract library's (contract/record.hpp).
namespace contract {
struct CaseResult;
struct Timing;
}  // namespace contract

namespace harness {

// Declared as in harness/*/include: only their names and kinds matter to the linker.
using contract::CaseResult;
using contract::Timing;
struct MatmulShape;
struct MatmulProblem;
struct LabMatmul;
struct WrongProductReasons;
struct RecordedActivity;
class Check;
enum class Values { integers, reals };
enum class SpeedReference { naive, cublas };
using MatmulLauncher = std::function<void(const float* a, const float* b, float* c)>;
struct DeviceComparison {
  long long mismatches = 0;
  double max_abs_error = 0;
  double max_tolerance = 0;
  std::string digest;
};

void run_matmul_case(CaseResult&, const MatmulProblem&, const std::vector<float>&,
                     const std::vector<float>&, const MatmulLauncher&, const std::string&) {}
void check_large_matmul(CaseResult&, const MatmulShape&, Values, std::uint64_t,
                        const MatmulLauncher&, const std::string&) {}
DeviceComparison compare_on_device(const float*, const float*, const float*, double, std::size_t) {
  return {};
}
long long count_differences_on_device(const float*, const float*, std::size_t) { return 0; }
void judge_shared_memory(Check&, const RecordedActivity&, const std::string&) {}
void judge_speed(Check&, const Timing&, double, double) {}
void judge_share(Check&, const Timing&, double, double) {}
void check_matmul_speed(Check&, const LabMatmul&, const MatmulShape&, SpeedReference, const char*,
                        const WrongProductReasons&) {}

}  // namespace harness

#define TILE_WIDTH 16

// Shared tiles, one thread per element of P, and no product: P is left as it was.
__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  Mds[threadIdx.y][threadIdx.x] = 0.0f;
  Nds[threadIdx.y][threadIdx.x] = 0.0f;
  __syncthreads();
  if (Mds[threadIdx.x][threadIdx.y] + Nds[threadIdx.x][threadIdx.y] != 0.0f) P[0] = M[0] * N[0];
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  MatrixMulKernel<<<dim3(width / TILE_WIDTH, width / TILE_WIDTH), block>>>(M, N, P, width);
}
