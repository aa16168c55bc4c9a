// The rest of the runtime API: the device (one, the CPU, with an H100's limits), streams and
// events (launches finish before they return, so an event is a time stamp), versions, settings
// and the launch recorder.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "emu/control.hpp"
#include "emu/runtime_api.hpp"
#include "state.hpp"

struct CUstream_st {};
struct CUevent_st {
  std::chrono::steady_clock::time_point time;
  bool recorded = false;
};

namespace emu {
namespace detail {
namespace {

std::mutex settings_mutex;
Settings current_settings;
std::atomic<std::size_t> dynamic_limit{kDefaultDynamicShared};

int default_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

std::uint64_t parse_number(const char* text, const char* variable) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (!end || *end != '\0' || end == text) {
    throw std::invalid_argument(std::string(variable) + " must be a number, not '" + text + "'");
  }
  return value;
}

}  // namespace

std::size_t dynamic_shared_limit() { return dynamic_limit.load(); }
void set_dynamic_shared_limit(std::size_t bytes) { dynamic_limit.store(bytes); }

Recorder& Recorder::get() {
  static Recorder recorder;
  return recorder;
}

void Recorder::start() {
  std::lock_guard lock(mutex_);
  active_ = true;
  recording_ = {};
}

Recording Recorder::stop() {
  std::lock_guard lock(mutex_);
  active_ = false;
  return std::exchange(recording_, {});
}

void Recorder::add_launch(LaunchRecord record) {
  std::lock_guard lock(mutex_);
  if (active_) recording_.launches.push_back(std::move(record));
}

void Recorder::add_copy(const void* destination, const void* source, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  if (!active_) return;
  ++recording_.memory_copies;
  recording_.copies.push_back({destination, source, bytes});
}

}  // namespace detail

Settings settings_from_environment(std::uint64_t fallback_seed) {
  Settings settings;
  settings.seed = fallback_seed;
  if (const char* text = std::getenv("LABS_EMU_SCHEDULE"); text && *text) {
    const std::string name = text;
    if (name == "forward") {
      settings.schedule = Schedule::forward;
    } else if (name == "reverse") {
      settings.schedule = Schedule::reverse;
    } else if (name == "random") {
      settings.schedule = Schedule::random;
    } else {
      throw std::invalid_argument("LABS_EMU_SCHEDULE must be forward, reverse or random, not '" +
                                  name + "'");
    }
  }
  if (const char* text = std::getenv("LABS_EMU_SEED"); text && *text) {
    settings.seed = detail::parse_number(text, "LABS_EMU_SEED");
    settings.seed_given = true;
  }
  if (const char* text = std::getenv("LABS_EMU_RACECHECK"); text && *text) {
    settings.race_check = detail::parse_number(text, "LABS_EMU_RACECHECK") != 0;
  }
  if (const char* text = std::getenv("LABS_EMU_EVIDENCE"); text && *text) {
    settings.evidence = detail::parse_number(text, "LABS_EMU_EVIDENCE") != 0;
  }
  if (const char* text = std::getenv("LABS_EMU_THREADS"); text && *text) {
    settings.threads = static_cast<int>(detail::parse_number(text, "LABS_EMU_THREADS"));
  }
  return settings;
}

void configure(const Settings& settings) {
  std::lock_guard lock(detail::settings_mutex);
  detail::current_settings = settings;
  detail::reset_launch_count();
  if (detail::current_settings.threads <= 0) {
    detail::current_settings.threads = detail::default_threads();
  }
}

const Settings& settings() {
  std::lock_guard lock(detail::settings_mutex);
  if (detail::current_settings.threads <= 0) {
    detail::current_settings.threads = detail::default_threads();
  }
  return detail::current_settings;
}

const char* schedule_name(Schedule schedule) {
  switch (schedule) {
    case Schedule::forward:
      return "forward";
    case Schedule::reverse:
      return "reverse";
    case Schedule::random:
      return "random";
  }
  return "unknown";
}

std::string describe() {
  const auto& s = settings();
  std::string text = "CPU emulation (" + std::to_string(s.threads) + " thread" +
                     (s.threads == 1 ? "" : "s") + ", " + schedule_name(s.schedule) + " schedule";
  if (s.schedule == Schedule::random) {
    text +=
        s.seed_given ? ", LABS_EMU_SEED=" + std::to_string(s.seed) : " seeded by the lab's seed";
  }
  return text + ")";
}

namespace {
std::mutex static_shared_fill_mutex;
std::optional<float> static_shared_fill_value;
}  // namespace

void fill_static_shared(std::optional<float> value) {
  std::lock_guard lock(static_shared_fill_mutex);
  static_shared_fill_value = value;
}

namespace detail {
std::optional<float> static_shared_fill() {
  std::lock_guard lock(static_shared_fill_mutex);
  return static_shared_fill_value;
}
}  // namespace detail

void start_recording() { detail::Recorder::get().start(); }
Recording stop_recording() { return detail::Recorder::get().stop(); }

}  // namespace emu

using emu::detail::Errors;

#define EMU_SURFACE() \
  if (const cudaError_t sticky = Errors::get().surface(); sticky != cudaSuccess) return sticky

