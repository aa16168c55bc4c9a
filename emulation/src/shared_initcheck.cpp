// Shared memory read before written (shared_initcheck.hpp).
#include "shared_initcheck.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

#include "block_runner.hpp"
#include "words.hpp"

namespace emu::detail {

void SharedInitCheck::start_block(unsigned threads, bool enabled) {
  (void)threads;
  enabled_ = enabled;
  regions_.clear();
  words_.clear();
  touched_.clear();
  reported_ = false;
}

std::size_t SharedInitCheck::region_of(const char* array, std::size_t array_bytes,
                                       const SharedArrayShape* shape, const char* name) {
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    if (regions_[i].begin == array) return i;
  }
  const std::size_t word_bytes = shape ? std::clamp<std::size_t>(shape->element_bytes, 1, 4) : 4;
  regions_.push_back({array, words_.size(), word_bytes, shape, name});
  words_.resize(words_.size() + (array_bytes + word_bytes - 1) / word_bytes);
  return regions_.size() - 1;
}

void SharedInitCheck::note(unsigned thread, const char* array, std::size_t array_bytes,
                           const SharedArrayShape* shape, const char* name, const char* address,
                           std::size_t bytes, const AccessSite& site) {
  if (!shape && bytes < 4) return;  // dynamic shared memory is tracked by 4-byte words
  const Region& region = regions_[region_of(array, array_bytes, shape, name)];
  const auto offset = static_cast<std::size_t>(address - region.begin);
  const std::size_t first = region.first_word + offset / region.word_bytes;
  const std::size_t last = region.first_word + (offset + bytes - 1) / region.word_bytes;
  for (std::size_t index = first; index <= last && index < words_.size(); ++index) {
    Word& w = words_[index];
    if (site.access != Access::write && !w.written_before && w.writer != thread &&
        thread < w.reader) {
      if (w.reader == kNobody && w.writer == kNobody) touched_.push_back(index);
      w.reader = thread;
      w.file = site.file;
      w.line = site.line;
    }
    if (site.access != Access::read) {
      if (w.writer == kNobody && w.reader == kNobody) touched_.push_back(index);
      w.writer = w.writer == kNobody || w.writer == thread ? thread : kSeveral;
    }
  }
}

const SharedInitCheck::Region& SharedInitCheck::region_at(std::size_t index) const {
  return *std::find_if(regions_.rbegin(), regions_.rend(),
                       [&](const Region& r) { return index >= r.first_word; });
}

void SharedInitCheck::end_interval(LaunchEvidence& launch, std::uint64_t block_linear, uint3 block,
                                   const dim3& block_dim, std::uint64_t interval) {
  // The lowest word: static arrays by address (the same layout on every OS thread), then the
  // dynamic shared memory; not by the order the schedule first touched them in.
  const auto place = [&](std::size_t index) {
    const Region& r = region_at(index);
    return std::tuple(r.shape == nullptr, r.begin, index - r.first_word);
  };
  std::optional<std::size_t> found;
  std::uint64_t count = 0;
  for (const std::size_t index : touched_) {
    const Word& w = words_[index];
    // Read uninitialised, and written this interval by no other thread (else a race).
    if (w.reader == kNobody || (w.writer != kNobody && w.writer != w.reader)) continue;
    ++count;
    if (!found || place(index) < place(*found)) found = index;
  }
  if (count > 0) {
    UninitialisedRead read;
    if (found && !reported_) {
      const Word& w = words_[*found];
      const Region& r = region_at(*found);
      const unsigned t = w.reader;
      read = {short_file(w.file),
              w.line,
              {t % block_dim.x, (t / block_dim.x) % block_dim.y, t / (block_dim.x * block_dim.y)},
              block,
              shared_place_text(r.name, r.shape, (*found - r.first_word) * r.word_bytes)};
    }
    launch.keep_uninitialised_read({block_linear, interval}, reported_ ? nullptr : &read, count);
    reported_ = true;
  }
  for (const std::size_t index : touched_) {
    Word& w = words_[index];
    if (w.writer != kNobody) w.written_before = true;
    w.writer = kNobody;
    w.reader = kNobody;
  }
  touched_.clear();
}

}  // namespace emu::detail
