// main() of a student's launcher under the CPU emulation. The student's kernels are host code
// here, so they run in this (untrusted) process, over copies of the call's buffers that the lab
// program puts in the shared arena before each call and takes back after it (protocol.hpp). The
// lab program judges only what the buffers hold afterwards; what this process says of its
// launches (their shapes) is its own word, and the records say so.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "emu/control.hpp"
#include "launcher/entries.hpp"
#include "launcher/protocol.hpp"
#include "launcher/wire.hpp"

namespace {

namespace protocol = launcher_protocol;

char* arena = nullptr;

// The same as the lab program's fill on a GPU (harness/runtime/src/shared_memory_fill.cu): shared
// memory that the next kernel reads before writing holds `value`. A deliberate copy: the launcher
// is the untrusted side and links nothing of the harness (docs/architecture.md).
__global__ void fill_shared_kernel(float value, int words) {
  extern __shared__ float shared[];
  volatile float* cells = shared;
  for (int i = threadIdx.x; i < words; i += blockDim.x) cells[i] = value;
}

void fill_shared_memory(float value) {
  int bytes = 0;
  int sms = 0;
  cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaFuncSetAttribute(fill_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  fill_shared_kernel<<<2 * sms, 1024, static_cast<size_t>(bytes)>>>(
      value, bytes / static_cast<int>(sizeof(float)));
  cudaDeviceSynchronize();
}

const launcher::Entry* find_entry(const std::string& name) {
  for (std::size_t i = 0; i < launcher::kEntryCount; ++i) {
    if (name == launcher::kEntries[i].name && launcher::kEntries[i].function) {
      return &launcher::kEntries[i];
    }
  }
  return nullptr;
}

bool in_arena(const void* address) {
  const auto* p = static_cast<const char*>(address);
  return p >= arena && p < arena + protocol::kArenaBytes;
}

// Opens the call's slots of the arena (and nothing else of it) to this process's code.
struct OpenSlots {
  std::vector<std::pair<char*, std::size_t>> slots;

  explicit OpenSlots(const nlohmann::json& layout) {
    const long page = ::sysconf(_SC_PAGESIZE);
    for (const auto& slot : layout) {
      const auto offset = slot.at(0).get<std::uint64_t>();
      const auto bytes = slot.at(1).get<std::uint64_t>();
      if (offset % page != 0 || offset + bytes > protocol::kArenaBytes) continue;
      char* start = arena + offset;
      const std::size_t open = (bytes + page - 1) / page * page;
      ::mprotect(start, open, PROT_READ | PROT_WRITE);
      emu::adopt_device_memory(start, bytes);
      // [offset, bytes, name, payload offset, payload bytes, element]: the buffer kernels may
      // use, and what it holds.
      if (slot.size() >= 5) {
        emu::check_device_memory(
            start, slot.at(3).get<std::uint64_t>(), slot.at(4).get<std::uint64_t>(),
            slot.at(2).get<std::string>(),
            slot.size() >= 6 ? slot.at(5).get<std::string>() : std::string("float"));
      }
      slots.emplace_back(start, open);
    }
  }
  ~OpenSlots() {
    for (const auto& [start, open] : slots) {
      emu::forget_device_memory(start);
      ::mprotect(start, open, PROT_NONE);
    }
  }
};

// The call's launches and its copies of the lab's buffers, as the answer reports them.
template <class Recording>
nlohmann::json reported_launches(const Recording& recording) {
  nlohmann::json launches = nlohmann::json::array();
  for (const auto& launch : recording.launches) {
    nlohmann::json reported = {{"name", launch.name},
                               {"grid", {launch.grid.x, launch.grid.y, launch.grid.z}},
                               {"block", {launch.block.x, launch.block.y, launch.block.z}},
                               {"static_shared", launch.static_shared_bytes},
                               {"dynamic_shared", launch.dynamic_shared_bytes}};
    // A launch the emulator refused did not run: the lab program says why, as on a GPU.
    if (launch.refused != cudaSuccess) reported["refused"] = static_cast<int>(launch.refused);
    launches.push_back(std::move(reported));
  }
  // Copies of the lab's buffers count for the structure checks; small data the launcher made
  // itself (a shape struct) does not.
  int lab_copies = 0;
  for (const auto& copy : recording.copies) {
    if (in_arena(copy.destination) || in_arena(copy.source)) ++lab_copies;
  }
  return {{"launches", launches}, {"memory_copies", lab_copies}};
}

nlohmann::json run_call(const launcher::Entry& entry, const nlohmann::json& request) {
  const auto& args = request.at("args").get_binary();
  const OpenSlots open(request.value("slots", nlohmann::json::array()));
  if (request.contains("shared_fill")) {
    const float fill = request.at("shared_fill").get<float>();
    fill_shared_memory(fill);
    emu::fill_static_shared(fill);
  }
  emu::take_memory_error();  // the shared-memory fill's, or an earlier call's: not this call's
  emu::take_shared_race();
  emu::take_evidence();
  emu::start_recording();
  std::fflush(stdout);
  const bool fits = entry.call(entry.function, std::string(args.begin(), args.end()));
  // A fault in a kernel is sticky until the next synchronizing call, as on a GPU.
  const cudaError_t failure = cudaDeviceSynchronize();
  emu::fill_static_shared(std::nullopt);
  const auto recording = emu::stop_recording();
  std::fflush(stdout);
  std::fflush(stderr);
  if (!fits) return {{"error", "the arguments do not fit the function's signature"}};
  nlohmann::json answer = reported_launches(recording);
  // The first access outside the memory a kernel was given (emu/access.hpp).
  if (const auto memory_error = emu::take_memory_error()) {
    answer["memory_error"] = emu::describe(*memory_error);
  }
  // The first race on shared memory (emulation/src/shared_race_check.hpp).
  if (const auto race = emu::take_shared_race()) answer["shared_race"] = emu::describe(*race);
  // What the emulator measured in the kernels (emulation/src/evidence.hpp): feedback only.
  nlohmann::json evidence = nlohmann::json::array();
  for (const auto& fact : emu::take_evidence()) {
    evidence.push_back({{"kind", fact.kind},
                        {"file", fact.file},
                        {"line", fact.line},
                        {"kernel", fact.kernel},
                        {"words", fact.words},
                        {"figure", fact.figure},
                        {"ideal", fact.ideal}});
  }
  if (!evidence.empty()) answer["evidence"] = std::move(evidence);
  if (failure != cudaSuccess) {
    answer["failure"] = {{"code", static_cast<int>(failure)},
                         {"name", cudaGetErrorName(failure)},
                         {"text", cudaGetErrorString(failure)}};
    emu::clear_errors();  // the next call starts afresh, as in a new context on a GPU
  }
  return answer;
}

}  // namespace

int main() {
  const int fd = protocol::kChannelFd;
  if (::fcntl(fd, F_GETFD) < 0 || ::fcntl(protocol::kArenaFd, F_GETFD) < 0) {
    std::fprintf(stderr,
                 "This program is your kernel.cu's launcher: the lab's test program starts it. "
                 "Run the lab's checks with ctest.\n");
    return 2;
  }
  ::signal(SIGPIPE, SIG_DFL);
  void* mapped = ::mmap(reinterpret_cast<void*>(protocol::kArenaAddress), protocol::kArenaBytes,
                        PROT_NONE, MAP_SHARED | MAP_FIXED_NOREPLACE, protocol::kArenaFd, 0);
  if (mapped != reinterpret_cast<void*>(protocol::kArenaAddress)) {
    std::fprintf(stderr, "the launcher cannot map the lab's buffers\n");
    return 3;
  }
  arena = static_cast<char*>(mapped);
  ::close(protocol::kArenaFd);

  nlohmann::json defines = nlohmann::json::array();
  for (std::size_t i = 0; i < launcher::kEntryCount; ++i) {
    if (launcher::kEntries[i].function) defines.push_back(launcher::kEntries[i].name);
  }
  if (!wire::send(fd, {{"hello", {{"defines", defines}}}})) return 3;
  std::string error;
  auto reply = wire::receive(fd, -1, error);
  if (!reply || !reply->is_object()) return 3;
  try {
    const auto& given = reply->at("emulation");
    emu::Settings settings;
    settings.schedule = static_cast<emu::Schedule>(given.at("schedule").get<int>());
    settings.seed = given.at("seed").get<std::uint64_t>();
    settings.threads = given.at("threads").get<int>();
    settings.seed_given = given.at("seed_given").get<bool>();
    settings.race_check = given.value("race_check", true);
    settings.evidence = given.value("evidence", true);
    emu::configure(settings);
  } catch (const std::exception&) {
    return 3;
  }

  while (auto request = wire::receive(fd, -1, error)) {
    nlohmann::json answer;
    const auto* entry = find_entry(request->value("call", ""));
    try {
      answer = entry ? run_call(*entry, *request)
                     : nlohmann::json{{"error", "no function " + request->value("call", "")}};
    } catch (const nlohmann::json::exception&) {
      answer = {{"error", "a malformed request"}};
    }
    if (!wire::send(fd, answer)) return 3;
  }
  return 0;
}
