// The trusted side of a contract call under the CPU emulation (harness/student_call.hpp). The
// student's kernels are host code, so they run in the launcher process, never in this one. For
// each call the argument buffers (guards included) are copied into a shared arena that both
// processes map at the same address, each between gaps the launcher cannot touch; the launcher
// runs the call there, and the buffers are copied back, so the checks read their own buffers as
// on a GPU. The launches the launcher reports are its own word: the structure checks say so.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "buffer_registry.hpp"
#include "common/utf8.hpp"
#include "emu/control.hpp"
#include "harness/launch_limits.hpp"
#include "harness/sanitizer.hpp"
#include "harness/student_call.hpp"
#include "harness/trace.hpp"
#include "launch_observers.hpp"
#include "launcher/protocol.hpp"
#include "launcher_session.hpp"

namespace harness::student {
namespace {

namespace protocol = launcher_protocol;

// The emulated kernels of one call may run for minutes on a slow machine; the check's own time
// limit (ctest's, or the batch grader's) stops a launcher that never answers.
constexpr int kNoDeadline = -1;

// The schedule's seed follows the lab's (one replay command replays both), but the launcher is
// not told the lab's seed itself, from which the inputs of later calls derive.
std::uint64_t schedule_seed(std::uint64_t lab_seed) {
  std::uint64_t x = lab_seed ^ 0x5ced'0e1a'7e5c'4ed1ULL;
  for (int round = 0; round < 4; ++round) {  // splitmix64's finalizer, truncated between rounds
    x += 0x9e37'79b9'7f4a'7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58'476d'1ce4'e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d0'49bb'1331'11ebULL;
    x ^= x >> 31;
    x = (x << 21) ^ (x >> 7) ^ lab_seed;
  }
  return x;
}

struct Slot {
  const RegisteredBuffer* buffer = nullptr;
  std::uint64_t offset = 0;
};

class EmulatedRuntime {
 public:
  static EmulatedRuntime& get() {
    static EmulatedRuntime instance;
    return instance;
  }

  void prepare() {
    if (started_ || session_.spawned()) return;
    if (!open_arena()) return;
    session_.spawn(student_launcher(), arena_fd_);
    trace("the launcher is starting");
  }

  bool defines(const std::string& name) {
    start();
    return defines_.count(name) > 0;
  }

  void fill_shared_before_next_launch(float value) { shared_fill_ = value; }

  void call(const std::string& name, const StudentArgs& args) {
    start();
    const std::string call_text = describe_call(name, args);
    if (!defines_.count(name)) {
      throw StudentError(cudaErrorInvalidDeviceFunction,
                         fmt::format("{}: your files do not define {}", call_text, name));
    }
    std::vector<Slot> slots;
    std::string arena_args = args.bytes;
    for (const std::size_t at : args.pointer_offsets) {
      std::uintptr_t address = 0;
      std::memcpy(&address, args.bytes.data() + at, sizeof address);
      if (address == 0) continue;
      const auto* buffer = find_buffer(address);
      if (!buffer) {
        throw std::logic_error(fmt::format("{}: an argument is not a harness buffer", call_text));
      }
      const std::uint64_t offset = slot_of(buffer, slots, call_text);
      const std::uint64_t moved = protocol::kArenaAddress + offset + (address - buffer->base);
      std::memcpy(arena_args.data() + at, &moved, sizeof moved);
    }
    nlohmann::json layout = nlohmann::json::array();
    for (const auto& slot : slots) {
      std::memcpy(arena_ + slot.offset, reinterpret_cast<const void*>(slot.buffer->base),
                  slot.buffer->bytes);
      layout.push_back({slot.offset, slot.buffer->bytes, slot.buffer->name,
                        slot.buffer->payload_offset, slot.buffer->payload_bytes,
                        slot.buffer->element});
    }
    nlohmann::json request = {{"call", name},
                              {"args", nlohmann::json::binary_t(std::vector<std::uint8_t>(
                                           arena_args.begin(), arena_args.end()))},
                              {"slots", layout}};
    if (shared_fill_) request["shared_fill"] = *std::exchange(shared_fill_, std::nullopt);
    const auto answer = session_.ask(request, call_text, kNoDeadline);
    // Everything goes back, inputs too: a kernel that writes its inputs is caught by the checks.
    for (const auto& slot : slots) {
      std::memcpy(reinterpret_cast<void*>(slot.buffer->base), arena_ + slot.offset,
                  slot.buffer->bytes);
    }
    trace(call_text + " ran");
    report_launches(answer, call_text);
    note_reported_memory_error(answer, call_text);
    note_reported_evidence(answer);
    refuse_first_refused_launch(answer, call_text);
    if (answer.contains("failure")) {
      const auto& failure = answer.at("failure");
      throw StudentError(static_cast<cudaError_t>(failure.value("code", 719)),
                         fmt::format("{}: {}: {}", call_text, failure.value("name", "a failure"),
                                     failure.value("text", "")));
    }
  }

