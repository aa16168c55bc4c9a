// The replay of what the launcher asked for, in the student's context: its launches (checked
// against CUDA's limits and timed inside a TimedSpan), allocations, copies and attributes; a fault
// is reported in the student's words and costs only the student's context.
#include "student_runtime.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "buffer_registry.hpp"
#include "driver.hpp"
#include "harness/launch_limits.hpp"
#include "harness/sass.hpp"
#include "launcher/protocol.hpp"

namespace harness::student {
namespace protocol = launcher_protocol;

void Runtime::replay(const nlohmann::json& ops, const std::string& call_text, bool timed) {
  if (timed && active_span) cudaStreamSynchronize(nullptr);  // the L2 flush, in the lab's context
  ContextScope scope(context_);
  if (timed && active_span && !events_[0]) {
    check_driver(DRIVER(cuEventCreate)(&events_[0], CU_EVENT_DEFAULT), "cuEventCreate");
    check_driver(DRIVER(cuEventCreate)(&events_[1], CU_EVENT_DEFAULT), "cuEventCreate");
  }
  if (timed && active_span) flush_l2();
  if (timed && active_span)
    check_driver(DRIVER(cuEventRecord)(events_[0], nullptr), "cuEventRecord");
  std::string last_launch;
  try {
    for (const auto& op : ops) replay_one(op, call_text, timed, last_launch);
    if (timed && active_span)
      check_driver(DRIVER(cuEventRecord)(events_[1], nullptr), "cuEventRecord");
    const CUresult finished = DRIVER(cuCtxSynchronize)();
    if (finished != CUDA_SUCCESS) fault(finished, call_text, last_launch);
  } catch (const nlohmann::json::exception& error) {
    throw StudentError(
        cudaErrorLaunchFailure,
        fmt::format("{}: your launcher sent a malformed request ({})", call_text, error.what()));
  }
  if (timed && active_span) {
    float ms = 0;
    check_driver(DRIVER(cuEventElapsedTime)(&ms, events_[0], events_[1]), "cuEventElapsedTime");
    active_span->add(ms);
  }
}

// Copying the call's buffers in left them in L2; the lab's flush came before that. Writing twice
// the L2's size here, after the copies and before the start event, evicts them, so the kernel
// reads its inputs from DRAM as the references do.
void Runtime::flush_l2() {
  if (!l2_scratch_.address) {
    int l2_bytes = 0;
    DRIVER(cuDeviceGetAttribute)(&l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device_);
    l2_scratch_.bytes = std::max<std::size_t>(2 * static_cast<std::size_t>(l2_bytes), 1 << 20);
    check_driver(DRIVER(cuMemAlloc)(&l2_scratch_.address, l2_scratch_.bytes),
                 "allocating the L2 flush in the student's context");
  }
  check_driver(
      DRIVER(cuMemsetD8Async)(l2_scratch_.address, ++l2_round_, l2_scratch_.bytes, nullptr),
      "flushing L2 in the student's context");
}

[[noreturn]] void Runtime::fault(CUresult result, const std::string& call_text,
                                 const std::string& launch) {
  const std::string message = fmt::format(
      "{}: {} failed while running: {}{}", call_text, launch.empty() ? "the work" : launch,
      driver_error(result),
      result == CUDA_ERROR_ILLEGAL_ADDRESS
          ? "; an index goes outside a matrix (run the check under compute-sanitizer to see the "
            "line)"
          : "");
  if (context_is_lost(result)) {
    // Only the student's context is lost: make a new one for the next call.
    destroy_context();
    try {
      build_context();
    } catch (const std::exception& error) {
      start_error_ = error.what();
    }
  }
  throw StudentError(runtime_code(result), message);
}

void Runtime::replay_one(const nlohmann::json& op, const std::string& call_text, bool timed,
                         std::string& last_launch) {
  const std::string kind = op.at("k").get<std::string>();
  if (kind == "launch") {
    launch(op, call_text, timed, last_launch);
  } else if (kind == "malloc" || kind == "free") {
    replay_allocation(kind, op, call_text);
  } else if (kind == "memset" || kind == "copy" || kind == "upload" || kind == "symbol") {
    replay_transfer(kind, op, call_text);
  } else if (kind == "attribute") {
    replay_attribute(op, call_text);
  } else {
    refuse_request(kind, op, call_text);
  }
}

// cudaMalloc and cudaFree of the launcher's own memory (its regions, never the lab's).
void Runtime::replay_allocation(const std::string& kind, const nlohmann::json& op,
                                const std::string& call_text) {
  if (kind == "malloc") {
    const auto region = op.at("region").get<std::uint64_t>();
    const auto bytes = op.at("bytes").get<std::size_t>();
    if (region < protocol::kFirstLauncherRegion || region >= protocol::kRegionCount ||
        bytes > protocol::kRegionBytes) {
      throw StudentError(cudaErrorMemoryAllocation, call_text + ": a bad cudaMalloc");
    }
    if (const auto old = allocations_.find(region); old != allocations_.end()) {
      DRIVER(cuMemFree)(old->second.address);
      allocations_.erase(old);
    }
    Shadow allocation;
    allocation.bytes = bytes;
    if (DRIVER(cuMemAlloc)(&allocation.address, std::max<std::size_t>(bytes, 1)) != CUDA_SUCCESS) {
      throw StudentError(cudaErrorMemoryAllocation,
                         fmt::format("{}: your cudaMalloc of {} bytes failed", call_text, bytes));
    }
    allocations_[region] = allocation;
  } else {
    const auto address = op.at("address").get<std::uint64_t>();
    const auto region = protocol::region_of(address);
    const auto it = allocations_.find(region);
    if (!protocol::is_fake(address) || it == allocations_.end() ||
        protocol::offset_of(address) != 0) {
      throw StudentError(cudaErrorInvalidValue,
                         call_text + ": cudaFree of memory your launcher did not allocate");
    }
    DRIVER(cuCtxSynchronize)();
    DRIVER(cuMemFree)(it->second.address);
    allocations_.erase(it);
  }
}

// cudaMemset, cudaMemcpy (device to device, or host data into the launcher's own memory) and
// cudaMemcpyToSymbol.
void Runtime::replay_transfer(const std::string& kind, const nlohmann::json& op,
                              const std::string& call_text) {
  if (kind == "memset") {
    const auto bytes = op.at("bytes").get<std::size_t>();
    const auto target =
        device_address(op.at("address").get<std::uint64_t>(), bytes, "cudaMemset", call_text);
    check_driver(
        DRIVER(cuMemsetD8Async)(target, op.at("value").get<unsigned char>(), bytes, nullptr),
        "cudaMemset");
  } else if (kind == "copy") {
    const auto bytes = op.at("bytes").get<std::size_t>();
    const auto to =
        device_address(op.at("to").get<std::uint64_t>(), bytes, "cudaMemcpy", call_text);
    const auto from =
        device_address(op.at("from").get<std::uint64_t>(), bytes, "cudaMemcpy", call_text);
    note_copy(op.at("to").get<std::uint64_t>(), op.at("from").get<std::uint64_t>());
    check_driver(DRIVER(cuMemcpyDtoDAsync)(to, from, bytes, nullptr), "cudaMemcpy");
  } else if (kind == "upload") {
    const auto& data = op.at("data").get_binary();
    const auto fake = op.at("to").get<std::uint64_t>();
    if (protocol::is_fake(fake) && protocol::region_of(fake) < protocol::kFirstLauncherRegion) {
      // The launcher never sees the inputs, but it knows the sizes: host data written into the
      // lab's buffers could only be a guess at the answer.
      const auto* buffer = buffer_in_region(protocol::region_of(fake));
      throw StudentError(cudaErrorNotSupported,
                         fmt::format("{}: your launcher copies host data into {}: the lab's "
                                     "inputs and outputs are written by your kernels only",
                                     call_text, buffer ? buffer->name : "a lab buffer"));
    }
    const auto to = device_address(fake, data.size(), "cudaMemcpy", call_text);
    check_driver(DRIVER(cuMemcpyHtoD)(to, data.data(), data.size()), "cudaMemcpy");
  } else if (kind == "symbol") {
    const auto it = variables_.find(op.at("variable").get<std::string>());
    const auto& data = op.at("data").get_binary();
    const auto offset = op.at("offset").get<std::size_t>();
    if (it == variables_.end() || it->second.address == 0 ||
        offset + data.size() > it->second.bytes) {
      throw StudentError(cudaErrorInvalidSymbol, call_text + ": cudaMemcpyToSymbol out of range");
    }
    check_driver(DRIVER(cuMemcpyHtoD)(it->second.address + offset, data.data(), data.size()),
                 "cudaMemcpyToSymbol");
  }
}

// cudaFuncSetAttribute, of the two attributes a kernel may set (dynamic shared memory, carveout).
void Runtime::replay_attribute(const nlohmann::json& op, const std::string& call_text) {
  const auto it = kernels_.find(op.at("kernel").get<std::string>());
  const int attribute = op.at("attribute").get<int>();
  if (it == kernels_.end() || (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES &&
                               attribute != CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)) {
    throw StudentError(cudaErrorInvalidValue, call_text + ": a bad cudaFuncSetAttribute");
  }
  const CUresult set = DRIVER(cuFuncSetAttribute)(
      it->second.function, static_cast<CUfunction_attribute>(attribute), op.at("value").get<int>());
  if (set != CUDA_SUCCESS) {
    throw StudentError(cudaErrorInvalidValue,
                       fmt::format("{}: cudaFuncSetAttribute({}) failed: {}", call_text,
                                   demangle(it->second.name), driver_error(set)));
  }
}

// A library loaded, a call the launcher refused, or a request nobody knows: the call fails.
[[noreturn]] void Runtime::refuse_request(const std::string& kind, const nlohmann::json& op,
                                          const std::string& call_text) {
  if (kind == "library") {
    throw StudentError(cudaErrorNotSupported,
                       fmt::format("{}: your launcher loaded {}: the lab does not allow "
                                   "libraries; the work must be done by your own kernels",
                                   call_text, op.at("name").get<std::string>()));
  } else if (kind == "refused") {
    throw StudentError(
        cudaErrorNotSupported,
        fmt::format("{}: your launcher calls {}: {}", call_text, op.at("what").get<std::string>(),
                    op.at("why").get<std::string>()));
  } else {
    throw StudentError(
        cudaErrorLaunchFailure,
        fmt::format("{}: your launcher sent an unknown request '{}'", call_text, kind));
  }
}

void Runtime::note_copy(std::uint64_t to, std::uint64_t from) {
  // Copies of the lab's buffers (its inputs and outputs) count for the structure checks; small
  // data the launcher made itself (a shape struct) does not.
  const auto lab_buffer = [](std::uint64_t a) {
    return protocol::is_fake(a) && protocol::region_of(a) < protocol::kFirstLauncherRegion;
  };
  if (lab_buffer(to) || lab_buffer(from)) {
    for (auto* observer : launch_observers()) ++observer->memory_copies;
  }
}

void Runtime::launch(const nlohmann::json& op, const std::string& call_text, bool timed,
                     std::string& last_launch) {
  const auto it = kernels_.find(op.at("kernel").get<std::string>());
  if (it == kernels_.end()) {
    throw StudentError(cudaErrorInvalidDeviceFunction,
                       call_text + ": your launcher launches a kernel that is not in your files");
  }
  const Kernel& kernel = it->second;
  const auto grid = dims_of(op.at("grid"));
  const auto block = dims_of(op.at("block"));
  const auto shared = op.at("shared").get<unsigned>();
  auto params = op.at("params").get_binary();
  const std::string name = demangle(kernel.name);
  last_launch =
      fmt::format("{} with grid {} and block {}", name, dims_text(grid), dims_text(block));
  if (params.size() != kernel.param_bytes) {
    throw StudentError(
        cudaErrorInvalidValue,
        fmt::format("{}: the arguments of {} do not match its parameters", call_text, name));
  }
  // Pointers to the lab's buffers or the launcher's allocations, also inside structs.
  translate_parameters(params, call_text, name);
  check_launch_shape(kernel, grid, block, shared, call_text, name);
  if (before_launch_) {
    // The lab program's own set-up, in this (the student's) context, right before the kernel.
    const auto work = std::move(before_launch_);
    before_launch_ = nullptr;
    work();
  }
  std::size_t size = params.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params.data(), CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &size, CU_LAUNCH_PARAM_END};
  const CUresult launched =
      DRIVER(cuLaunchKernel)(kernel.function, grid[0], grid[1], grid[2], block[0], block[1],
                             block[2], shared, nullptr, nullptr, params.empty() ? nullptr : extra);
  if (launched != CUDA_SUCCESS) {
    throw StudentError(cudaErrorLaunchFailure,
                       fmt::format("{}: the launch of {} failed: {}; check the grid and block "
                                   "sizes",
                                   call_text, last_launch, driver_error(launched)));
  }
  if (!launch_observers().empty()) tell_observers(kernel, name, grid, block, shared);
  // Outside timing, each launch is waited for, so a fault is charged to the launch that made it.
  if (!timed) {
    const CUresult finished = DRIVER(cuCtxSynchronize)();
    if (finished != CUDA_SUCCESS) fault(finished, call_text, last_launch);
  }
}

