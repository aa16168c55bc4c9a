// What the stand-in CUDA runtime has seen: the device code registered by the student's objects,
// and the operations asked of the "GPU" since the last call was answered.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace launcher {

struct DeviceName {
  int module = 0;
  std::string name;
  std::string key() const { return std::to_string(module) + ":" + name; }
};

struct Variable {
  DeviceName device;
  std::size_t size = 0;
};

struct Recording {
  std::vector<std::string> fatbins;
  std::map<const void*, DeviceName> kernels;          // host stub -> device function
  std::map<const void*, Variable> variables;          // host shadow -> __device__/__constant__
  nlohmann::json layouts = nlohmann::json::object();  // from the lab program's hello
  nlohmann::json device = nlohmann::json::object();
  bool connected = false;
  nlohmann::json ops = nlohmann::json::array();
  std::uint64_t next_region = 0;
  int last_error = 0;  // cudaError_t
};

Recording& recording();

// Adds an operation; a refusal also sets the error the next cudaGetLastError returns.
void record(nlohmann::json op);
void refuse(const std::string& what, const std::string& why);

}  // namespace launcher