 private:
  // The arena's memory file: the batch grader's sandbox hands one over (LABS_SHARED_MEMORY_FD),
  // since its file size limit would stop this program from sizing one; otherwise a new one.
  bool open_arena() {
    if (arena_) return true;
    if (const char* given = std::getenv("LABS_SHARED_MEMORY_FD"); given && *given) {
      arena_fd_ = ::fcntl(std::atoi(given), F_DUPFD_CLOEXEC, 10);
    } else {
      arena_fd_ = ::memfd_create("labs-arena", MFD_CLOEXEC);
      if (arena_fd_ >= 0 && ::ftruncate(arena_fd_, protocol::kArenaBytes) != 0) {
        ::close(arena_fd_);
        arena_fd_ = -1;
      }
    }
    struct stat info {};
    if (arena_fd_ < 0 || ::fstat(arena_fd_, &info) != 0) return false;
    arena_bytes_ =
        std::min<std::uint64_t>(static_cast<std::uint64_t>(info.st_size), protocol::kArenaBytes);
    void* mapped = ::mmap(reinterpret_cast<void*>(protocol::kArenaAddress), protocol::kArenaBytes,
                          PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, arena_fd_, 0);
    if (mapped != reinterpret_cast<void*>(protocol::kArenaAddress)) return false;
    arena_ = static_cast<char*>(mapped);
    return true;
  }