void Runtime::translate_parameters(std::vector<std::uint8_t>& params, const std::string& call_text,
                                   const std::string& name) {
  for (std::size_t at = 0; at + 8 <= params.size(); at += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, params.data() + at, 8);
    const auto real = translate(word);
    if (!real) continue;
    if (real->first == 0) {
      throw StudentError(cudaErrorInvalidValue,
                         fmt::format("{}: {} is given a pointer to memory that does not exist "
                                     "(freed, or from before an earlier fault)",
                                     call_text, name));
    }
    std::memcpy(params.data() + at, &real->first, 8);
  }
}

void Runtime::tell_observers(const Kernel& kernel, const std::string& name,
                             const std::array<unsigned, 3>& grid,
                             const std::array<unsigned, 3>& block, unsigned shared) {
  KernelLaunch seen;
  seen.name = name;
  for (int i = 0; i < 3; ++i) {
    seen.grid[i] = grid[i];
    seen.block[i] = block[i];
  }
  const auto attribute = [&](CUfunction_attribute a) {
    int value = 0;
    DRIVER(cuFuncGetAttribute)(&value, a, kernel.function);
    return value;
  };
  seen.registers_per_thread = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
  seen.static_shared_bytes = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  seen.dynamic_shared_bytes = shared;
  seen.local_bytes_per_thread = attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  for (auto* observer : launch_observers()) observer->kernels.push_back(seen);
}

