// kernel<<<grid, block, shared, stream>>>(args) as the rewriter emits it:
//   ::emu::launch(site, [&](auto&... a) { kernel(a...); }, grid, block, shared, stream)(args)
// The arguments are copied once, as CUDA copies kernel parameters, and every emulated thread
// calls the kernel with them (by value, so each thread has its own copy to change).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "emu/types.hpp"

namespace emu {

// Where a launch is in the student's source: for messages and the launch records.
struct KernelSite {
  const char* name;
  const char* file;
  int line;
};

namespace detail {
struct LaunchRequest {
  KernelSite site;
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes;
  cudaStream_t stream;
  void (*run_thread)(void* context);  // runs the kernel body once, for the current thread
  void* context;
};
// Runs the whole grid before it returns (errors surface as CUDA's would: a bad configuration at
// cudaGetLastError, a fault at the next synchronizing call).
void launch(const LaunchRequest& request);
// A pointer argument that points into no cudaMalloc allocation is reported once per launch site
// (on a GPU a host pointer faults when the kernel uses it).
void check_pointer_argument(const KernelSite& site, int position, const void* pointer);

template <class Call>
void run_call(void* call) {
  (*static_cast<Call*>(call))();
}
}  // namespace detail

template <class Body>
class PendingLaunch {
 public:
  PendingLaunch(KernelSite site, Body body, dim3 grid, dim3 block, std::size_t shared,
                cudaStream_t stream)
      : site_(site),
        body_(std::move(body)),
        grid_(grid),
        block_(block),
        shared_(shared),
        stream_(stream) {}

  template <class... Args>
  void operator()(Args&&... args) {
    std::tuple<std::decay_t<Args>...> parameters(std::forward<Args>(args)...);
    check_pointers(parameters, std::index_sequence_for<Args...>{});
    auto call = [this, &parameters] { std::apply(body_, parameters); };
    detail::launch(
        {site_, grid_, block_, shared_, stream_, &detail::run_call<decltype(call)>, &call});
  }

 private:
  template <class Tuple, std::size_t... I>
  void check_pointers(const Tuple& parameters, std::index_sequence<I...>) {
    (check_pointer(static_cast<int>(I) + 1, std::get<I>(parameters)), ...);
  }
  template <class T>
  void check_pointer(int position, const T& value) {
    if constexpr (std::is_pointer_v<T> && std::is_object_v<std::remove_pointer_t<T>>) {
      detail::check_pointer_argument(site_, position, (const void*)value);
    }
  }

  KernelSite site_;
  Body body_;
  dim3 grid_;
  dim3 block_;
  std::size_t shared_;
  cudaStream_t stream_;
};

template <class Body>
PendingLaunch<Body> launch(KernelSite site, Body body, dim3 grid, dim3 block,
                           std::size_t shared = 0, cudaStream_t stream = nullptr) {
  return PendingLaunch<Body>(site, std::move(body), grid, block, shared, stream);
}

}  // namespace emu
