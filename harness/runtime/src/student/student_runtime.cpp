// The trusted side of a contract call (harness/student_call.hpp). The student's device code is
// loaded into a CUDA context of its own; the lab program's buffers stay in the lab program's
// context. A call copies the argument buffers (guards included) into shadows in the student's
// context, replays what the launcher asked for there, and copies the shadows back, so the checks
// read results that only the GPU wrote, through their own buffers.
#include "student_runtime.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <system_error>

#include <fmt/format.h>

#include "buffer_registry.hpp"
#include "driver.hpp"
#include "harness/sass.hpp"
#include "harness/shared_memory_fill.hpp"
#include "harness/trace.hpp"
#include "launcher/protocol.hpp"

namespace harness::student {
namespace protocol = launcher_protocol;

TimedSpan* active_span = nullptr;
int timing_sessions = 0;

namespace {

constexpr int kCallDeadlineMs = 20000;

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
  if (!session_.spawned()) session_.spawn(student_launcher());
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
    if (!session_.spawned()) session_.spawn(student_launcher());
    const auto hello = session_.hello();
    trace("the launcher said hello");
    read_hello(hello);
    build_context();
    session_.reply(hello_reply());
    trace("the student's kernels are loaded");
  } catch (const nlohmann::json::exception& error) {
    start_error_ = std::string("your launcher sent a malformed hello: ") + error.what();
  } catch (const std::system_error& error) {
    start_error_ = error.what();
    // A fork refused (EAGAIN): the check decides whose limit it was (harness/host_refusal.hpp).
    if (error.code() == std::errc::resource_unavailable_try_again) throw;
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
  l2_scratch_ = {};  // freed with the context
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
  // A timed call too is copied in and out: between timed calls the trusted side draws new
  // inputs and poisons the output in its own buffers, and verifies what each call left.
  for (const auto region : regions) copy_in(region);
  replay(ops, call_text, timed);
  for (const auto region : regions) copy_out(region);
  if (!timed) trace(call_text + " replayed");
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