  void start() {
    if (started_) {
      if (!start_error_.empty()) throw StudentError(cudaErrorLaunchFailure, start_error_);
      return;
    }
    started_ = true;
    try {
      if (!open_arena())
        throw std::runtime_error("cannot make the arena for your kernels' buffers");
      if (!session_.spawned()) session_.spawn(student_launcher(), arena_fd_);
      const auto hello = session_.hello();
      for (const auto& name : hello.at("defines")) defines_.insert(name.get<std::string>());
      const auto& settings = emu::settings();
      session_.reply(
          {{"emulation",
            {{"schedule", static_cast<int>(settings.schedule)},
             {"seed", settings.seed_given ? settings.seed : schedule_seed(settings.seed)},
             {"threads", settings.threads},
             {"seed_given", settings.seed_given},
             {"race_check", settings.race_check},
             {"evidence", settings.evidence}}}});
      trace("the launcher said hello");
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

  // Where `buffer` lies in the arena for this call: after the slots so far and a gap, on a page.
  std::uint64_t slot_of(const RegisteredBuffer* buffer, std::vector<Slot>& slots,
                        const std::string& call_text) {
    std::uint64_t end = 0;
    for (const auto& slot : slots) {
      if (slot.buffer == buffer) return slot.offset;
      end = slot.offset + slot.buffer->bytes;
    }
    const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t offset = (end + protocol::kArenaGap + page - 1) / page * page;
    if (offset + buffer->bytes + protocol::kArenaGap > arena_bytes_) {
      throw StudentError(
          cudaErrorMemoryAllocation,
          fmt::format("{}: the buffers are too large for the CPU emulation", call_text));
    }
    slots.push_back({buffer, offset});
    return offset;
  }

  static void report_launches(const nlohmann::json& answer, const std::string& call_text) {
    if (launch_observers().empty()) return;
    try {
      for (const auto& reported : answer.value("launches", nlohmann::json::array())) {
        if (reported.contains("refused")) continue;  // it did not run: refused below
        KernelLaunch launch;
        launch.name = reported.at("name").get<std::string>();
        for (int i = 0; i < 3; ++i) {
          launch.grid[i] = reported.at("grid").at(i).get<unsigned>();
          launch.block[i] = reported.at("block").at(i).get<unsigned>();
        }
        launch.static_shared_bytes = reported.at("static_shared").get<long long>();
        launch.dynamic_shared_bytes = reported.at("dynamic_shared").get<long long>();
        for (auto* observer : launch_observers()) observer->kernels.push_back(launch);
      }
      const int copies = answer.value("memory_copies", 0);
      for (auto* observer : launch_observers()) observer->memory_copies += copies;
    } catch (const nlohmann::json::exception&) {
      throw StudentError(cudaErrorLaunchFailure,
                         call_text + ": your launcher reported its launches in a malformed way");
    }
  }

  // The emulator's bounds checks (emu/access.hpp) found an access outside the memory a kernel was
  // given, or its race check a race on shared memory: the running check fails with it, as the
  // sanitizer pass fails it on a GPU. The launcher's word, like its failures': it can only take
  // points away.
  static void note_reported_memory_error(const nlohmann::json& answer,
                                         const std::string& call_text) {
    if (const auto words = reported_words(answer, "memory_error", "a memory error", call_text)) {
      note_memory_error(*words);
    }
    if (const auto words = reported_words(answer, "shared_race", "a race", call_text)) {
      note_shared_memory_race(*words);
    }
  }

  // The emulator's evidence facts (emulation/src/evidence.hpp). Feedback only, so one that is
  // malformed or of an unknown kind is left out rather than failing the call; texts are cut short.
  static void note_reported_evidence(const nlohmann::json& answer) {
    const auto it = answer.find("evidence");
    if (it == answer.end() || !it->is_array()) return;
    // Cut between characters and made valid UTF-8: a record holds only valid text.
    const auto text = [](const nlohmann::json& item, const char* key, std::size_t most) {
      const std::string words = common::utf8::make_valid(item.at(key).get<std::string>());
      if (words.size() <= most) return words;
      return words.substr(0, common::utf8::boundary_at_most(words, most)) + "...";
    };
    // A figure is a count or a ratio of a warp's accesses: finite, not negative, bounded.
    const auto figure = [](const nlohmann::json& item, const char* key) {
      const double value = item.value(key, 0.0);
      return std::isfinite(value) ? std::clamp(value, 0.0, 1e9) : 0.0;
    };
    for (std::size_t i = 0; i < it->size() && i < 4 * kMaxEvidence; ++i) {
      const auto& item = (*it)[i];
      try {
        contract::Evidence fact;
        fact.kind = item.at("kind").get<std::string>();
        if (!contract::is_evidence_kind(fact.kind)) continue;
        fact.file = text(item, "file", 100);
        const auto& line = item.at("line");
        if (!line.is_number_integer() || line.get<long long>() < 0 ||
            line.get<long long>() > 10'000'000) {
          continue;
        }
        fact.line = static_cast<int>(line.get<long long>());
        fact.kernel = text(item, "kernel", 200);
        fact.words = text(item, "words", 600);
        fact.figure = figure(item, "figure");
        fact.ideal = figure(item, "ideal");
        note_evidence(std::move(fact));
      } catch (const nlohmann::json::exception&) {
        continue;  // not a fact: nothing to show
      }
    }
  }

  static std::optional<std::string> reported_words(const nlohmann::json& answer, const char* key,
                                                   const char* what, const std::string& call_text) {
    const auto it = answer.find(key);
    if (it == answer.end()) return std::nullopt;
    if (!it->is_string()) {
      throw StudentError(cudaErrorLaunchFailure,
                         call_text + ": your launcher reported " + what + " in a malformed way");
    }
    constexpr std::size_t kMaxWords = 600;
    std::string words = it->get<std::string>();
    if (words.size() > kMaxWords) words = words.substr(0, kMaxWords) + "...";
    return words;
  }

  // A launch the emulator refused fails the call as the GPU's replay fails it
  // (student_runtime.cpp): the same error, the same words, the same diagnosis. The shape is
  // judged here, against CUDA's limits, not taken from the launcher's word.
  static void refuse_first_refused_launch(const nlohmann::json& answer,
                                          const std::string& call_text) {
    for (const auto& reported : answer.value("launches", nlohmann::json::array())) {
      if (!reported.contains("refused")) continue;
      LaunchShape shape;
      std::string name;
      long long dynamic_shared = 0;
      try {
        name = reported.at("name").get<std::string>();
        for (int i = 0; i < 3; ++i) {
          shape.grid[i] = reported.at("grid").at(i).get<unsigned>();
          shape.block[i] = reported.at("block").at(i).get<unsigned>();
        }
        dynamic_shared = reported.at("dynamic_shared").get<long long>();
      } catch (const nlohmann::json::exception&) {
        throw StudentError(cudaErrorLaunchFailure,
                           call_text + ": your launcher reported its launches in a malformed way");
      }
      std::string why;
      std::optional<Diagnosis> diagnosis;
      const bool empty =
          std::find(std::begin(shape.grid), std::end(shape.grid), 0u) != std::end(shape.grid) ||
          std::find(std::begin(shape.block), std::end(shape.block), 0u) != std::end(shape.block);
      if (empty) {
        why = kEmptyLaunchWords;
      } else if (const auto over = launch_over_limits(shape)) {
        why = *over;
        diagnosis = diagnose_launch_over_limits(*over);
      } else if (dynamic_shared > 0) {
        why = fmt::format(
            "{} bytes of dynamic shared memory, more than the kernel may use (more needs "
            "cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize))",
            dynamic_shared);
      } else {
        why = cudaGetErrorName(static_cast<cudaError_t>(reported.value("refused", 1)));
      }
      throw StudentError(
          cudaErrorInvalidConfiguration,
          fmt::format(
              "{}: the launch failed: {} (kernel {}, grid ({}, {}, {}), block ({}, {}, {}))",
              call_text, why, name, shape.grid[0], shape.grid[1], shape.grid[2], shape.block[0],
              shape.block[1], shape.block[2]),
          std::move(diagnosis));
    }
  }

  bool started_ = false;
  std::string start_error_;
  LauncherSession session_;
  std::set<std::string> defines_;
  int arena_fd_ = -1;
  char* arena_ = nullptr;
  std::uint64_t arena_bytes_ = 0;
  std::optional<float> shared_fill_;
};

}  // namespace
}  // namespace harness::student

namespace harness {

void call_student(const std::string& name, const StudentArgs& args) {
  student::EmulatedRuntime::get().call(name, args);
}

bool student_defines(const std::string& name) {
  return student::EmulatedRuntime::get().defines(name);
}

void fill_student_shared_memory(float value) {
  student::EmulatedRuntime::get().fill_shared_before_next_launch(value);
}

std::string student_device_code_file() { return ""; }

void prepare_student_launcher() { student::EmulatedRuntime::get().prepare(); }

// The emulation has no context to make: its kernels run in the launcher.
void prepare_student_context() {}

}  // namespace harness
