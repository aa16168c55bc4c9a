// The lab program's side of a student's submission. The student's kernel.cu is not linked into
// the lab program: it runs as a separate "launcher" process (launcher/), and each contract
// function the checks call (copy_matrix, matmul_tiled, ...) is a generated proxy. On a GPU it
// asks the launcher what it would launch and replays that in a CUDA context of its own
// (src/student/student_runtime.cpp); under the CPU emulation the launcher runs its kernels over
// copies of the call's buffers (src/student/emulated_runtime.cpp). The checks keep calling the
// contract functions as before.
#pragma once

#include <cstddef>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "harness/contract.hpp"
#include "harness/cuda_check.hpp"

namespace harness {

// A contract call that failed on the student's side: the launcher crashed, hung or asked for
// something refused, or a launch failed or faulted. The lab program's own context is intact.
struct StudentError : CudaError {
  StudentError(cudaError_t code, const std::string& message,
               std::optional<Diagnosis> named = std::nullopt)
      : CudaError(code, message), diagnosis(std::move(named)) {
    sticky = false;
  }
  // The mistake the failure names by itself (a launch over CUDA's limits), decided where the
  // launch was refused; nothing when only its message can tell (diagnose_launch_error).
  std::optional<Diagnosis> diagnosis;
};

// The arguments of one contract call, as the launcher decodes them: the bytes of each parameter
// in order. Pointers are the lab program's device addresses; the runtime turns them into the
// launcher's fake ones.
struct StudentArgs {
  std::string bytes;
  std::vector<std::size_t> pointer_offsets;

  template <class T>
  void add(T value) {
    static_assert(std::is_trivially_copyable_v<T>, "contract parameters are plain values");
    if constexpr (std::is_pointer_v<T>) pointer_offsets.push_back(bytes.size());
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(value));
  }
};

// The student's launcher program, which the runtime starts on the first contract call: lab_main
// sets it (from --launcher, LAB_LAUNCHER or the build's default) before any call.
void set_student_launcher(const std::string& program);

// Runs the named contract function of the submission (throws StudentError on failure).
void call_student(const std::string& name, const StudentArgs& args);

template <class... Args>
void call_student_function(const char* name, Args... args) {
  StudentArgs encoded;
  (encoded.add(args), ...);
  call_student(name, encoded);
}

// Shared memory that the student's next kernel launch finds holds `value`, for the experiment
// that tells a read of shared memory nobody wrote (harness/diagnose_run.hpp). Shared memory does
// not carry over between contexts, nor between processes: the fill runs where that kernel runs.
void fill_student_shared_memory(float value);

// Starts the submission's launcher (and on a GPU the student's context) early, in the
// background, so that they are ready by the first call (lab_main calls it before CUDA starts).
void prepare_student_launcher();

// Only the student's CUDA context, made now (nothing on the emulation), for a program that starts
// before its turn on the GPU (the batch's speed runs): no code of the student's may run while
// another submission is timed, so the launcher starts after the turn comes.
void prepare_student_context();

// Whether the submission defines a contract function (a bonus may be left out).
bool student_defines(const std::string& name);

// The student's device code as the lab program loaded it (a fatbin file), for cuobjdump; empty
// when there is none.
std::string student_device_code_file();

// While a TimingSession lives, each distinct call asks the launcher once and later calls replay
// the same launches: what is timed is the replay alone. Each replay still copies the lab's
// buffers in and out, outside the timed events, so every timed call sees the inputs and the
// poisoned output the trusted side prepared for it, and leaves its output for verification.
class TimingSession {
 public:
  TimingSession();
  ~TimingSession();
  TimingSession(const TimingSession&) = delete;
  TimingSession& operator=(const TimingSession&) = delete;
};

// Inside a TimedSpan the replays are timed with events in the student's context (the lab
// program's own events cannot see work in another context).
class TimedSpan {
 public:
  TimedSpan();
  ~TimedSpan();
  TimedSpan(const TimedSpan&) = delete;
  TimedSpan& operator=(const TimedSpan&) = delete;
  bool used() const { return used_; }
  double ms() const { return ms_; }
  void add(double ms) {
    used_ = true;
    ms_ += ms;
  }

 private:
  bool used_ = false;
  double ms_ = 0;
};

}  // namespace harness

// Whether a (bonus) contract function is defined: the launcher says which it has.
#define LAB_STUDENT_DEFINES(function) (::harness::student_defines(#function))
