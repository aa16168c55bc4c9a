// The evidence engine: what the emulator measures in a launch's accesses, as facts at the line
// of kernel.cu (emu::take_evidence in control.hpp). Feedback only: no verdict depends on it.
//
// - Coalescing (access_profile.cpp): the k-th execution of a site (file, line, read or write,
//   buffer) by each lane of a warp makes one warp-wide request (lanes do not run in lockstep
//   here, so requests are grouped by occurrence); per request, the distinct 32-byte sectors its
//   lanes touch, against the sectors the same lanes would touch reading consecutive elements.
// - Bank conflicts (access_profile.cpp): per warp-wide shared access, the largest number of
//   distinct 4-byte words in one of the 32 banks (the same word is a broadcast).
// - Divergence (access_profile.cpp): per warp-wide request of a full warp, its active lanes,
//   against the requests the same lanes would make packed into whole warps.
// - Shared memory read before written (shared_initcheck.cpp): a word a thread reads that no
//   thread of its block wrote in an earlier barrier interval, nor itself before.
// - Aliasing writes (write_shadow.cpp): an element of a buffer written (a plain store, not `+=`
//   or an atomic) by two different threads of one launch.
// - Idle blocks (write_shadow.cpp): blocks none of whose threads wrote global memory.
//
// Sampling: the first four are measured on the first kProfiledBlocks blocks of a launch (by
// linear index) and its last, on each site's first kRequestsPerSite requests of each warp: the
// same at every run, and the cost bounded. The last two watch every block: a write costs one
// atomic compare-and-swap on a shadow of the buffer, a thread one flag.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "emu/access.hpp"
#include "emu/control.hpp"
#include "emu/launch.hpp"

namespace emu::detail {

inline constexpr std::uint64_t kProfiledBlocks = 2;
inline constexpr std::uint32_t kRequestsPerSite = 32;

// What the profiled blocks of a launch measured at one site, summed over their requests.
struct SiteMeasure {
  std::string file;  // the name only
  int line = 0;
  Access access = Access::read;
  std::string name;  // the buffer's or the shared array's
  bool shared = false;
  std::optional<SharedArrayShape> shape;  // a static shared array's
  std::size_t element_bytes = 4;
  std::string element;  // a buffer's element type as the lab named it ("float", "int"), or empty
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;                   // global: distinct 32-byte sectors, summed
  std::uint64_t ideal = 0;                     // global: sectors of consecutive elements, summed
  unsigned worst_degree = 0;                   // shared: the largest bank conflict degree
  std::uint64_t conflicted = 0;                // shared: requests with a degree of 2 or more
  std::map<long long, std::uint64_t> strides;  // neighbouring lanes' distance in elements: count
  // Divergence, over the requests of full warps (32 lanes in the block): their count, their
  // active lanes summed, and the requests the same lanes would make packed into whole warps (per
  // occurrence k: the lanes of every warp's k-th request, 32 a request).
  std::uint64_t warp_requests = 0;
  std::uint64_t active_lanes = 0;
  std::uint64_t packed_requests = 0;
  // Per request, the lanes of its warp that make any request at the site, summed: a lane a
  // guard keeps out of every request (outside the matrix) is not waiting, one that works at other
  // requests is.
  std::uint64_t working_lanes = 0;
  // The distance between neighbouring active lanes of requests whose lanes are evenly spaced by
  // more than 1, smallest and largest (0: none).
  unsigned spacing_min = 0;
  unsigned spacing_max = 0;
};

// The first read of shared memory that no write preceded (shared_initcheck.cpp).
struct UninitialisedRead {
  std::string file;
  int line = 0;
  uint3 thread{0, 0, 0};
  uint3 block{0, 0, 0};
  std::string place;  // "tile[0][3] (tile + 12 bytes)"
};

// One launch's evidence: its blocks add to it as they finish; facts when the launch ends.
class LaunchEvidence {
 public:
  LaunchEvidence(const LaunchRequest& request, const CheckedRegion* regions, std::size_t count,
                 bool enabled);
  ~LaunchEvidence();
  LaunchEvidence(const LaunchEvidence&) = delete;
  LaunchEvidence& operator=(const LaunchEvidence&) = delete;

  bool enabled() const { return enabled_; }
  bool profiles(std::uint64_t block_linear) const {
    return enabled_ && (block_linear < kProfiledBlocks || block_linear + 1 == blocks_);
  }
  bool watches_writes() const { return !shadows_.empty(); }

  // From the blocks (any OS thread).
  void note_write(std::size_t region, const char* address, std::size_t bytes, std::uint32_t writer,
                  const AccessSite& site);
  void add_site(SiteMeasure measure);
  // A block's interval read `words` words uninitialised; `read`: the first (null: only counted).
  void keep_uninitialised_read(std::tuple<std::uint64_t, std::uint64_t> key,
                               const UninitialisedRead* read, std::uint64_t words);
  void count_block(unsigned threads, unsigned threads_that_wrote);
  std::uint32_t writer_id(std::uint64_t block_linear, unsigned thread) const {
    return static_cast<std::uint32_t>(block_linear * threads_per_block_ + thread + 1);
  }

  // When the launch ends without a failure: its facts, for take_evidence (evidence_words.cpp).
  void finish();

 private:
  struct Shadow {
    std::uint32_t* writers = nullptr;  // per 4-byte word: the lowest thread that wrote it, + 1
    std::size_t words = 0;
  };
  struct Aliasing {
    std::tuple<std::size_t, std::size_t> key{~std::size_t{0}, 0};  // region, word
    // The lowest element's writers, with the line each wrote it at (null: not seen, the first).
    std::map<std::uint32_t, std::pair<const char*, int>> writers;
    std::set<std::tuple<std::size_t, std::size_t>> elements;  // every aliased word, capped
  };
  void conflict(std::size_t region, std::size_t word, std::uint32_t seen, std::uint32_t writer,
                const AccessSite& site);
  std::vector<EvidenceFact> facts() const;
  std::optional<EvidenceFact> aliasing_fact() const;
  std::optional<EvidenceFact> idle_fact() const;
  std::optional<EvidenceFact> uninitialised_fact() const;
  uint3 thread_of(std::uint32_t writer) const;
  uint3 block_of(std::uint32_t writer) const;

  const LaunchRequest& request_;
  const CheckedRegion* regions_;
  bool enabled_;
  std::uint64_t blocks_;
  std::uint64_t threads_per_block_;
  std::vector<Shadow> shadows_;  // empty: writes are not watched

  std::mutex mutex_;
  std::map<std::tuple<std::string, int, int, std::string>, SiteMeasure> sites_;
  Aliasing aliasing_;
  std::optional<std::tuple<std::uint64_t, std::uint64_t>> uninitialised_key_;
  UninitialisedRead uninitialised_;
  std::uint64_t uninitialised_words_ = 0;
  std::atomic<std::uint64_t> idle_blocks_{0};
  std::atomic<std::uint64_t> idle_threads_{0};
  std::atomic<std::uint64_t> busy_blocks_{0};
};

// The facts of finished launches, until take_evidence (evidence_words.cpp).
void keep_evidence(std::vector<EvidenceFact> facts);

// Words shared by the facts (evidence_words.cpp).
// "1,024 floats", "64 ints": in the buffer's element type where known, else 4 bytes are floats.
std::string element_text(std::size_t bytes, long long count, const std::string& element = "");

}  // namespace emu::detail