void Runtime::check_launch_shape(const Kernel& kernel, const std::array<unsigned, 3>& grid,
                                 const std::array<unsigned, 3>& block, unsigned shared,
                                 const std::string& call_text, const std::string& name) {
  int max_threads = 1024;
  DRIVER(cuFuncGetAttribute)
  (&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kernel.function);
  const unsigned long long threads = 1ULL * block[0] * block[1] * block[2];
  const auto refuse = [&](const std::string& why, std::optional<Diagnosis> diagnosis) {
    throw StudentError(cudaErrorInvalidConfiguration,
                       fmt::format("{}: the launch failed: {} (kernel {}, grid {}, block {})",
                                   call_text, why, name, dims_text(grid), dims_text(block)),
                       std::move(diagnosis));
  };
  if (threads == 0 || grid[0] == 0 || grid[1] == 0 || grid[2] == 0) {
    refuse(kEmptyLaunchWords, std::nullopt);
  }
  // Over CUDA's limits: the same words as the emulation's (harness/launch_limits.hpp), from this
  // device's limits and this kernel's (its registers may allow fewer threads a block).
  LaunchLimits limits;
  limits.threads_per_block = static_cast<unsigned>(max_threads);
  const CUdevice_attribute block_limits[3] = {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                                              CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                              CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  const CUdevice_attribute grid_limits[3] = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                                             CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                             CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  for (int i = 0; i < 3; ++i) {
    int limit = 0;
    if (DRIVER(cuDeviceGetAttribute)(&limit, block_limits[i], device_) == CUDA_SUCCESS) {
      limits.block[i] = static_cast<unsigned>(limit);
    }
    if (DRIVER(cuDeviceGetAttribute)(&limit, grid_limits[i], device_) == CUDA_SUCCESS) {
      limits.grid[i] = static_cast<unsigned>(limit);
    }
  }
  LaunchShape shape;
  for (int i = 0; i < 3; ++i) {
    shape.grid[i] = grid[i];
    shape.block[i] = block[i];
  }
  if (const auto over = launch_over_limits(shape, limits)) {
    refuse(*over, diagnose_launch_over_limits(*over));
  }
  int dynamic_limit = 0;
  DRIVER(cuFuncGetAttribute)
  (&dynamic_limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, kernel.function);
  if (shared > static_cast<unsigned>(dynamic_limit)) {
    refuse(fmt::format("{} bytes of dynamic shared memory; the kernel may use {} (more needs "
                       "cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize)",
                       shared, dynamic_limit),
           std::nullopt);
  }
}

void Runtime::before_next_launch(const std::function<void()>& work) { before_launch_ = work; }

}  // namespace harness::student
