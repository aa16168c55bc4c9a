// The trusted side of a contract call (harness/student_call.hpp). The student's device code is
// loaded into a CUDA context of its own; the lab program's buffers stay in the lab program's
// context. A call copies the argument buffers (guards included) into shadows in the student's
// context, replays what the launcher asked for there, and copies the shadows back, so the checks
// read results that only the GPU wrote, through their own buffers.
#include "student_runtime.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "buffer_registry.hpp"
#include "harness/check.hpp"
#include "harness/diagnose_run.hpp"
#include "harness/launch_limits.hpp"
#include "harness/sass.hpp"
#include "harness/trace.hpp"
#include "launcher/protocol.hpp"

// The driver's functions are looked up at run time in libcuda.so.1, under the versioned names
// cuda.h maps each call to (cuCtxCreate -> cuCtxCreate_v4), which are the symbols a link would
// bind: the lab program must start on a machine without a GPU driver, where checks are skipped.
#define LABS_DRIVER_SYMBOL_(name) #name
#define LABS_DRIVER_SYMBOL(name) LABS_DRIVER_SYMBOL_(name)
template <class Function>
Function driver_function(const char* symbol) {
  static void* const library = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  void* function = library ? ::dlsym(library, symbol) : nullptr;
  if (function == nullptr) {
    throw std::runtime_error(fmt::format("the CUDA driver has no {}", symbol));
  }
  return reinterpret_cast<Function>(function);
}
#define DRIVER(name)                                                                           \
  ([] {                                                                                        \
    static const auto function = driver_function<decltype(&::name)>(LABS_DRIVER_SYMBOL(name)); \
    return function;                                                                           \
  }())

namespace harness::student {
namespace protocol = launcher_protocol;
namespace {

constexpr std::size_t kMaxSpareShadowBytes = std::size_t{1} << 30;
constexpr int kCallDeadlineMs = 20000;

std::string driver_error(CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  DRIVER(cuGetErrorName)(result, &name);
  DRIVER(cuGetErrorString)(result, &text);
  return fmt::format("{} ({})", name ? name : "CUDA_ERROR", text ? text : "unknown");
}

void check_driver(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) {
    throw std::runtime_error(fmt::format("{} failed: {}", what, driver_error(result)));
  }
}

// The runtime error that matches a driver error, for the diagnosis rules that read names.
cudaError_t runtime_code(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
      return cudaErrorIllegalAddress;
    case CUDA_ERROR_MISALIGNED_ADDRESS:
      return cudaErrorMisalignedAddress;
    case CUDA_ERROR_LAUNCH_FAILED:
      return cudaErrorLaunchFailure;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
      return cudaErrorLaunchOutOfResources;
    case CUDA_ERROR_INVALID_VALUE:
      return cudaErrorInvalidConfiguration;
    case CUDA_ERROR_ASSERT:
      return cudaErrorAssert;
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
      return cudaErrorIllegalInstruction;
    default:
      return cudaErrorLaunchFailure;
  }
}

bool context_is_lost(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_UNKNOWN:
      return true;
    default:
      return false;
  }
}

std::string dims_text(const std::array<unsigned, 3>& d) {
  return fmt::format("({}, {}, {})", d[0], d[1], d[2]);
}

std::array<unsigned, 3> dims_of(const nlohmann::json& value) {
  std::array<unsigned, 3> d{1, 1, 1};
  if (!value.is_array() || value.size() != 3) throw std::runtime_error("bad dimensions");
  for (int i = 0; i < 3; ++i) d[i] = value[i].get<unsigned>();
  return d;
}

// Pushes a context for the scope of one block.
class ContextScope {
 public:
  explicit ContextScope(CUcontext context) {
    check_driver(DRIVER(cuCtxPushCurrent)(context), "cuCtxPushCurrent");
  }
  ~ContextScope() { DRIVER(cuCtxPopCurrent)(nullptr); }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;
};

