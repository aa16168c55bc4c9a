#include "harness/sanitizer.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

#include "contract/sanitizer_run.hpp"

namespace harness {
namespace {
// Noted from the runtime's thread that places buffers, taken by the check's.
std::mutex device_buffers_mutex;
std::vector<contract::DeviceBufferPlace> device_buffers_seen;
// The emulator's reports, noted from the runtime's thread, taken by the check's.
std::mutex memory_errors_mutex;
std::vector<EmulatedFinding> memory_errors_seen;

// The emulator's evidence: since the last take, and what each suite's checks took in this run.
std::mutex evidence_mutex;
std::vector<contract::Evidence> evidence_seen;
std::map<std::string, std::vector<contract::Evidence>> evidence_of_suite;

void note_finding(EmulatedFindingKind kind, const std::string& words) {
  std::lock_guard lock(memory_errors_mutex);
  // One call's report each, a few at most: the first is the reason, the rest notes.
  if (memory_errors_seen.size() < 3) memory_errors_seen.push_back({kind, words});
}
}  // namespace

bool under_sanitizer() {
  return std::getenv("LAB_SANITIZER") != nullptr ||
         std::getenv("NV_SANITIZER_INJECTION_PORT_BASE") != nullptr;
}

bool sanitizer_hosts_graded_run() {
  const char* mode = std::getenv("LAB_SANITIZER");
  return mode && std::string_view(mode) == contract::kHostedMemcheck;
}

void note_device_buffer(const std::string& name, std::uint64_t address, std::size_t bytes,
                        const std::string& element) {
  if (!under_sanitizer()) return;
  std::lock_guard lock(device_buffers_mutex);
  device_buffers_seen.push_back({name, address, bytes, element});
}

std::vector<contract::DeviceBufferPlace> take_device_buffer_places() {
  std::lock_guard lock(device_buffers_mutex);
  return std::exchange(device_buffers_seen, {});
}

void note_memory_error(const std::string& words) {
  note_finding(EmulatedFindingKind::memory_error, words);
}

void note_shared_memory_race(const std::string& words) {
  note_finding(EmulatedFindingKind::shared_race, words);
}

std::vector<EmulatedFinding> take_memory_errors() {
  std::lock_guard lock(memory_errors_mutex);
  return std::exchange(memory_errors_seen, {});
}

void note_evidence(contract::Evidence fact) {
  std::lock_guard lock(evidence_mutex);
  contract::add_evidence(evidence_seen, fact, kMaxEvidence);
}

std::vector<contract::Evidence> take_evidence(const std::string& check) {
  std::lock_guard lock(evidence_mutex);
  auto taken = std::exchange(evidence_seen, {});
  auto& suite = evidence_of_suite[std::string(contract::suite_of(check))];
  for (const auto& fact : taken) contract::add_evidence(suite, fact, kMaxEvidence);
  return taken;
}

std::vector<contract::Evidence> suite_evidence(const std::string& check) {
  std::lock_guard lock(evidence_mutex);
  const auto found = evidence_of_suite.find(std::string(contract::suite_of(check)));
  return found == evidence_of_suite.end() ? std::vector<contract::Evidence>{} : found->second;
}

}  // namespace harness
