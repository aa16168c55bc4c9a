// The mistakes the harness can name, with the words a student reads. Each heading is a section
// of the labs' handouts ("Common mistakes"); mistakes/tests/handout_anchor_test.cpp keeps the two
// in step.
#include <cctype>
#include <stdexcept>
#include <string>

#include "harness/mistakes.hpp"

namespace harness {

using contract::Diagnosis;

namespace {

const std::vector<MistakeInfo> kCatalog{
    {"unwritten", "Output never written",
     "the output was never written: every element still holds the NaN the grader filled it with",
     "does the launcher launch the kernel, and does every thread store its result?"},
    {"output_not_initialised", "Sum accumulated into the output",
     "the kernel adds into the output without setting it to zero first",
     "sum into a local variable that starts at 0 and store it once at the end"},
    {"out_of_bounds_write", "Writes outside the output",
     "threads outside the matrix write anyway: a missing bounds check",
     "guard the store with if (row < rows && col < cols) when the grid is rounded up"},
    {"grid_too_small", "Grid too small (integer division)",
     "the grid has too few threads: the last rows or columns get none (size / block rounded "
     "down)",
     "round the number of blocks up: (size + BLOCK - 1) / BLOCK"},
    {"launch_config_invalid", "Launch refused: block or grid over the limits",
     "the launch failed, so no thread ran: the block or the grid is larger than CUDA allows",
     "a block has at most 1024 threads (32 x 32 in 2D); gridDim.y and gridDim.z are at most "
     "65535, gridDim.x up to 2^31 - 1: put the long dimension in x, or give each block more "
     "work"},
    {"transposed_result", "Result transposed",
     "the output is the transpose of the right answer: row and column are swapped where the "
     "result is written (or in both reads)",
     "check which index comes from threadIdx.x/blockIdx.x (the column) and which from .y (the "
     "row) in the store"},
    {"swapped_index", "Row and column swapped in an index",
     "one input is read transposed: row and column are swapped in the index of one load",
     "write out the index of each load as row * width + column and check each part"},
    {"wrong_operand", "Wrong operand loaded",
     "one input is used for both operands: the result is M·M or N·N (a matrix times itself), "
     "not M·N, because one load reads the other matrix",
     "check the pointer in each load: the first operand's elements (or tile) come from the first "
     "matrix, the second's from the second"},
    {"wrong_row_stride", "Wrong row length in an index",
     "an input is read with the wrong row length: the index steps from row to row by another "
     "dimension (m, k or n) than that matrix's number of columns",
     "A is m x k, so A[row][i] is A[row * k + i]; B is k x n, so B[i][col] is B[i * n + col]: "
     "check which size each index multiplies the row by"},
    {"tile_transposed", "Tile loaded transposed",
     "a shared tile is stored transposed: each thread puts its element at [tx][ty] where "
     "[ty][tx] belongs, so the inner product reads the tile's columns as rows",
     "a thread loads the element at its own row ty and column tx of the tile: Mds[ty][tx] = "
     "M[row * Width + ph * TILE_WIDTH + tx] and Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + "
     "col]"},
    {"accumulator_not_reset", "Accumulator not reset",
     "each element also holds the sums of the elements before it: the running sum is not set "
     "back to 0 for the next element",
     "set the sum to 0 inside the loop over output elements, not once before it"},
    {"first_tile_only", "Only the first tile",
     "only the first tile's terms are summed: the loop over the phases (tiles) is missing or "
     "stops after one",
     "loop over all width / TILE_WIDTH phases, loading a new pair of tiles in each"},
    {"last_tile_skipped", "Last tile skipped",
     "the terms of the last tile are missing: the loop over the phases stops one tile early",
     "count the phases with a rounded-up division and check the loop's end condition"},
    {"accumulator_reset_in_loop", "Accumulator reset in every phase",
     "only the last tile's terms survive: the sum is set back to 0 in every phase",
     "set the sum to 0 once, before the loop over the phases"},
    {"tile_not_zero_filled", "Tile not zero-filled past the edge",
     "past the edge of the matrix the tile keeps old values, which are added again",
     "when a tile hangs over the edge, store 0 in the shared tile instead of skipping the load"},
    {"phase_as_inner_index", "Phase used as the inner index",
     "the inner product is indexed with the phase instead of k (Mds[ty][ph] * Nds[ph][tx]): "
     "each phase adds TILE_WIDTH times one product instead of TILE_WIDTH different ones",
     "inside the loop over k, index the tiles with k: Mds[ty][k] * Nds[k][tx]; ph only chooses "
     "which tiles are loaded"},
    {"phase_repeated", "Same tiles in every phase",
     "every phase loads the same tile: ph is missing from a load's index, so the first tile's "
     "terms are added once per phase instead of each tile's once",
     "in phase ph the first operand's tile starts at column ph * TILE_WIDTH and the second's at "
     "row ph * TILE_WIDTH: both loads need ph"},
    {"reads_outside_inputs", "Loads without bounds checks",
     "the kernel reads outside the input matrices: the tile loads need bounds checks",
     "guard each load (row < m && col < k, for example) and load 0 where it is out of range"},
    {"memory_access_error", "Invalid memory access (compute-sanitizer)",
     "compute-sanitizer memcheck found an access the kernel must not make (its words, the line "
     "of kernel.cu and the thread are below)",
     "at the line memcheck names, work out the address that thread computes: it must lie inside "
     "the array it means (a __shared__ array holds what it declares, no more) and be aligned to "
     "the element's size"},
    {"uninitialised_shared", "Uninitialised shared memory",
     "the result depends on what was in shared memory before the kernel ran: some shared "
     "elements are read before they are written",
     "make sure every shared element a thread reads was loaded in this launch"},
    {"race", "Race: missing __syncthreads",
     "the result changes from run to run on the same inputs: a race, most likely a missing "
     "__syncthreads()",
     "call __syncthreads() after loading the tiles and again before overwriting them"},
    {"size_fixed_in_code", "A size fixed in the code",
     "the kernel is right at some sizes and wrong at others, the same way at every run: the code "
     "assumes a size (a constant where the width argument belongs, or a block offset that holds "
     "for the first blocks only)",
     "look for a #define or a number used where the width argument belongs (in every index and "
     "loop bound), and check that a block's first row is blockIdx.y * blockDim.y and its first "
     "column blockIdx.x * blockDim.x"},
    {"only_first_tile", "Only the first tile or block row right",
     "only the first tile (or the first row of blocks) is right: the block's position is not "
     "used in the index",
     "compute row and col from blockIdx as well as threadIdx"},
    {"border_wrong", "Border beyond the last full tile wrong",
     "only the elements past the last full tile are wrong: the partial tiles at the edges are "
     "not handled",
     "handle the partial tiles at the right and bottom edges: bounds checks on loads and stores"},
    {"one_block_sum", "Only one block's sum kept",
     "the output is the sum of one block's share of the input only: the other blocks' sums never "
     "reached it",
     "every block must add its sum into the output with atomicAdd (after the launcher set the "
     "output to 0), not store it or skip it"},
    {"row_ptr_off_by_one", "Row pointers read off by one",
     "each wrong y[row] holds a neighbouring row's sum: the row's range is read one entry of "
     "row_ptr off",
     "row r's nonzeros are data[row_ptr[r]] up to, not including, data[row_ptr[r + 1]]"},
    {"empty_rows", "Empty rows not written",
     "the rows with no nonzeros are wrong: y must be 0 there, and the kernel never stores it",
     "sum into a local variable that starts at 0 and store it after the loop, even when the loop "
     "runs zero times"},
    {"lost_updates", "Lost updates: += without atomics",
     "rows with several nonzeros lost terms: several threads added into one y[row] at once, and "
     "a plain += drops additions that overlap",
     "give each row one thread that sums its nonzeros in a local variable, or add with "
     "atomicAdd"},
    {"nan_everywhere", "NaN or garbage everywhere",
     "the output is NaN or garbage in many places: uninitialised values are used",
     "start sums at 0 and read only memory that was written (inputs, loaded tiles)"},
    {"reduced_precision", "Less precise than float32",
     "every wrong element is close to the right value but beyond float32 rounding: the products "
     "or sums are computed at lower precision",
     "use float multiplies and adds on the CUDA cores: no TF32 tensor cores, half precision, or "
     "fast approximate intrinsics"},
    {"integer_truncation", "Integer truncation",
     "the result is what float → int truncation gives: an int holds a value that should be a "
     "float (a tile, the sum or the stored result) and drops its fraction; integer-valued inputs "
     "stay exact, which is why only the real-valued checks fail",
     "declare the shared tiles, the running sum and anything else that holds an element as "
     "float"},
    {"library_kernel", "A library's kernel instead of your own",
     "the kernel that ran is not compiled from your source: a library (cuBLAS) did the work",
     "write and launch your own kernel; libraries are the reference, not an entry"},
    {"library_call", "A library call instead of your kernel",
     "kernel.cu calls a CUDA library (cuBLAS, cuSPARSE, ...) that this lab does not allow, so it "
     "does not link and no check runs",
     "do the work in your own kernel; the library is the reference the lab measures you "
     "against, not a way to the answer"},
    {"tensor_cores", "Tensor cores instead of FP32",
     "your kernel's machine code has tensor-core instructions (wmma, mma, TF32)",
     "compute with float fused multiply-adds on the CUDA cores; the race is FP32"},
    {"memcpy_instead_of_kernel", "cudaMemcpy instead of a kernel",
     "the launcher copies with cudaMemcpy: the work must be done by your kernel",
     "launch your kernel and let its threads do the copying"},
    {"one_element_per_thread", "One element per thread in the strided copy",
     "the strided copy launches a thread per element, so no thread loops",
     "launch a grid shorter in y and let each thread step by gridDim.y * blockDim.y"},
    {"thread_per_element", "A thread per element instead of per row or column",
     "the launch has a thread per element of the output, not one per row or column",
     "launch a 1D grid of width threads (rounded up) and loop inside the kernel"},
    {"no_shared_memory", "No shared memory",
     "the kernel uses no shared memory: the inputs are read straight from global memory",
     "declare __shared__ tiles, load them, __syncthreads(), and compute from them"},
    {"many_blocks", "More than one block",
     "the launch uses many blocks: this lab computes the product in one block",
     "launch dim3(1, 1) blocks and give the block one thread per element of C"},
    {"extra_blocks", "Extra blocks", "the grid has more blocks than the output needs",
     "when the size is a multiple of the tile, width / TILE_WIDTH blocks cover it exactly"},
    {"uncoalesced_access", "Uncoalesced memory access",
     "the kernel is slow because neighbouring threads of a warp touch memory far apart "
     "(uncoalesced accesses)",
     "take the column from threadIdx.x so a warp reads one row's consecutive elements"},
    {"bank_conflicts", "Shared-memory bank conflicts",
     "the kernel is slow because the threads of a warp hit the same shared-memory bank at once, "
     "so their accesses take turns",
     "pad the tile's rows by one element ([32][33]) so a column's elements fall in different "
     "banks"},
    {"divergent_warps", "Divergent warps",
     "the kernel is slow because only a few threads of each warp work at a step while the rest "
     "of the warp waits",
     "give the work of a step to consecutive threads (threads 0 .. n - 1), not to every 2s-th "
     "one, so whole warps finish early"},
    {"slow_kernel", "Below the speed threshold",
     "the kernel is correct but slower than the check asks",
     "compare your kernel's design with the handout's speed section"},
};

}  // namespace

const std::vector<MistakeInfo>& mistake_catalog() { return kCatalog; }

const MistakeInfo& mistake(std::string_view id) {
  for (const auto& info : kCatalog) {
    if (info.id == id) return info;
  }
  throw std::out_of_range("unknown mistake id: " + std::string(id));
}

std::string heading_anchor(std::string_view heading) {
  std::string anchor;
  for (const char ch : heading) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || ch == '_' || ch == '-') {
      anchor += static_cast<char>(std::tolower(c));
    } else if (ch == ' ') {
      anchor += '-';
    }
  }
  return anchor;
}

std::string checked_elements_words(std::size_t wrong, std::size_t right) {
  return "(checked at " + std::to_string(wrong) + " wrong and " + std::to_string(right) +
         " right elements)";
}

bool checked_element_by_element(const Diagnosis& d) {
  return d.evidence.find("(checked at ") != std::string::npos;
}

Diagnosis make_diagnosis(std::string_view id, std::string evidence) {
  const auto& info = mistake(id);
  Diagnosis d;
  d.id = std::string(info.id);
  d.summary = std::string(info.summary);
  d.evidence = std::move(evidence);
  d.hint = std::string(info.hint);
  d.handout = "#" + heading_anchor(info.heading);
  return d;
}

}  // namespace harness