TimedSpan* active_span = nullptr;
int timing_sessions = 0;

}  // namespace

Runtime& Runtime::get() {
  static Runtime instance;
  return instance;
}

Runtime::Runtime() {
  on_forget([this](std::uint64_t region) { drop_shadow(region); });
}

Runtime::~Runtime() { on_forget(nullptr); }

void Runtime::prepare() {
  if (started_) return;
  if (!session_.spawned()) session_.spawn(lab_run().launcher);
  prepare_context();
  trace("the launcher is starting");
}

void Runtime::prepare_context_now() {
  prepare_context();
  if (prepared_context_.valid()) prepared_context_.wait();
}

void Runtime::prepare_context() {
  if (started_ || prepared_context_.valid()) return;
  prepared_context_ = std::async(std::launch::async, []() -> CUcontext {
    CUdevice device = 0;
    CUcontext context = nullptr;
    if (DRIVER(cuInit)(0) != CUDA_SUCCESS || DRIVER(cuDeviceGet)(&device, 0) != CUDA_SUCCESS ||
        DRIVER(cuCtxCreate)(&context, nullptr, 0, device) != CUDA_SUCCESS) {
      return nullptr;
    }
    DRIVER(cuCtxPopCurrent)(nullptr);
    trace("the student's context is made");
    return context;
  });
}

// The context prepare() made, when it is on `device`; null when there is none.
CUcontext Runtime::take_prepared_context(CUdevice device) {
  if (!prepared_context_.valid()) return nullptr;
  CUcontext context = nullptr;
  try {
    context = prepared_context_.get();
  } catch (const std::exception&) {
    return nullptr;
  }
  CUdevice its_device = 0;
  if (context != nullptr) {
    DRIVER(cuCtxPushCurrent)(context);
    const CUresult asked = DRIVER(cuCtxGetDevice)(&its_device);
    DRIVER(cuCtxPopCurrent)(nullptr);
    if (asked != CUDA_SUCCESS || its_device != device) {
      DRIVER(cuCtxDestroy)(context);
      context = nullptr;
    }
  }
  return context;
}

void Runtime::start() {
  if (started_) {
    if (!start_error_.empty()) throw StudentError(cudaErrorLaunchFailure, start_error_);
    return;
  }
  started_ = true;
  try {
    if (!session_.spawned()) session_.spawn(lab_run().launcher);
    const auto hello = session_.hello();
    trace("the launcher said hello");
    read_hello(hello);
    build_context();
    session_.reply(hello_reply());
    trace("the student's kernels are loaded");
  } catch (const nlohmann::json::exception& error) {
    start_error_ = std::string("your launcher sent a malformed hello: ") + error.what();
  } catch (const std::exception& error) {
    start_error_ = error.what();
  }
  if (!start_error_.empty()) throw StudentError(cudaErrorLaunchFailure, start_error_);
}

void Runtime::read_hello(const nlohmann::json& hello) {
  for (const auto& fatbin : hello.at("fatbins")) {
    const auto& bytes = fatbin.get_binary();
    fatbins_.emplace_back(bytes.begin(), bytes.end());
  }
  for (const auto& kernel : hello.at("kernels")) {
    const int module = kernel.at("module").get<int>();
    if (module < 0 || module >= static_cast<int>(fatbins_.size())) {
      throw std::runtime_error("a kernel of an unknown module");
    }
    kernels_[fmt::format("{}:{}", module, kernel.at("name").get<std::string>())] =
        Kernel{module, kernel.at("name").get<std::string>()};
  }
  for (const auto& variable : hello.at("variables")) {
    variables_[fmt::format("{}:{}", variable.at("module").get<int>(),
                           variable.at("name").get<std::string>())] =
        Variable{variable.at("module").get<int>(), variable.at("name").get<std::string>()};
  }
  for (const auto& name : hello.at("defines")) defines_.insert(name.get<std::string>());
  pending_ops_ = hello.value("early_ops", nlohmann::json::array());
}

