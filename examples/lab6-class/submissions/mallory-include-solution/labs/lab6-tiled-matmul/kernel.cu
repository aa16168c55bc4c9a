// Sample (hostile): #includes the instructor's solution if the compiler can see it (relative to
// this file or to the -I folder of lab6.h), else falls back to a wrong kernel. Expected: graded,
// 0/100; 100 would mean the solution was visible at compile time.
#include <cstdio>

#include "lab6.h"

#if __has_include("../../solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "../../solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("../../../solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "../../../solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("../../../../solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "../../../../solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("../../../../../solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "../../../../../solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("../../../../../../solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "../../../../../../solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("../../../../../../../solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "../../../../../../../solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("../../../../../../../../solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "../../../../../../../../solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("../solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "../solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "solutions/lab6-tiled-matmul/kernel.cu"
#elif __has_include("/work/main/solutions/lab6-tiled-matmul/kernel.cu")
#define STOLEN "/work/main/solutions/lab6-tiled-matmul/kernel.cu"
#endif

#ifdef STOLEN
#pragma message("HOSTILE-INCLUDE-SOLUTION: succeeded: compiling " STOLEN)
#include STOLEN
static const char* kHow = "succeeded: compiled the instructor's solution from " STOLEN;
#else
// Not found: my own kernel, which only adds up the first pair of tiles (wrong for every width
// above 16), so a full score can only come from the stolen one.
#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = blockIdx.y * TILE_WIDTH + ty;
  int Col = blockIdx.x * TILE_WIDTH + tx;
  Mds[ty][tx] = M[Row * Width + tx];
  Nds[ty][tx] = N[ty * Width + Col];
  __syncthreads();
  float Pvalue = 0;
  for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
  P[Row * Width + Col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
static const char* kHow = "failed: no solution on the include path; graded with my own (wrong) kernel";
#endif

namespace {
struct Tell {
  Tell() {
    std::printf("HOSTILE-INCLUDE-SOLUTION: %s\n", kHow);
    std::fflush(stdout);
  }
} tell;
}  // namespace
