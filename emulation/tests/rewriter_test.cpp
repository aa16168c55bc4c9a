// The launch rewriter: what it changes, what it must leave alone, and that lines stay put.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "rewrite.hpp"

namespace {

using emu::rewriter::rewrite;
using emu::rewriter::RewriteOptions;

// The rewritten text without the two lines the rewriter puts first.
std::string body(const std::string& text) {
  const auto first = text.find('\n');
  const auto second = text.find('\n', first + 1);
  return text.substr(second + 1);
}

std::string rewritten(const std::string& source) {
  const auto result = rewrite(source, {"/src/kernel.cu", false});
  EXPECT_TRUE(result.errors.empty()) << result.errors.front();
  return body(result.text);
}

int lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Rewriter, StartsWithTheRuntimeAndALineDirective) {
  const auto result = rewrite("int x;\n", {"/src/kernel.cu", false});
  EXPECT_EQ(result.text, "#include <cuda_runtime.h>\n#line 1 \"/src/kernel.cu\"\nint x;\n");
}

TEST(Rewriter, TurnsALaunchIntoACall) {
  EXPECT_EQ(rewritten("  add<<<grid, block>>>(a, b, n);\n"),
            "  ::emu::launch(::emu::KernelSite{\"add\", __FILE__, __LINE__}, [&](auto&... "
            "emu_args_) { add(emu_args_...); }, grid, block)(a, b, n);\n");
}

TEST(Rewriter, KeepsSharedMemoryAndStreamArguments) {
  const auto out = rewritten("k<<<dim3(8, 8), dim3(16, 16), 1024, stream>>>(p);\n");
  EXPECT_NE(out.find("}, dim3(8, 8), dim3(16, 16), 1024, stream)(p);"), std::string::npos) << out;
}

TEST(Rewriter, HandlesTemplateAndQualifiedKernels) {
  const auto out = rewritten("ns::tile<float, 16><<<g, b>>>(x);\n");
  EXPECT_NE(out.find("{ ns :: tile < float , 16 >(emu_args_...); }, g, b)(x);"), std::string::npos)
      << out;
  const auto nested = rewritten("k<T<int>><<<1, 1>>>(x);\n");
  EXPECT_NE(nested.find("{ k < T < int >>(emu_args_...); }, 1, 1)(x);"), std::string::npos)
      << nested;
}

TEST(Rewriter, KeepsEveryLineWhereItWasInAMultiLineLaunch) {
  const std::string source =
      "void f() {\n"
      "  kernel\n"
      "      <<<grid,\n"
      "         block>>>(a,\n"
      "                  b);\n"
      "  int after = 1;\n"
      "}\n";
  const auto out = rewritten(source);
  EXPECT_EQ(lines(out), lines(source)) << out;
  // The statement after the launch is still on line 6.
  int line = 1;
  for (std::size_t i = 0; i < out.find("int after"); ++i) line += out[i] == '\n';
  EXPECT_EQ(line, 6) << out;
}

TEST(Rewriter, LeavesCommentsAndStringsAlone) {
  const std::string source =
      "// then launch MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width).\n"
      "/* k<<<1, 1>>>(); */\n"
      "const char* s = \"k<<<1, 1>>>()\";\n"
      "const char* r = R\"x(k<<<1, 1>>>())x\";\n"
      "char c = '<';\n";
  const auto result = rewrite(source, {"/src/kernel.cu", false});
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.launches, 0);
  EXPECT_EQ(body(result.text), source);
}

TEST(Rewriter, RewritesLaunchesInsideMacros) {
  const auto out = rewritten("#define LAUNCH(k) k<<<1, 32>>>(p)\n");
  EXPECT_NE(out.find("#define LAUNCH(k) ::emu::launch("), std::string::npos) << out;
}

TEST(Rewriter, ReportsALaunchWithoutAKernelWithItsLine) {
  const auto result = rewrite("int x;\n  <<<1, 1>>>(p);\n", {"/src/kernel.cu", false});
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_NE(result.errors[0].find("/src/kernel.cu:2: error:"), std::string::npos)
      << result.errors[0];
}

TEST(Rewriter, ReportsAnUnclosedLaunch) {
  const auto result = rewrite("k<<<1, 1(p);\n", {"/src/kernel.cu", false});
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_NE(result.errors[0].find(">>>"), std::string::npos);
}