void Runtime::build_context() {
  CUcontext current = nullptr;
  cudaFree(nullptr);  // the lab program's own (primary) context exists and is current
  check_driver(DRIVER(cuCtxGetCurrent)(&current), "cuCtxGetCurrent");
  CUdevice device = 0;
  check_driver(DRIVER(cuCtxGetDevice)(&device), "cuCtxGetDevice");
  device_ = device;
  context_ = take_prepared_context(device);
  trace(context_ ? "the prepared student's context is taken" : "making the student's context");
  if (context_ == nullptr) {
    check_driver(DRIVER(cuCtxCreate)(&context_, nullptr, 0, device),
                 "creating the student's context");
    DRIVER(cuCtxPopCurrent)(nullptr);
  }
  ContextScope scope(context_);
  modules_.clear();
  for (const auto& fatbin : fatbins_) {
    CUmodule module = nullptr;
    const CUresult loaded = DRIVER(cuModuleLoadData)(&module, fatbin.data());
    if (loaded == CUDA_ERROR_NO_BINARY_FOR_GPU) {
      throw std::runtime_error("your kernels were compiled for another GPU (no code for this one)");
    }
    check_driver(loaded, "loading your kernels");
    modules_.push_back(module);
  }
  for (auto& [key, kernel] : kernels_) {
    check_driver(
        DRIVER(cuModuleGetFunction)(&kernel.function, modules_[kernel.module], kernel.name.c_str()),
        "finding a kernel");
    kernel.offsets.clear();
    kernel.sizes.clear();
    kernel.param_bytes = 0;
    for (std::size_t i = 0;; ++i) {
      std::size_t offset = 0;
      std::size_t size = 0;
      if (DRIVER(cuFuncGetParamInfo)(kernel.function, i, &offset, &size) != CUDA_SUCCESS) break;
      kernel.offsets.push_back(offset);
      kernel.sizes.push_back(size);
      kernel.param_bytes = std::max(kernel.param_bytes, offset + size);
    }
  }
  for (auto& [key, variable] : variables_) {
    variable.address = 0;
    variable.bytes = 0;
    DRIVER(cuModuleGetGlobal)
    (&variable.address, &variable.bytes, modules_[variable.module], variable.name.c_str());
  }
}

nlohmann::json Runtime::hello_reply() {
  ContextScope scope(context_);
  nlohmann::json kernels = nlohmann::json::object();
  for (const auto& [key, kernel] : kernels_) {
    const auto attribute = [&](CUfunction_attribute a) {
      int value = 0;
      DRIVER(cuFuncGetAttribute)(&value, a, kernel.function);
      return value;
    };
    kernels[key] = {
        {"offsets", kernel.offsets},
        {"sizes", kernel.sizes},
        {"attributes",
         {{"shared", attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)},
          {"const", attribute(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)},
          {"local", attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)},
          {"max_threads", attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)},
          {"registers", attribute(CU_FUNC_ATTRIBUTE_NUM_REGS)},
          {"ptx_version", attribute(CU_FUNC_ATTRIBUTE_PTX_VERSION)},
          {"binary_version", attribute(CU_FUNC_ATTRIBUTE_BINARY_VERSION)},
          {"max_dynamic_shared", attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)}}}};
  }
  // The runtime's device attributes have the driver's numbers.
  std::vector<int> attributes(CU_DEVICE_ATTRIBUTE_MAX, 0);
  for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; ++a) {
    DRIVER(cuDeviceGetAttribute)(&attributes[a], static_cast<CUdevice_attribute>(a), device_);
  }
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, 0);
  const auto* raw = reinterpret_cast<const std::uint8_t*>(&properties);
  int driver = 0;
  DRIVER(cuDriverGetVersion)(&driver);
  return {{"kernels", kernels},
          {"device",
           {{"attributes", attributes},
            {"properties",
             nlohmann::json::binary_t(std::vector<std::uint8_t>(raw, raw + sizeof properties))},
            {"driver_version", driver}}}};
}