cudaError_t cudaDeviceSynchronize() {
  EMU_SURFACE();
  return cudaSuccess;
}

cudaError_t cudaDeviceReset() {
  Errors::get().reset();
  return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return Errors::get().set(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* id, int length, int device) {
  EMU_SURFACE();
  if (!id || length <= 0 || device != 0) return Errors::get().set(cudaErrorInvalidValue);
  return Errors::get().set(cudaErrorNotSupported);
}

cudaError_t cudaGetDevice(int* device) {
  EMU_SURFACE();
  if (!device) return Errors::get().set(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  EMU_SURFACE();
  return device == 0 ? cudaSuccess : Errors::get().set(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device) {
  EMU_SURFACE();
  if (!properties) return Errors::get().set(cudaErrorInvalidValue);
  if (device != 0) return Errors::get().set(cudaErrorInvalidDevice);
  *properties = {};
  const auto name = emu::describe();
  std::strncpy(properties->name, name.c_str(), sizeof properties->name - 1);
  std::size_t free_bytes = 0;
  cudaMemGetInfo(&free_bytes, &properties->totalGlobalMem);
  properties->sharedMemPerBlock = emu::detail::kDefaultDynamicShared;
  properties->sharedMemPerBlockOptin = emu::detail::kMaxDynamicShared;
  properties->regsPerBlock = 65536;
  properties->warpSize = 32;
  properties->maxThreadsPerBlock = 1024;
  properties->maxThreadsDim[0] = 1024;
  properties->maxThreadsDim[1] = 1024;
  properties->maxThreadsDim[2] = 64;
  properties->maxGridSize[0] = 2147483647;
  properties->maxGridSize[1] = 65535;
  properties->maxGridSize[2] = 65535;
  properties->clockRate = 1000000;
  // The limits above are an H100's, so report its compute capability.
  properties->major = 9;
  properties->minor = 0;
  properties->multiProcessorCount = emu::settings().threads;
  properties->l2CacheSize = 1 << 20;
  properties->maxThreadsPerMultiProcessor = 2048;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
  cudaDeviceProp p;
  if (const cudaError_t error = cudaGetDeviceProperties(&p, device); error != cudaSuccess) {
    return error;
  }
  if (!value) return Errors::get().set(cudaErrorInvalidValue);
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock:
      *value = p.maxThreadsPerBlock;
      break;
    case cudaDevAttrMaxBlockDimX:
      *value = p.maxThreadsDim[0];
      break;
    case cudaDevAttrMaxBlockDimY:
      *value = p.maxThreadsDim[1];
      break;
    case cudaDevAttrMaxBlockDimZ:
      *value = p.maxThreadsDim[2];
      break;
    case cudaDevAttrMaxGridDimX:
      *value = p.maxGridSize[0];
      break;
    case cudaDevAttrMaxGridDimY:
      *value = p.maxGridSize[1];
      break;
    case cudaDevAttrMaxGridDimZ:
      *value = p.maxGridSize[2];
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      *value = static_cast<int>(p.sharedMemPerBlock);
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *value = static_cast<int>(p.sharedMemPerBlockOptin);
      break;
    case cudaDevAttrWarpSize:
      *value = p.warpSize;
      break;
    case cudaDevAttrClockRate:
      *value = p.clockRate;
      break;
    case cudaDevAttrMultiProcessorCount:
      *value = p.multiProcessorCount;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      *value = p.major;
      break;
    case cudaDevAttrComputeCapabilityMinor:
      *value = p.minor;
      break;
    case cudaDevAttrL2CacheSize:
      *value = p.l2CacheSize;
      break;
    default:
      return Errors::get().set(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return Errors::get().set(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return Errors::get().set(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  EMU_SURFACE();
  if (!stream) return Errors::get().set(cudaErrorInvalidValue);
  *stream = new CUstream_st;
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) {
  EMU_SURFACE();
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  EMU_SURFACE();
  if (!event) return Errors::get().set(cudaErrorInvalidValue);
  *event = new CUevent_st;
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  return cudaEventCreate(event);
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  EMU_SURFACE();
  if (!event) return Errors::get().set(cudaErrorInvalidResourceHandle);
  event->time = std::chrono::steady_clock::now();
  event->recorded = true;
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  EMU_SURFACE();
  return event ? cudaSuccess : Errors::get().set(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  EMU_SURFACE();
  return event ? cudaSuccess : Errors::get().set(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  EMU_SURFACE();
  if (!milliseconds || !start || !end) return Errors::get().set(cudaErrorInvalidValue);
  if (!start->recorded || !end->recorded) return Errors::get().set(cudaErrorInvalidResourceHandle);
  const std::chrono::duration<float, std::milli> elapsed = end->time - start->time;
  *milliseconds = elapsed.count();
  return cudaSuccess;
}

cudaError_t emu_func_set_attribute(cudaFuncAttribute attribute, int value) {
  EMU_SURFACE();
  if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || static_cast<std::size_t>(value) > emu::detail::kMaxDynamicShared) {
      return Errors::get().set(cudaErrorInvalidValue);
    }
    emu::detail::set_dynamic_shared_limit(
        std::max<std::size_t>(emu::detail::dynamic_shared_limit(), value));
  }
  return cudaSuccess;
}
