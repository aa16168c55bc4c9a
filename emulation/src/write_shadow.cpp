// The evidence engine's watch on writes (evidence.hpp): a shadow of each buffer, one word of
// writer per 4-byte word of the buffer, alive while the launch runs, so that an element written by
// two threads is seen whatever the order of the blocks; and the blocks that wrote nothing.
#include <sys/mman.h>

#include <atomic>
#include <limits>

#include "block_runner.hpp"
#include "evidence.hpp"

namespace emu::detail {
namespace {

// Aliased elements counted for the words ("and 11 more elements"); beyond, only the first kept.
constexpr std::size_t kCountedElements = 1 << 16;

}  // namespace

LaunchEvidence::LaunchEvidence(const LaunchRequest& request, const CheckedRegion* regions,
                               std::size_t count, bool enabled)
    : request_(request),
      regions_(regions),
      enabled_(enabled),
      blocks_(1ULL * request.grid.x * request.grid.y * request.grid.z),
      threads_per_block_(1ULL * request.block.x * request.block.y * request.block.z) {
  // Writer ids of 32 bits: a grid of more threads is not watched.
  if (!enabled || blocks_ * threads_per_block_ >= std::numeric_limits<std::uint32_t>::max()) {
    return;
  }
  shadows_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    // An anonymous mapping, not the heap: its pages stay the kernel's zero page until a word is
    // written, so an input nobody writes costs no memory, and freeing it returns everything.
    const auto words = static_cast<std::size_t>(regions[i].end - regions[i].begin) / 4;
    const std::size_t bytes = (words + 1) * 4;
    void* map = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) continue;  // this buffer is not watched
    shadows_[i].writers = static_cast<std::uint32_t*>(map);
    shadows_[i].words = words;
  }
}

LaunchEvidence::~LaunchEvidence() {
  for (auto& shadow : shadows_) {
    if (shadow.writers) ::munmap(shadow.writers, (shadow.words + 1) * 4);
  }
}

void LaunchEvidence::note_write(std::size_t region, const char* address, std::size_t bytes,
                                std::uint32_t writer, const AccessSite& site) {
  if (region >= shadows_.size()) return;
  const Shadow& shadow = shadows_[region];
  const auto offset = static_cast<std::size_t>(address - regions_[region].begin);
  const std::size_t last = (offset + bytes - 1) / 4;
  for (std::size_t word = offset / 4; word <= last && word < shadow.words; ++word) {
    std::atomic_ref<std::uint32_t> slot(shadow.writers[word]);
    std::uint32_t seen = slot.load(std::memory_order_relaxed);
    while (seen != writer) {
      if (seen != 0) conflict(region, word, seen, writer, site);
      // The lowest writer stays: the words name the same pair at every run.
      if (seen != 0 && seen < writer) break;
      if (slot.compare_exchange_weak(seen, writer, std::memory_order_relaxed)) break;
    }
  }
}

// Two writers of one word: the lowest such word of the launch keeps every writer it had.
void LaunchEvidence::conflict(std::size_t region, std::size_t word, std::uint32_t seen,
                              std::uint32_t writer, const AccessSite& site) {
  std::lock_guard lock(mutex_);
  const auto key = std::tuple(region, word);
  if (aliasing_.elements.size() < kCountedElements) aliasing_.elements.insert(key);
  if (key > aliasing_.key) return;
  if (key < aliasing_.key) {
    aliasing_.key = key;
    aliasing_.writers.clear();
  }
  aliasing_.writers.emplace(seen, std::pair<const char*, int>{nullptr, 0});
  aliasing_.writers[writer] = {site.file, site.line};
}

void LaunchEvidence::count_block(unsigned threads, unsigned threads_that_wrote) {
  if (threads_that_wrote == 0) {
    idle_blocks_.fetch_add(1, std::memory_order_relaxed);
  } else {
    busy_blocks_.fetch_add(1, std::memory_order_relaxed);
  }
  idle_threads_.fetch_add(threads - threads_that_wrote, std::memory_order_relaxed);
}

uint3 LaunchEvidence::thread_of(std::uint32_t writer) const {
  const std::uint64_t t = (writer - 1) % threads_per_block_;
  const dim3& b = request_.block;
  return {static_cast<unsigned>(t % b.x), static_cast<unsigned>(t / b.x % b.y),
          static_cast<unsigned>(t / (1ULL * b.x * b.y))};
}

uint3 LaunchEvidence::block_of(std::uint32_t writer) const {
  const std::uint64_t linear = (writer - 1) / threads_per_block_;
  const dim3& g = request_.grid;
  return {static_cast<unsigned>(linear % g.x), static_cast<unsigned>(linear / g.x % g.y),
          static_cast<unsigned>(linear / (1ULL * g.x * g.y))};
}

void note_global_write(std::size_t region, const char* address, std::size_t bytes,
                       const AccessSite& site) {
  BlockRunner* runner = BlockRunner::active();
  if (!runner || !runner->in_kernel()) return;
  LaunchEvidence* evidence = runner->evidence();
  if (!evidence) return;
  evidence->note_write(region, address, bytes,
                       evidence->writer_id(runner->block_linear(), runner->current_thread()), site);
}

}  // namespace emu::detail
