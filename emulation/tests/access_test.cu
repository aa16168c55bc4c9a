// The emulator's bounds checks (emu/access.hpp): accesses outside a buffer, a __shared__ array or
// the dynamic shared memory a launch gave are reported with the file, line, kernel, thread, block
// and place, as compute-sanitizer's memcheck reports them on a GPU; right kernels report nothing.
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <unistd.h>

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "emulator_fixture.hpp"

namespace {

class Access : public emu_test::EmulatorFixture {
 protected:
  void SetUp() override {
    EmulatorFixture::SetUp();
    emu::take_memory_error();  // nothing left from another test
  }
  void TearDown() override {
    if (pages_) {
      emu::forget_device_memory(pages_);
      munmap(pages_, page_);
    }
    EmulatorFixture::TearDown();
  }
  // As the launcher lends the lab's buffers: adopted memory, with a guard zone either side of
  // the `count` elements (floats, or `element`s) that kernels may use, named "A" or `name`.
  float* lend_a(std::size_t count, const char* name = "A", const char* element = "float") {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    pages_ = mmap(nullptr, page_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(pages_, MAP_FAILED);
    emu::adopt_device_memory(pages_, page_);
    emu::check_device_memory(pages_, kGuardBytes, count * sizeof(float), name, element);
    return reinterpret_cast<float*>(static_cast<char*>(pages_) + kGuardBytes);
  }

 private:
  static constexpr std::size_t kGuardBytes = 1024;
  void* pages_ = nullptr;
  std::size_t page_ = 0;
};

// Each thread copies one element; thread `reader` also reads in[n], one past the end.
__global__ void reads_one_past_the_end(const float* in, float* out, int n, int reader) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
  if (i == reader) out[0] += in[n];  // line 51
}

// Every thread writes out[i - 2]: the first two write before the start.
__global__ void writes_before_the_start(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i - 2] = 1.0f;  // line 57
}

// A tile of 16 with an index that runs to 16.
__global__ void shared_index_out_of_range(float* out) {
  __shared__ float tile[16];
  tile[threadIdx.x] = 1.0f;  // line 63 (thread 16 writes tile[16])
  __syncthreads();
  out[threadIdx.x] = 2.0f;
}

// Two tiles in one dynamic array, through pointers the kernel declares.
__global__ void two_dynamic_tiles(float* out) {
  extern __shared__ float tiles[];
  float* first = tiles;
  float* second = tiles + 16;
  first[threadIdx.x] = 1.0f;
  second[threadIdx.x] = 2.0f;  // line 74
  __syncthreads();
  out[threadIdx.x] = first[threadIdx.x] + second[threadIdx.x];
}

// Right: every thread reads and writes inside, the last exactly at the last element.
__global__ void touches_the_last_element(const float* in, float* out, int n) {
  __shared__ float tile[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = tile[threadIdx.x] + in[n - 1];
}

TEST_F(Access, ReadOnePastTheEndIsReportedWithItsLine) {
  const int n = 64;
  float* in = device<float>(n);
  float* out = device<float>(n);
  reads_one_past_the_end<<<2, 32>>>(in, out, n, 37);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // reported, not a fault: the values stand
  const auto error = emu::take_memory_error();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file, "access_test.cu");
  EXPECT_EQ(error->line, 51);
  EXPECT_EQ(error->kernel, std::string("reads_one_past_the_end"));
  EXPECT_FALSE(error->write);
  EXPECT_EQ(error->size, 4u);
  EXPECT_EQ(error->block.x, 1u);
  EXPECT_EQ(error->thread.x, 5u);
  EXPECT_EQ(emu::describe(*error),
            "access_test.cu:51 (reads_one_past_the_end), thread (5,0,0) of block (1,0,0): "
            "invalid read of 4 bytes at buffer + 256 bytes (buffer[64]), just past the end of "
            "buffer (buffer holds 64 floats, 256 bytes)");
  EXPECT_FALSE(emu::take_memory_error()) << "taken once";
}

TEST_F(Access, WriteBeforeTheStartIsReportedOnceWithACount) {
  float* out = lend_a(64);  // the guard zone before it is memory: no fault, as on a GPU
  writes_before_the_start<<<1, 32>>>(out, 32);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto error = emu::take_memory_error();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->line, 57);
  EXPECT_TRUE(error->write);
  EXPECT_EQ(error->more, 1);  // threads 0 and 1
  EXPECT_NE(error->place.find("before the start of A"), std::string::npos) << error->place;
  EXPECT_TRUE(error->thread.x == 0 || error->thread.x == 1);
}

TEST_F(Access, SharedArrayIndexOutOfRange) {
  float* out = device<float>(17);
  shared_index_out_of_range<<<1, 17>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto error = emu::take_memory_error();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->line, 63);
  EXPECT_TRUE(error->write);
  EXPECT_EQ(error->thread.x, 16u);
  EXPECT_EQ(error->place,
            "in shared memory at tile + 64 bytes (tile[16]), just past the end of tile (tile "
            "holds 16 floats, 64 bytes)");
}

TEST_F(Access, DynamicSharedMemorySmallerThanUsed) {
  float* out = device<float>(16);
  two_dynamic_tiles<<<1, 16, 16 * sizeof(float)>>>(out);  // one tile's bytes for two tiles
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto error = emu::take_memory_error();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->line, 74);
  EXPECT_TRUE(error->write);
  EXPECT_EQ(error->kernel, std::string("two_dynamic_tiles"));
  EXPECT_NE(error->place.find("past the end of the dynamic shared memory the launch gave (64 "
                              "bytes)"),
            std::string::npos)
      << error->place;

  two_dynamic_tiles<<<1, 16, 32 * sizeof(float)>>>(out);  // enough: nothing to report
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(emu::take_memory_error());
}

TEST_F(Access, RightKernelTouchingTheLastElementReportsNothing) {
  const int n = 100;
  float* in = device<float>(n);
  float* out = device<float>(n);
  touches_the_last_element<<<(n + 31) / 32, 32>>>(in, out, n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(emu::take_memory_error());
}

TEST_F(Access, NamedPayloadOfAdoptedMemory) {
  const float* in = lend_a(64);
  float* out = device<float>(64);
  reads_one_past_the_end<<<1, 64>>>(in, out, 64, 3);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto error = emu::take_memory_error();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->place,
            "at A + 256 bytes (A[64]), just past the end of A (A holds 64 floats, 256 bytes)");
}

// Each thread gathers through an index array of n + 1 entries, the last reading one more.
__global__ void reads_index_past_the_end(const int* row_ptr, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<float>(row_ptr[i + 2] - row_ptr[i]);
}

TEST_F(Access, AnIndexArrayCountsInInts) {
  const int* row_ptr = reinterpret_cast<const int*>(lend_a(9, "row_ptr", "int"));
  float* out = device<float>(8);
  reads_index_past_the_end<<<1, 8>>>(row_ptr, out, 8);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto error = emu::take_memory_error();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->place,
            "at row_ptr + 36 bytes (row_ptr[9]), just past the end of row_ptr (row_ptr holds 9 "
            "ints, 36 bytes)");
}

}  // namespace
