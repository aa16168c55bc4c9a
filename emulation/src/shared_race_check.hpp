// The race check on shared memory, the emulator's counterpart of compute-sanitizer's racecheck.
//
// Per block and per barrier interval (the code between two __syncthreads() of the block), each
// shared-memory word remembers who touched it: the two lowest threads that wrote it and the two
// lowest that read it, each with the line and the place in its own program (the count of its
// shared accesses in the interval, and of the __syncwarp() calls it passed). Two different
// threads touching a word in one interval, one of them writing, is a hazard, unless they are of
// one warp and a __syncwarp() lies between them (racecheck on sm_70 and later reports the rest of
// a warp's hazards too: its lanes do not run in lockstep). Two threads writing the same value is
// not reported (racecheck's INFO level, below its default print level).
//
// Nothing depends on the order the emulator ran the threads in: whether a word has a hazard is a
// property of the interval's accesses (two distinct accessors are always kept, so a conflicting
// pair is seen whatever came first), and the report is made when the interval ends, from the
// lowest word with a hazard and its lowest threads. Its kind comes from the two threads' own
// programs: the access later in its thread's program completes the hazard (a read after another
// thread's write: "read after write"; a write after another thread's read: "write after read").
// Cost: a watched block runs several times slower (a tiled product's inner loop is two shared
// reads a multiply-add), so it watches every block of a small launch and, of a large one, the
// first kRaceCheckedBlocks and the last (by linear index: the same at every run), as the GPU's
// racecheck pass runs each check's smallest case only.
// Limits: words of 4 bytes (a static array of smaller elements is tracked by element; smaller
// accesses of dynamic shared memory are not tracked), and the full set of readers is not kept:
// with __syncwarp() in an interval a hazard between three or more threads of two warps can go
// unseen (never a false one).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emu/access.hpp"
#include "emu/control.hpp"

namespace emu::detail {

// The block, for the report's words and its order among reports.
struct RaceBlock {
  std::uint64_t launch = 0;
  std::uint64_t block_linear = 0;
  uint3 block{0, 0, 0};
  dim3 block_dim{1, 1, 1};
  const char* kernel = "";
  std::uint64_t interval = 0;  // the interval's number in the block (barriers passed)
};

// The reports (shared_race_report.cpp): the first of the earliest launch's lowest block is kept
// until take_shared_race; every word with a hazard is counted.
void keep_shared_race(const RaceBlock& block, SharedRace race);
void count_shared_races(std::size_t words);

// The blocks of a launch the race check watches: those whose linear index is below this, and the
// last.
inline constexpr std::uint64_t kRaceCheckedBlocks = 16;

class SharedRaceCheck {
 public:
  void start_block(unsigned threads, bool enabled);
  bool enabled() const { return enabled_; }
  // The block passed a __syncthreads() (or finished): reports the interval's first hazard.
  void end_interval(const RaceBlock& block);
  void passed_syncwarp(unsigned thread) { ++threads_[thread].warp_epoch; }
  // Settles a write over another thread's write once its value is known (after the thread ran
  // on: at its next shared access or when it yields).
  void settle() {
    if (pending_.words != 0) [[unlikely]]
      settle_pending();
  }
  void note(unsigned thread, const char* array, std::size_t array_bytes,
            const SharedArrayShape* shape, const char* name, const char* address, std::size_t bytes,
            const AccessSite& site);

 private:
  static constexpr std::uint16_t kNobody = 0xFFFF;
  struct Accessor {
    std::uint16_t thread = kNobody;
    std::uint16_t warp_epoch = 0;  // __syncwarp() calls its thread had passed in the interval
    std::uint32_t step = 0;        // shared accesses its thread had made before it
    const char* file = nullptr;
    int line = 0;
  };
  struct Word {
    std::uint32_t stamp = 0;  // the interval it was last touched in
    bool hazard = false;
    bool values_differ = false;  // two of its writes wrote different bytes
    // The two lowest threads, ascending; each its first access since its latest __syncwarp().
    Accessor writers[2];
    Accessor readers[2];
  };
  struct Region {
    const char* begin;
    std::size_t bytes;
    std::size_t first_word;
    std::size_t word_bytes;
    const SharedArrayShape* shape;  // null: the dynamic shared memory
    const char* name;
  };
  struct Hazard {
    std::size_t word;
    std::size_t region;  // index into regions_
    // The pair as found (the report's fallback when the word's lowest threads have no hazard).
    Accessor first;
    bool first_writes;
    Accessor second;
    bool second_writes;
  };
  struct PendingWrite {
    const char* address = nullptr;
    std::size_t words = 0;  // 0: none pending
    std::size_t first_word = 0;
    std::size_t region = 0;
    Accessor writer;
    Accessor other;
    unsigned char before[16];
    std::size_t bytes = 0;
  };
  struct ThreadState {
    std::uint32_t step = 0;
    std::uint16_t warp_epoch = 0;
  };

  std::size_t region_of(const char* array, std::size_t array_bytes, const SharedArrayShape* shape,
                        const char* name);
  Word& word(std::size_t index);
  static bool ordered(const Accessor& a, const Accessor& b);
  static const Accessor* conflict(const Accessor (&slots)[2], const Accessor& me);
  static void keep(Accessor (&slots)[2], const Accessor& me);
  void mark(std::size_t index, std::size_t region, const Accessor& first, bool first_writes,
            const Accessor& second, bool second_writes);
  void settle_pending();
  // The report's pair (shared_race_report.cpp): from the word's lowest threads, so that it is the
  // same at every schedule, else as found.
  Hazard canonical(const Hazard& found) const;
  void report(const RaceBlock& block, const Hazard& hazard) const;

  std::vector<Word> words_;
  std::vector<Region> regions_;
  std::size_t region_words_ = 0;
  std::vector<ThreadState> threads_;
  std::vector<Hazard> hazards_;
  PendingWrite pending_;
  std::uint32_t stamp_ = 0;
  bool reported_ = false;  // this block's first hazard has been worded
  bool enabled_ = true;
};

}  // namespace emu::detail
