// Which of a block's checks watch it (the race check, the evidence engine: evidence.hpp), and
// what the block gives the launch's evidence when it ends.
#include "block_runner.hpp"
#include "emu/device.hpp"
#include "state.hpp"

namespace emu::detail {

void BlockRunner::start_checks() {
  // The race check makes a block several times slower: it watches every block of a small launch
  // and, of a large one, the first blocks and the last (an edge block of an any-size kernel), the
  // same at every run, as the GPU's racecheck pass runs a check's smallest case only. The
  // evidence engine profiles fewer (evidence.hpp).
  const std::uint64_t blocks = 1ULL * gridDim.x * gridDim.y * gridDim.z;
  const std::uint64_t linear = block_linear();
  race_check_.start_block(
      threads_, job_->race_check && (linear < kRaceCheckedBlocks || linear + 1 == blocks));
  const bool profiled = job_->evidence && job_->evidence->profiles(linear);
  profile_.start_block(threads_, profiled);
  initcheck_.start_block(threads_, profiled);
  thread_wrote_.assign(threads_, 0);
  threads_wrote_ = 0;
}

// The bounds checks' view of this block: the launch's buffers and the dynamic shared memory the
// launch gave (the buffer behind it is the largest any launch may have); and who watches it.
AccessBounds BlockRunner::bounds_for_block() const {
  const char* dynamic = static_cast<const char*>(dynamic_shared_base());
  AccessBounds bounds{job_->regions, job_->region_count, dynamic,
                      dynamic + job_->request->dynamic_shared_bytes, dynamic + kMaxDynamicShared};
  bounds.race_watch = race_check_.enabled() || profile_.enabled();
  bounds.profile = profile_.enabled();
  bounds.writes_watched = job_->evidence && job_->evidence->watches_writes();
  return bounds;
}

void BlockRunner::end_race_interval() {
  race_check_.end_interval({job_->number, block_linear(), block_, job_->request->block,
                            job_->request->site.name, barrier_round_});
  if (initcheck_.enabled()) {
    initcheck_.end_interval(*job_->evidence, block_linear(), block_, job_->request->block,
                            barrier_round_);
  }
}

void BlockRunner::end_block_evidence() {
  if (!job_->evidence) return;
  job_->evidence->count_block(threads_, threads_wrote_);
  profile_.end_block(*job_->evidence);
}

}  // namespace emu::detail
