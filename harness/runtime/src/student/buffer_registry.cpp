#include "buffer_registry.hpp"

#include <map>
#include <mutex>
#include <vector>

#include "launcher/protocol.hpp"

namespace harness::student {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::uintptr_t, RegisteredBuffer> by_base;
  std::map<std::uint64_t, std::uintptr_t> base_of_region;
  std::uint64_t next_region = 1;
  std::vector<std::uint64_t> free_regions;
  std::function<void(std::uint64_t)> forgotten;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

void register_buffer(const void* base, std::size_t bytes, const std::string& name,
                     std::size_t payload_offset, std::size_t payload_bytes,
                     const std::string& element) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  std::uint64_t region = 0;
  if (!r.free_regions.empty()) {
    region = r.free_regions.back();
    r.free_regions.pop_back();
  } else if (r.next_region < launcher_protocol::kFirstLauncherRegion) {
    region = r.next_region++;
  } else {
    return;  // more live buffers than regions: such a buffer cannot be passed to a launcher
  }
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  r.by_base[address] = {region, address, bytes, name, payload_offset, payload_bytes, element};
  r.base_of_region[region] = address;
}

void forget_buffer(const void* base) {
  auto& r = registry();
  std::function<void(std::uint64_t)> callback;
  std::uint64_t region = 0;
  {
    std::lock_guard lock(r.mutex);
    const auto it = r.by_base.find(reinterpret_cast<std::uintptr_t>(base));
    if (it == r.by_base.end()) return;
    region = it->second.region;
    r.base_of_region.erase(region);
    r.by_base.erase(it);
    r.free_regions.push_back(region);
    callback = r.forgotten;
  }
  if (callback) callback(region);
}

const RegisteredBuffer* find_buffer(std::uintptr_t address) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.by_base.upper_bound(address);
  if (it == r.by_base.begin()) return nullptr;
  --it;
  // One past the end still belongs to the buffer (an end pointer is a legal argument).
  if (address > it->second.base + it->second.bytes) return nullptr;
  return &it->second;
}

const RegisteredBuffer* buffer_in_region(std::uint64_t region) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.base_of_region.find(region);
  return it == r.base_of_region.end() ? nullptr : &r.by_base.at(it->second);
}

void on_forget(std::function<void(std::uint64_t region)> callback) {
  std::lock_guard lock(registry().mutex);
  registry().forgotten = std::move(callback);
}

}  // namespace harness::student