void Runtime::destroy_context() {
  shadows_.clear();
  spare_shadows_.clear();
  spare_bytes_ = 0;
  allocations_.clear();
  if (events_[0]) events_ = {};
  if (context_) DRIVER(cuCtxDestroy)(context_);
  context_ = nullptr;
}

bool Runtime::defines(const std::string& name) {
  start();
  return defines_.count(name) > 0;
}

std::string Runtime::device_code_file() {
  start();
  if (fatbins_.empty()) return "";
  if (device_code_file_.empty()) {
    char path[] = "/tmp/labs-student-XXXXXX.fatbin";
    const int fd = ::mkstemps(path, 7);
    if (fd < 0) return "";
    ::close(fd);
    // One file per module; cuobjdump reads the first, and these labs build one or two modules.
    std::ofstream out(path, std::ios::binary);
    for (const auto& fatbin : fatbins_)
      out.write(fatbin.data(), static_cast<std::streamsize>(fatbin.size()));
    device_code_file_ = path;
  }
  return device_code_file_;
}

void Runtime::call(const std::string& name, const StudentArgs& args) {
  start();
  const std::string call_text = describe_call(name, args);
  if (!defines_.count(name)) {
    throw StudentError(cudaErrorInvalidDeviceFunction,
                       fmt::format("{}: your files do not define {}", call_text, name));
  }
  // The launcher sees fake addresses for the lab program's buffers.
  std::string fake_args = args.bytes;
  std::vector<std::uint64_t> regions;
  for (const std::size_t offset : args.pointer_offsets) {
    std::uintptr_t address = 0;
    std::memcpy(&address, args.bytes.data() + offset, sizeof address);
    if (address == 0) continue;
    const auto* buffer = find_buffer(address);
    if (!buffer) {
      throw std::logic_error(fmt::format("{}: an argument is not a harness buffer", call_text));
    }
    const std::uint64_t fake = protocol::fake_address(buffer->region, address - buffer->base);
    std::memcpy(fake_args.data() + offset, &fake, sizeof fake);
    regions.push_back(buffer->region);
  }
  const bool timed = timing_sessions > 0;
  const std::string key = name + '\0' + fake_args;
  nlohmann::json ops;
  if (timed && cached_.count(key)) {
    ops = cached_[key].ops;
  } else {
    ops = ask(name, fake_args, call_text);
    if (timed) cached_[key] = CachedCall{ops, regions, call_text};
  }
  for (const auto region : regions) copy_in(region, timed);
  replay(ops, call_text, timed);
  if (!timed) {
    for (const auto region : regions) copy_out(region);
    trace(call_text + " replayed");
  }
}

nlohmann::json Runtime::ask(const std::string& name, const std::string& fake_args,
                            const std::string& call_text) {
  auto answer = session_.ask({{"call", name},
                              {"args", nlohmann::json::binary_t(std::vector<std::uint8_t>(
                                           fake_args.begin(), fake_args.end()))}},
                             call_text, kCallDeadlineMs);
  if (!answer.contains("ops") || !answer.at("ops").is_array()) {
    throw StudentError(
        cudaErrorLaunchFailure,
        fmt::format("{}: your launcher failed: it sent a malformed answer", call_text));
  }
  nlohmann::json ops = std::move(pending_ops_);
  pending_ops_ = nlohmann::json::array();
  if (!ops.is_array()) ops = nlohmann::json::array();
  for (auto& op : answer.at("ops")) ops.push_back(std::move(op));
  if (ops.size() > protocol::kMaxOpsPerCall) {
    throw StudentError(cudaErrorLaunchFailure,
                       fmt::format("{}: your launcher asked for more than {} operations", call_text,
                                   protocol::kMaxOpsPerCall));
  }
  return ops;
}

