// Shared memory read before any thread of the block wrote it (evidence.hpp), the emulator's
// counterpart of compute-sanitizer's initcheck, on the blocks the evidence engine profiles.
//
// A read of a word is uninitialised when no thread of the block wrote the word in an earlier
// barrier interval and the reading thread had not written it itself. When another thread writes
// the word in the same interval, whether the read came first depends on the schedule: that is a
// race (the race check's), not told here. So the result is the same at every run: the interval's
// lowest such word (static arrays by address, then the dynamic shared memory) with the lowest
// thread that read it, the first of the block, the launch's from its lowest block.
#pragma once

#include <cstdint>
#include <vector>

#include "evidence.hpp"

namespace emu::detail {

class SharedInitCheck {
 public:
  void start_block(unsigned threads, bool enabled);
  bool enabled() const { return enabled_; }
  void note(unsigned thread, const char* array, std::size_t array_bytes,
            const SharedArrayShape* shape, const char* name, const char* address, std::size_t bytes,
            const AccessSite& site);
  // The block passed a barrier or finished: its interval's uninitialised reads go to the launch.
  void end_interval(LaunchEvidence& launch, std::uint64_t block_linear, uint3 block,
                    const dim3& block_dim, std::uint64_t interval);

 private:
  static constexpr std::uint32_t kNobody = 0xFFFFFFFF;
  static constexpr std::uint32_t kSeveral = 0xFFFFFFFE;
  struct Region {
    const char* begin;
    std::size_t first_word;
    std::size_t word_bytes;
    const SharedArrayShape* shape;  // null: the dynamic shared memory
    const char* name;
  };
  struct Word {
    bool written_before = false;     // in an earlier interval
    std::uint32_t writer = kNobody;  // this interval's: a thread, kSeveral or kNobody
    std::uint32_t reader = kNobody;  // the lowest thread that read it uninitialised
    const char* file = nullptr;      // and where
    int line = 0;
  };
  std::size_t region_of(const char* array, std::size_t array_bytes, const SharedArrayShape* shape,
                        const char* name);
  const Region& region_at(std::size_t word) const;

  std::vector<Region> regions_;
  std::vector<Word> words_;
  std::vector<std::size_t> touched_;  // words written or read uninitialised this interval
  bool reported_ = false;
  bool enabled_ = false;
};

}  // namespace emu::detail
