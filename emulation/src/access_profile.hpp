// A profiled block's accesses (evidence.hpp), grouped into warp-wide requests: per site (file,
// line, read or write, buffer or shared array), the k-th execution by each lane of a warp is the
// warp's k-th request there (lanes do not run in lockstep here). When the block ends each request
// is measured (sectors of global memory, bank conflicts of shared memory) and the sums go to the
// launch (LaunchEvidence::add_site).
#pragma once

#include <cstdint>
#include <vector>

#include "evidence.hpp"

namespace emu::detail {

class AccessProfile {
 public:
  void start_block(unsigned threads, bool enabled);
  bool enabled() const { return enabled_; }
  // `base`: the buffer's or the shared array's first byte; `shape`: a static array's, else null;
  // `element`: a buffer's element type as the lab named it ("float", "int"), else null.
  void note(unsigned thread, const char* base, const char* name, bool shared,
            const SharedArrayShape* shape, const char* address, std::size_t bytes,
            const AccessSite& site, const char* element = nullptr);
  void end_block(LaunchEvidence& launch);

 private:
  struct Site {
    const char* file;
    int line;
    Access access;
    const char* base;
    const char* name;
    bool shared;
    const SharedArrayShape* shape;
    const char* element;                   // a buffer's element type, or null
    std::size_t bytes;                     // of its first access
    std::vector<std::uint32_t> executed;   // per thread: its executions of the site so far
    std::vector<std::uintptr_t> requests;  // [warp][k][lane]: the lane's address, 0: none
  };
  Site& site(const char* base, const char* name, bool shared, const SharedArrayShape* shape,
             const char* element, std::size_t bytes, const AccessSite& where);
  static SiteMeasure described(const Site& site);
  SiteMeasure measure(const Site& site) const;

  std::vector<Site> sites_;
  std::size_t last_ = 0;  // the site of the latest access: most accesses repeat it
  unsigned threads_ = 0;
  bool enabled_ = false;
};

// One warp-wide request, measured (access_profile.cpp): its lanes' addresses, `bytes` each.
unsigned distinct_sectors(const std::uintptr_t* addresses, unsigned count, std::size_t bytes);
// The largest number of distinct 4-byte words in one bank, over the request's phases (a phase
// of 32 words: 32 lanes of 4 bytes, 16 of 8); `offsets` from the shared memory's start.
unsigned bank_conflict_degree(const std::uintptr_t* offsets, unsigned count, std::size_t bytes);

}  // namespace emu::detail