CUdeviceptr Runtime::shadow(std::uint64_t region) {
  const auto it = shadows_.find(region);
  if (it != shadows_.end()) return it->second.address;
  const auto* buffer = buffer_in_region(region);
  if (!buffer) return 0;
  Shadow s;
  s.bytes = buffer->bytes;
  if (const auto spare = spare_shadows_.find(s.bytes); spare != spare_shadows_.end()) {
    s.address = spare->second;
    spare_bytes_ -= s.bytes;
    spare_shadows_.erase(spare);
  } else {
    ContextScope scope(context_);
    check_driver(DRIVER(cuMemAlloc)(&s.address, std::max<std::size_t>(s.bytes, 1)),
                 "allocating a buffer in the student's context");
  }
  shadows_[region] = s;
  note_device_buffer(buffer->name, s.address, s.bytes);
  return s.address;
}

void Runtime::copy_in(std::uint64_t region, bool timed) {
  const auto* buffer = buffer_in_region(region);
  if (!buffer) return;
  const CUdeviceptr target = shadow(region);
  auto& s = shadows_.at(region);
  if (timed && s.in_session) return;
  s.in_session = timed;
  CUcontext own = nullptr;
  DRIVER(cuCtxGetCurrent)(&own);
  check_driver(DRIVER(cuMemcpyPeer)(target, context_, buffer->base, own, buffer->bytes),
               "copying a buffer into the student's context");
}

void Runtime::copy_out(std::uint64_t region) {
  const auto* buffer = buffer_in_region(region);
  const auto it = shadows_.find(region);
  if (!buffer || it == shadows_.end()) return;
  CUcontext own = nullptr;
  DRIVER(cuCtxGetCurrent)(&own);
  check_driver(DRIVER(cuMemcpyPeer)(buffer->base, own, it->second.address, context_, buffer->bytes),
               "copying a buffer out of the student's context");
  check_driver(DRIVER(cuCtxSynchronize)(), "copying a buffer out of the student's context");
}

// The timed replays ran back to back on the same buffers. What the checks read afterwards is one
// more replay of each call on the buffers as they were before the session (an output poisoned by
// the check): a kernel that did a share of the work per replay, keeping count in a __device__
// variable, is wrong there.
void Runtime::end_timing_session() {
  auto calls = std::move(cached_);
  cached_.clear();
  for (auto& [region, s] : shadows_) s.in_session = false;
  for (const auto& [key, call] : calls) {
    try {
      for (const auto region : call.regions) copy_in(region, false);
      replay(call.ops, call.call_text, false);
      for (const auto region : call.regions) copy_out(region);
    } catch (const std::exception&) {
      // The lab's buffers keep what they held before the session (a poisoned output): the check
      // that reads them fails.
    }
  }
}

void Runtime::drop_shadow(std::uint64_t region) {
  const auto it = shadows_.find(region);
  if (it == shadows_.end()) return;
  const Shadow s = it->second;
  shadows_.erase(it);
  if (!context_) return;
  if (spare_bytes_ + s.bytes <= kMaxSpareShadowBytes) {
    spare_shadows_.emplace(s.bytes, s.address);
    spare_bytes_ += s.bytes;
    return;
  }
  DRIVER(cuCtxPushCurrent)(context_);
  DRIVER(cuMemFree)(s.address);
  DRIVER(cuCtxPopCurrent)(nullptr);
}

// A fake address of the launcher as a real one in the student's context, with the bytes left in
// its allocation from there; nothing when it is not a fake address at all.
std::optional<std::pair<CUdeviceptr, std::size_t>> Runtime::translate(std::uint64_t fake) {
  if (!protocol::is_fake(fake)) return std::nullopt;
  const std::uint64_t region = protocol::region_of(fake);
  const std::uint64_t offset = protocol::offset_of(fake);
  std::size_t bytes = 0;
  CUdeviceptr base = 0;
  if (region >= protocol::kFirstLauncherRegion) {
    const auto it = allocations_.find(region);
    if (it == allocations_.end()) return std::make_pair(CUdeviceptr{0}, std::size_t{0});
    base = it->second.address;
    bytes = it->second.bytes;
  } else {
    base = shadow(region);
    if (base == 0) return std::make_pair(CUdeviceptr{0}, std::size_t{0});
    bytes = shadows_.at(region).bytes;
  }
  return std::make_pair(base + offset, offset <= bytes ? bytes - offset : 0);
}