TEST(Rewriter, NotesStaticSharedArraysInsideFunctions) {
  const auto out = rewritten(
      "__global__ void k() {\n"
      "  __shared__ float Mds[16][16], Nds[16][16];\n"
      "  __shared__ __align__(16) int count;\n"
      "}\n");
  EXPECT_NE(out.find("Nds[16][16]; ::emu::note_shared(Mds); ::emu::note_shared(Nds);"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("int count; ::emu::note_shared(count);"), std::string::npos) << out;
}

TEST(Rewriter, LeavesNamespaceScopeSharedToTheMacro) {
  const std::string source = "__shared__ float tile[32];\nnamespace a { __shared__ int b; }\n";
  EXPECT_EQ(rewritten(source), source);
}

TEST(Rewriter, TurnsExternSharedIntoThePerBlockBuffer) {
  const auto out = rewritten(
      "__global__ void k() {\n"
      "  extern __shared__ float buffer[];\n"
      "}\n"
      "extern __shared__ unsigned char raw[];\n");
  EXPECT_NE(out.find("static thread_local float* const buffer = ::emu::dynamic_shared<float>();"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("static thread_local unsigned char* const raw = "
                     "::emu::dynamic_shared<unsigned char>();"),
            std::string::npos)
      << out;
}

TEST(Rewriter, MakesQuotedIncludesAbsolute) {
  const auto dir = std::filesystem::temp_directory_path() / "labs_rewriter_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "lab9.h") << "#pragma once\n";
  const auto source = (dir / "kernel.cu").string();
  const auto result =
      rewrite("#include \"lab9.h\"\n#include \"missing.h\"\n#include <vector>\n", {source, true});
  const auto out = body(result.text);
  EXPECT_NE(out.find("#include \"" + (dir / "lab9.h").string() + "\""), std::string::npos) << out;
  EXPECT_NE(out.find("#include \"missing.h\""), std::string::npos) << out;
  EXPECT_NE(out.find("#include <vector>"), std::string::npos) << out;
  std::filesystem::remove_all(dir);
}

// Bounds checks (emu/access.hpp): subscripts of a kernel's pointers and __shared__ arrays only.
TEST(Rewriter, ChecksSubscriptsOfAKernelsPointersAndSharedArrays) {
  const auto out = rewritten(
      "__global__ void k(const float* A, float* C, int n) {\n"
      "  __shared__ float As[4][4], Bs[4];\n"
      "  float* p = C + 1;\n"
      "  float local[2];\n"
      "  As[0][1] = A[n];\n"
      "  C[n] += Bs[n] * p[0] + local[0];\n"
      "  atomicAdd(&C[0], 1.0f);\n"
      "}\n"
      "void host(float* A) { A[0] = 1; }\n");
  EXPECT_NE(out.find("__shared__ float As[4][4], Bs[4];"), std::string::npos) << out;
  EXPECT_NE(out.find("::emu::at_shared(As[0][1], As, \"As\", __FILE__, 5, "
                     "::emu::Access::write) = ::emu::at(A[n], __FILE__, 5, "
                     "::emu::Access::read);"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("::emu::at(C[n], __FILE__, 6, ::emu::Access::update) += "
                     "::emu::at_shared(Bs[n], Bs, \"Bs\", __FILE__, 6, ::emu::Access::read) * "
                     "::emu::at(p[0], __FILE__, 6, ::emu::Access::read) + local[0];"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("atomicAdd(&C[0], 1.0f);"), std::string::npos) << out;  // no access
  EXPECT_NE(out.find("void host(float* A) { A[0] = 1; }"), std::string::npos) << out;
  EXPECT_EQ(rewrite("__global__ void k(float* A) { A[0] = 1; }\n", {"/src/kernel.cu", false})
                .checked_subscripts,
            1);
}

// The race check needs to know which subscripts are written as well as read: `+=`, `<<=`, `++`
// and `--` (before or after) make an update; a plain `=` a write; the rest reads.
TEST(Rewriter, CompoundAssignmentsAndIncrementsAreUpdates) {
  const auto out = rewritten(
      "__global__ void k(int* A) {\n"
      "  __shared__ int s[4];\n"
      "  s[0] <<= 1;\n"
      "  ++s[1];\n"
      "  A[2]--;\n"
      "  s[3] = A[0] == s[2];\n"
      "}\n");
  EXPECT_NE(out.find("::emu::at_shared(s[0], s, \"s\", __FILE__, 3, ::emu::Access::update) <<= 1"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("++::emu::at_shared(s[1], s, \"s\", __FILE__, 4, ::emu::Access::update)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("::emu::at(A[2], __FILE__, 5, ::emu::Access::update)--"), std::string::npos)
      << out;
  EXPECT_NE(out.find("::emu::at_shared(s[3], s, \"s\", __FILE__, 6, ::emu::Access::write) = "
                     "::emu::at(A[0], __FILE__, 6, ::emu::Access::read) == "
                     "::emu::at_shared(s[2], s, \"s\", __FILE__, 6, ::emu::Access::read)"),
            std::string::npos)
      << out;
}

}  // namespace
