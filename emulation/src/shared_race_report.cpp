// The race check's reports (shared_race_check.hpp): which pair of a word's accesses is told, in
// what words, and which report of a run is kept (the earliest launch's lowest block's first).
#include <mutex>
#include <tuple>

#include "block_runner.hpp"
#include "shared_race_check.hpp"
#include "words.hpp"

namespace emu::detail {
namespace {

struct RaceReports {
  std::mutex mutex;
  std::optional<SharedRace> first;
  std::tuple<std::uint64_t, std::uint64_t, std::uint64_t> first_key;  // launch, block, interval
  long long count = 0;
};

RaceReports& race_reports() {
  static RaceReports instance;
  return instance;
}

uint3 thread_index(unsigned linear, const dim3& block_dim) {
  return {linear % block_dim.x, (linear / block_dim.x) % block_dim.y,
          linear / (block_dim.x * block_dim.y)};
}

}  // namespace

// "Nds[2][3] (Nds + 140 bytes)" for a static array, "the dynamic shared memory + 140 bytes".
std::string shared_place_text(const char* name, const SharedArrayShape* shape, std::size_t offset) {
  if (!shape) return "the dynamic shared memory + " + bytes_text(offset);
  const std::string array = name ? name : "a __shared__ array";
  std::string text = array;
  if (shape->rank > 0) {
    std::size_t element = offset / shape->element_bytes;
    std::string subscripts;
    for (unsigned d = shape->rank; d-- > 0;) {
      subscripts = "[" + grouped(element % shape->extents[d]) + "]" + subscripts;
      element /= shape->extents[d];
    }
    text += subscripts;
  }
  return text + " (" + array + " + " + bytes_text(offset) + ")";
}

void keep_shared_race(const RaceBlock& block, SharedRace race) {
  auto& r = race_reports();
  const auto key = std::tuple(block.launch, block.block_linear, block.interval);
  std::lock_guard lock(r.mutex);
  if (r.first && !(key < r.first_key)) return;
  r.first = std::move(race);
  r.first_key = key;
}

void count_shared_races(std::size_t words) {
  auto& r = race_reports();
  std::lock_guard lock(r.mutex);
  r.count += static_cast<long long>(words);
}

SharedRaceCheck::Hazard SharedRaceCheck::canonical(const Hazard& found) const {
  const Word& w = words_[found.word];
  // Each writer with the lowest other thread it races with, readers before writers.
  for (const Accessor& writer : w.writers) {
    if (writer.thread == kNobody) continue;
    const Accessor* best = nullptr;
    bool best_writes = false;
    const auto consider = [&](const Accessor& other, bool writes) {
      if (other.thread == kNobody || other.thread == writer.thread || ordered(writer, other))
        return;
      if (writes && !w.values_differ) return;  // the same value: no hazard
      if (!best || other.thread < best->thread) {
        best = &other;
        best_writes = writes;
      }
    };
    for (const Accessor& reader : w.readers) consider(reader, false);
    for (const Accessor& other : w.writers) consider(other, true);
    if (best) return {found.word, found.region, writer, true, *best, best_writes};
  }
  return found;
}

void SharedRaceCheck::report(const RaceBlock& block, const Hazard& hazard) const {
  // The access later in its own thread's program completes the hazard; at the same step, the
  // read (it reads what the other writes), else the higher thread.
  const bool second_later = hazard.second.step != hazard.first.step
                                ? hazard.second.step > hazard.first.step
                                : (hazard.first_writes != hazard.second_writes
                                       ? !hazard.second_writes
                                       : hazard.second.thread > hazard.first.thread);
  const Accessor& done = second_later ? hazard.second : hazard.first;
  const Accessor& other = second_later ? hazard.first : hazard.second;
  const bool done_writes = second_later ? hazard.second_writes : hazard.first_writes;
  const bool other_writes = second_later ? hazard.first_writes : hazard.second_writes;

  SharedRace race;
  race.kind =
      !done_writes ? "read after write" : (other_writes ? "write after write" : "write after read");
  race.kernel = block.kernel;
  race.block = block.block;
  race.file = short_file(done.file);
  race.line = done.line;
  race.thread = thread_index(done.thread, block.block_dim);
  race.other_file = short_file(other.file);
  race.other_line = other.line;
  race.other_thread = thread_index(other.thread, block.block_dim);
  race.same_warp = done.thread / 32 == other.thread / 32;
  const Region& region = regions_[hazard.region];
  race.place = shared_place_text(region.name, region.shape,
                                 (hazard.word - region.first_word) * region.word_bytes);
  keep_shared_race(block, std::move(race));
}

}  // namespace emu::detail

namespace emu {

std::optional<SharedRace> take_shared_race() {
  auto& r = detail::race_reports();
  std::lock_guard lock(r.mutex);
  auto first = std::exchange(r.first, std::nullopt);
  if (first) first->more = r.count - 1;
  r.count = 0;
  return first;
}

std::string describe(const SharedRace& race) {
  const bool reads = race.kind == "write after read";  // what the other thread does
  const bool writes_other_value = race.kind == "write after write";
  std::string text =
      race.file + ":" + std::to_string(race.line) + " (" + race.kernel + "), thread " +
      detail::triple(race.thread) + " of block " + detail::triple(race.block) + ": " + race.kind +
      " of " + race.place + " in shared memory, which thread " + detail::triple(race.other_thread) +
      (reads ? " reads" : " writes") + (writes_other_value ? " with another value" : "") + " at " +
      race.other_file + ":" + std::to_string(race.other_line) + " with no __syncthreads()" +
      (race.same_warp ? " or __syncwarp()" : "") + " between them";
  if (race.more > 0) text += ", and " + detail::grouped(race.more) + " more like it";
  return text;
}

}  // namespace emu