CUdeviceptr Runtime::device_address(std::uint64_t fake, std::size_t bytes, const char* what,
                                    const std::string& call_text) {
  const auto real = translate(fake);
  if (!real || real->first == 0) {
    throw StudentError(cudaErrorInvalidValue,
                       fmt::format("{}: {} uses an address that is not device memory of this call "
                                   "(freed, or never allocated)",
                                   call_text, what));
  }
  if (bytes > real->second) {
    throw StudentError(
        cudaErrorInvalidValue,
        fmt::format("{}: {} of {} bytes goes past the end of its buffer", call_text, what, bytes));
  }
  return real->first;
}

void Runtime::replay(const nlohmann::json& ops, const std::string& call_text, bool timed) {
  if (timed && active_span) cudaStreamSynchronize(nullptr);  // the L2 flush, in the lab's context
  ContextScope scope(context_);
  if (timed && active_span && !events_[0]) {
    check_driver(DRIVER(cuEventCreate)(&events_[0], CU_EVENT_DEFAULT), "cuEventCreate");
    check_driver(DRIVER(cuEventCreate)(&events_[1], CU_EVENT_DEFAULT), "cuEventCreate");
  }
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
  } else if (kind == "malloc") {
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
  } else if (kind == "free") {
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
  } else if (kind == "memset") {
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
  } else if (kind == "attribute") {
    const auto it = kernels_.find(op.at("kernel").get<std::string>());
    const int attribute = op.at("attribute").get<int>();
    if (it == kernels_.end() || (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES &&
                                 attribute != CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)) {
      throw StudentError(cudaErrorInvalidValue, call_text + ": a bad cudaFuncSetAttribute");
    }
    const CUresult set = DRIVER(cuFuncSetAttribute)(it->second.function,
                                                    static_cast<CUfunction_attribute>(attribute),
                                                    op.at("value").get<int>());
    if (set != CUDA_SUCCESS) {
      throw StudentError(cudaErrorInvalidValue,
                         fmt::format("{}: cudaFuncSetAttribute({}) failed: {}", call_text,
                                     demangle(it->second.name), driver_error(set)));
    }
  } else if (kind == "library") {
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
  (void)timed;
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
  if (!launch_observers().empty()) {
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
  // Outside timing, each launch is waited for, so a fault is charged to the launch that made it.
  if (!timed) {
    const CUresult finished = DRIVER(cuCtxSynchronize)();
    if (finished != CUDA_SUCCESS) fault(finished, call_text, last_launch);
  }
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

namespace harness {

void call_student(const std::string& name, const StudentArgs& args) {
  student::Runtime::get().call(name, args);
}

bool student_defines(const std::string& name) { return student::Runtime::get().defines(name); }

void fill_student_shared_memory(float value) {
  // Shared memory does not carry over between contexts, nor across the copies of a call: the
  // lab's fill kernel runs in the student's context, right before the student's kernel.
  student::Runtime::get().before_next_launch([value] { fill_shared_memory(value); });
}

std::string student_device_code_file() { return student::Runtime::get().device_code_file(); }

void prepare_student_launcher() { student::Runtime::get().prepare(); }

void prepare_student_context() { student::Runtime::get().prepare_context_now(); }

TimingSession::TimingSession() { ++student::timing_sessions; }

TimingSession::~TimingSession() {
  if (--student::timing_sessions == 0) student::Runtime::get().end_timing_session();
}

TimedSpan::TimedSpan() { student::active_span = this; }
TimedSpan::~TimedSpan() { student::active_span = nullptr; }

}  // namespace harness
