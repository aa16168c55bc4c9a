#include <deque>
#include <map>

#include <utility>

#include "emu/runtime_api.hpp"
#include "state.hpp"

namespace emu::detail {
namespace {

thread_local cudaError_t last_error = cudaSuccess;

struct ErrorText {
  cudaError_t error;
  const char* name;
  const char* text;  // as the CUDA runtime words it
};

constexpr ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction",
     "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace",
     "operation not supported on global/shared address space"},
    {cudaErrorInvalidPc, "cudaErrorInvalidPc", "invalid program counter"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find(cudaError_t error) {
  for (const auto& entry : kErrors) {
    if (entry.error == error) return &entry;
  }
  return nullptr;
}

// Texts handed out by cudaGetErrorString stay valid for the whole process.
std::mutex text_mutex;
std::map<int, const char*> detailed_text;
std::deque<std::string> text_storage;

}  // namespace

const char* error_name(cudaError_t error) {
  const auto* entry = find(error);
  return entry ? entry->name : "cudaErrorUnknown";
}

const char* error_text(cudaError_t error) {
  const auto* entry = find(error);
  return entry ? entry->text : "unrecognized error code";
}

Errors& Errors::get() {
  static Errors errors;
  return errors;
}

cudaError_t Errors::set(cudaError_t error) {
  if (error != cudaSuccess) last_error = error;
  return error;
}

void Errors::fault(cudaError_t error) {
  std::lock_guard lock(mutex_);
  if (pending_ == cudaSuccess && sticky_ == cudaSuccess) pending_ = error;
}

void Errors::explain(cudaError_t error, const std::string& detail) {
  std::lock_guard lock(text_mutex);
  text_storage.push_back(std::string(error_text(error)) + "; emulation: " + detail);
  detailed_text[error] = text_storage.back().c_str();
}

cudaError_t Errors::surface() {
  std::lock_guard lock(mutex_);
  if (pending_ != cudaSuccess) {
    sticky_ = pending_;
    pending_ = cudaSuccess;
  }
  if (sticky_ != cudaSuccess) last_error = sticky_;
  return sticky_;
}

cudaError_t Errors::sticky() const {
  std::lock_guard lock(mutex_);
  return sticky_;
}

cudaError_t Errors::take_last() {
  if (const cudaError_t error = sticky(); error != cudaSuccess) return error;
  return std::exchange(last_error, cudaSuccess);
}

cudaError_t Errors::peek_last() {
  if (const cudaError_t error = sticky(); error != cudaSuccess) return error;
  return last_error;
}

void Errors::reset() {
  std::lock_guard lock(mutex_);
  pending_ = cudaSuccess;
  sticky_ = cudaSuccess;
  last_error = cudaSuccess;
}

const char* Errors::describe(cudaError_t error) {
  std::lock_guard lock(text_mutex);
  if (const auto it = detailed_text.find(error); it != detailed_text.end()) return it->second;
  return error_text(error);
}

}  // namespace emu::detail

const char* cudaGetErrorName(cudaError_t error) { return emu::detail::error_name(error); }
const char* cudaGetErrorString(cudaError_t error) {
  return emu::detail::Errors::get().describe(error);
}
cudaError_t cudaGetLastError() { return emu::detail::Errors::get().take_last(); }
cudaError_t cudaPeekAtLastError() { return emu::detail::Errors::get().peek_last(); }
