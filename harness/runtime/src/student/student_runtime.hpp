// The student's context and the replay of what the launcher asked for: student_runtime.cpp (the
// launcher, the context and the calls), student_shadows.cpp (the lab's buffers there),
// student_replay.cpp (the requests replayed).
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/launch_recorder.hpp"
#include "harness/student_call.hpp"
#include "launch_observers.hpp"
#include "launcher_session.hpp"

namespace harness::student {

class Runtime {
 public:
  static Runtime& get();

  // Starts the launcher and makes the student's context in the background, while the lab
  // program starts CUDA itself; the first call then finds both ready.
  void prepare();
  // Makes the student's context only, and waits for it: no code of the student's starts.
  void prepare_context_now();

  void call(const std::string& name, const StudentArgs& args);
  bool defines(const std::string& name);
  std::string device_code_file();
  void end_timing_session();
  void before_next_launch(const std::function<void()>& work);

 private:
  struct Kernel {
    int module = 0;
    std::string name;
    CUfunction function = nullptr;
    std::vector<std::size_t> offsets, sizes;
    std::size_t param_bytes = 0;
  };
  struct Variable {
    int module = 0;
    std::string name;
    CUdeviceptr address = 0;
    std::size_t bytes = 0;
  };
  struct Shadow {
    CUdeviceptr address = 0;
    std::size_t bytes = 0;
  };

  Runtime();
  ~Runtime();
  void start();
  void prepare_context();
  void read_hello(const nlohmann::json& hello);
  void build_context();
  CUcontext take_prepared_context(CUdevice device);
  void destroy_context();
  nlohmann::json hello_reply();
  nlohmann::json ask(const std::string& name, const std::string& fake_args,
                     const std::string& call_text);
  CUdeviceptr shadow(std::uint64_t region);
  void copy_in(std::uint64_t region);
  void copy_out(std::uint64_t region);
  void drop_shadow(std::uint64_t region);
  std::optional<std::pair<CUdeviceptr, std::size_t>> translate(std::uint64_t fake);
  CUdeviceptr device_address(std::uint64_t fake, std::size_t bytes, const char* what,
                             const std::string& call_text);
  void replay(const nlohmann::json& ops, const std::string& call_text, bool timed);
  void flush_l2();
  void replay_one(const nlohmann::json& op, const std::string& call_text, bool timed,
                  std::string& last_launch);
  void replay_allocation(const std::string& kind, const nlohmann::json& op,
                         const std::string& call_text);
  void replay_transfer(const std::string& kind, const nlohmann::json& op,
                       const std::string& call_text);
  void replay_attribute(const nlohmann::json& op, const std::string& call_text);
  [[noreturn]] void refuse_request(const std::string& kind, const nlohmann::json& op,
                                   const std::string& call_text);
  void launch(const nlohmann::json& op, const std::string& call_text, bool timed,
              std::string& last_launch);
  void check_launch_shape(const Kernel& kernel, const std::array<unsigned, 3>& grid,
                          const std::array<unsigned, 3>& block, unsigned shared,
                          const std::string& call_text, const std::string& name);
  // The fake addresses in a launch's parameters (every 8-byte word) made real.
  void translate_parameters(std::vector<std::uint8_t>& params, const std::string& call_text,
                            const std::string& name);
  // The launch observers (launch_observers.hpp) told of a launch and the kernel's attributes.
  static void tell_observers(const Kernel& kernel, const std::string& name,
                             const std::array<unsigned, 3>& grid,
                             const std::array<unsigned, 3>& block, unsigned shared);
  void note_copy(std::uint64_t to, std::uint64_t from);
  [[noreturn]] void fault(CUresult result, const std::string& call_text, const std::string& launch);

  bool started_ = false;
  std::string start_error_;
  LauncherSession session_;
  std::vector<std::string> fatbins_;
  std::map<std::string, Kernel> kernels_;  // "module:mangled name"
  std::map<std::string, Variable> variables_;
  std::set<std::string> defines_;
  nlohmann::json pending_ops_ = nlohmann::json::array();
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  std::vector<CUmodule> modules_;
  std::future<CUcontext> prepared_context_;
  std::map<std::uint64_t, Shadow> shadows_;  // the lab's buffers, by region
  // Shadows of freed buffers, kept for the next buffer of the same size: checks make and free
  // buffers of a few sizes over and over, and cuMemAlloc/cuMemFree cost more than a copy.
  std::multimap<std::size_t, CUdeviceptr> spare_shadows_;
  std::size_t spare_bytes_ = 0;
  std::map<std::uint64_t, Shadow> allocations_;  // the launcher's cudaMalloc, by region
  struct CachedCall {
    nlohmann::json ops;
    std::vector<std::uint64_t> regions;
    std::string call_text;
  };
  std::map<std::string, CachedCall> cached_;  // in a timing session: call -> what it asked
  std::array<CUevent, 2> events_{};
  Shadow l2_scratch_;  // written before each timed replay: its inputs come from DRAM, as the lab's
  unsigned char l2_round_ = 0;
  std::string device_code_file_;
  std::function<void()> before_launch_;
};

// The TimedSpan that times the replays now, if any, and how many TimingSessions live
// (harness/student_call.hpp).
extern TimedSpan* active_span;
extern int timing_sessions;

}  // namespace harness::student
