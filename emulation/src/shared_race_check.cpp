// The race check's bookkeeping (shared_race_check.hpp): who touched each shared word in the
// current barrier interval, and which words have a hazard.
#include "shared_race_check.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "block_runner.hpp"

namespace emu::detail {

void note_shared_access(const char* array, std::size_t array_bytes, const SharedArrayShape* shape,
                        const char* name, const char* address, std::size_t bytes,
                        const AccessSite& site) {
  BlockRunner* runner = BlockRunner::active();
  if (!runner || !runner->in_kernel()) return;
  const unsigned thread = runner->current_thread();
  if (runner->race_check().enabled()) {
    runner->race_check().note(thread, array, array_bytes, shape, name, address, bytes, site);
  }
  if (runner->profile().enabled()) {  // the evidence engine's (evidence.hpp)
    runner->profile().note(thread, array, name, true, shape, address, bytes, site);
    runner->initcheck().note(thread, array, array_bytes, shape, name, address, bytes, site);
  }
}

void SharedRaceCheck::start_block(unsigned threads, bool enabled) {
  enabled_ = enabled;
  threads_.assign(threads, ThreadState{});
  regions_.clear();
  region_words_ = 0;
  hazards_.clear();
  pending_ = {};
  reported_ = false;
  ++stamp_;
}

std::size_t SharedRaceCheck::region_of(const char* array, std::size_t array_bytes,
                                       const SharedArrayShape* shape, const char* name) {
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    if (regions_[i].begin == array) return i;
  }
  // Words of 4 bytes; a static array of smaller elements is tracked by element, so that threads
  // writing neighbouring bytes are not taken for a race.
  const std::size_t word_bytes = shape ? std::clamp<std::size_t>(shape->element_bytes, 1, 4) : 4;
  regions_.push_back({array, array_bytes, region_words_, word_bytes, shape, name});
  region_words_ += (array_bytes + word_bytes - 1) / word_bytes;
  if (words_.size() < region_words_) words_.resize(region_words_);
  return regions_.size() - 1;
}

SharedRaceCheck::Word& SharedRaceCheck::word(std::size_t index) {
  Word& w = words_[index];
  if (w.stamp != stamp_) {
    w = Word{};
    w.stamp = stamp_;
  }
  return w;
}

// Ordered by a __syncwarp(): lanes of one warp, one of them past a __syncwarp() the other had
// not reached (both its own count: the same at every schedule).
bool SharedRaceCheck::ordered(const Accessor& a, const Accessor& b) {
  return a.thread / 32 == b.thread / 32 && a.warp_epoch != b.warp_epoch;
}

const SharedRaceCheck::Accessor* SharedRaceCheck::conflict(const Accessor (&slots)[2],
                                                           const Accessor& me) {
  for (const Accessor& other : slots) {
    if (other.thread != kNobody && other.thread != me.thread && !ordered(other, me)) return &other;
  }
  return nullptr;
}

// Keeps the two lowest threads, ascending, each with its first access since its latest
// __syncwarp() (the one that can race with later ones).
void SharedRaceCheck::keep(Accessor (&slots)[2], const Accessor& me) {
  if (slots[0].thread == me.thread) {
    if (slots[0].warp_epoch != me.warp_epoch) slots[0] = me;
  } else if (slots[1].thread == me.thread) {
    if (slots[1].warp_epoch != me.warp_epoch) slots[1] = me;
  } else if (me.thread < slots[0].thread) {
    slots[1] = slots[0];
    slots[0] = me;
  } else if (me.thread < slots[1].thread) {
    slots[1] = me;
  }
}

void SharedRaceCheck::mark(std::size_t index, std::size_t region, const Accessor& first,
                           bool first_writes, const Accessor& second, bool second_writes) {
  Word& w = words_[index];
  if (w.hazard) return;
  w.hazard = true;
  hazards_.push_back({index, region, first, first_writes, second, second_writes});
}

void SharedRaceCheck::note(unsigned thread, const char* array, std::size_t array_bytes,
                           const SharedArrayShape* shape, const char* name, const char* address,
                           std::size_t bytes, const AccessSite& site) {
  settle();
  ThreadState& state = threads_[thread];
  const Accessor me{static_cast<std::uint16_t>(thread), state.warp_epoch, state.step++, site.file,
                    site.line};
  if (!shape && bytes < 4) return;  // dynamic shared memory is tracked by 4-byte words
  const std::size_t r = region_of(array, array_bytes, shape, name);
  const Region& region = regions_[r];
  const auto offset = static_cast<std::size_t>(address - region.begin);
  const std::size_t first = region.first_word + offset / region.word_bytes;
  const std::size_t last = region.first_word + (offset + bytes - 1) / region.word_bytes;
  const bool reads = site.access != Access::write;
  const bool writes = site.access != Access::read;
  const Accessor* overwritten = nullptr;
  for (std::size_t index = first; index <= last; ++index) {
    Word& w = word(index);
    if (reads) {
      if (const Accessor* writer = conflict(w.writers, me))
        mark(index, r, *writer, true, me, false);
      keep(w.readers, me);
    }
    if (writes) {
      if (const Accessor* reader = conflict(w.readers, me))
        mark(index, r, *reader, false, me, true);
      if (const Accessor* writer = conflict(w.writers, me)) {
        if (reads) {
          mark(index, r, *writer, true, me, true);  // `+=` over another thread's write
        } else if (!overwritten) {
          overwritten = writer;  // a hazard if this write's value differs: settled later
        }
      }
      keep(w.writers, me);
    }
  }
  if (overwritten && bytes <= sizeof(pending_.before)) {
    pending_ = {address, last - first + 1, first, r, me, *overwritten, {}, bytes};
    std::memcpy(pending_.before, address, bytes);
  }
}

// Two threads writing the same bytes is no hazard (racecheck's INFO level); other values are.
void SharedRaceCheck::settle_pending() {
  const PendingWrite pending = std::exchange(pending_, PendingWrite{});
  if (std::memcmp(pending.before, pending.address, pending.bytes) == 0) return;
  for (std::size_t i = 0; i < pending.words; ++i) {
    words_[pending.first_word + i].values_differ = true;
    mark(pending.first_word + i, pending.region, pending.other, true, pending.writer, true);
  }
}

void SharedRaceCheck::end_interval(const RaceBlock& block) {
  settle();
  if (!hazards_.empty()) {
    count_shared_races(hazards_.size());
    if (!reported_) {
      // The lowest word: static arrays by address (the same layout on every OS thread), then
      // the dynamic shared memory; not by the order the schedule first touched them in.
      const auto place = [&](const Hazard& h) {
        const Region& region = regions_[h.region];
        return std::tuple(region.shape == nullptr, region.begin, h.word - region.first_word);
      };
      const auto lowest =
          std::min_element(hazards_.begin(), hazards_.end(),
                           [&](const Hazard& a, const Hazard& b) { return place(a) < place(b); });
      report(block, canonical(*lowest));
      reported_ = true;
    }
    hazards_.clear();
  }
  std::fill(threads_.begin(), threads_.end(), ThreadState{});
  ++stamp_;
}

}  // namespace emu::detail
