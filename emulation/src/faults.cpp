// Faults in kernel code (an index far outside an allocation, a stack overflow, an integer division
// by zero) become launch failures, as on a GPU, instead of killing the process: the handler runs
// on an alternate stack and jumps back to the block runner, which reports the thread and the
// address. Faults outside kernels keep their default action.
#include <signal.h>

#include <cstdlib>
#include <mutex>

#include "block_runner.hpp"

namespace emu::detail {
namespace {

struct sigaction previous_actions[3];
constexpr int kSignals[3] = {SIGSEGV, SIGBUS, SIGFPE};

void on_fault(int signal, siginfo_t* info, void* context) {
  BlockRunner* runner = BlockRunner::active();
  if (runner && runner->in_kernel()) runner->fault(signal, info->si_addr);
  // Not ours: put the previous handler back and let the instruction fault again.
  for (int i = 0; i < 3; ++i) {
    if (kSignals[i] == signal) sigaction(signal, &previous_actions[i], nullptr);
  }
  (void)context;
}

}  // namespace

void prepare_fault_handling() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction action = {};
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &action, &previous_actions[i]);
  });
  thread_local bool has_alternate_stack = false;
  if (!has_alternate_stack) {
    constexpr std::size_t kBytes = 64 * 1024;
    stack_t alternate = {};
    alternate.ss_sp = std::malloc(kBytes);  // lives as long as the thread
    alternate.ss_size = kBytes;
    if (alternate.ss_sp && sigaltstack(&alternate, nullptr) == 0) has_alternate_stack = true;
  }
}

}  // namespace emu::detail
