// Warp functions as rendezvous of the block's fibers (emu/warp.hpp, block_runner.hpp): a lane's
// arrival, the completion of a mask's lanes, __activemask(), and what the messages say when lanes
// of a mask are elsewhere.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "block_runner.hpp"
#include "warp_ops.hpp"

namespace emu::detail {
namespace {

bool same_file(const char* a, const char* b) {
  return a == b || (a && b && std::strcmp(a, b) == 0);
}

// The same warp function: the same one at the same line. __syncwarp() calls meet wherever they
// are, as on a GPU since Volta (the warp's barrier does not care where it is called).
bool same_function(const WarpCall& a, const WarpCall& b) {
  if (a.op != b.op) return false;
  return a.op == WarpOp::syncwarp || (a.line == b.line && same_file(a.file, b.file));
}

std::string site(const char* file, int line) {
  return short_file(file) + ":" + std::to_string(line);
}

constexpr const char* kRule =
    "every lane that the mask names must call the same warp function with the same mask, and "
    "every lane that calls it must be in the mask (on a GPU this hangs or gives wrong results)";

BlockFailure launch_failure(std::string message) {
  return BlockFailure{cudaErrorLaunchFailure, std::move(message)};
}

// Why lanes named in a warp function's mask did not join its call.
enum class Absence { missing, returned, at_barrier, elsewhere, other_mask };
struct AbsentLanes {
  Absence why;
  std::string detail;  // where they wait, or their mask
  unsigned lanes;
};

// "which had returned without reaching it", ...: the words after the lanes.
std::string absence_words(const AbsentLanes& reason, unsigned threads, unsigned warp,
                          unsigned count) {
  const bool one = std::popcount(reason.lanes) == 1;
  switch (reason.why) {
    case Absence::missing:
      return std::string(one ? "which does not exist" : "which do not exist") + " (the block has " +
             std::to_string(threads) + " threads, so warp " + std::to_string(warp) + " has " +
             std::to_string(count) + " lanes)";
    case Absence::returned:
      return "which had returned without reaching it";
    case Absence::at_barrier:
      return std::string(one ? "which waits" : "which wait") + " at __syncthreads() at " +
             reason.detail;
    case Absence::elsewhere:
      return std::string(one ? "which waits" : "which wait") + " at " + reason.detail + " instead";
    case Absence::other_mask:
      return std::string(one ? "which calls" : "which call") + " it with the mask " + reason.detail;
  }
  return "";
}

}  // namespace

unsigned BlockRunner::lanes_in_warp(unsigned warp) const {
  return std::min(32u, threads_ - warp * 32);
}

std::string BlockRunner::warp_where(const Fiber& fiber) const {
  return std::string(warp_op_name(fiber.call.op)) + " at " +
         site(fiber.call.file, fiber.call.line) + " in warp " + std::to_string(fiber.thread / 32) +
         " of " + where();
}

void BlockRunner::arrive(Fiber* fiber) {
  const WarpCall& call = fiber->call;
  const unsigned warp = fiber->thread / 32;
  const unsigned lane = fiber->thread % 32;
  const unsigned bit = 1u << lane;
  if (call.op == WarpOp::activemask) {
    activemask_waiting_.push_back(fiber);
    return;
  }
  if (!(call.mask & bit)) {
    failure_ =
        launch_failure(warp_where(*fiber) + ": lane " + std::to_string(lane) +
                       " calls it with the mask " + mask_text(call.mask) +
                       ", which does not name lane " + std::to_string(lane) + " itself; " + kRule);
    return;
  }
  if (is_shuffle(call.op) && !valid_width(call.width)) {
    failure_ =
        launch_failure(warp_where(*fiber) + ": lane " + std::to_string(lane) + " gives the width " +
                       std::to_string(call.width) + ", which is not a power of 2 from 1 to 32");
    return;
  }
  WarpLanes& lanes = warps_[warp];
  lanes.waiting |= bit;
  ++warp_waiters_;
  // The arrival completes its own mask's group, or the group of a lane whose (different) mask
  // names it: complete() then finds the difference.
  if ((call.mask & ~lanes.waiting) == 0) {
    complete(warp, lane);
    return;
  }
  for (unsigned others = lanes.waiting & ~bit; others != 0; others &= others - 1) {
    const auto other = static_cast<unsigned>(std::countr_zero(others));
    const unsigned mask = lane_fiber(warp, other)->call.mask;
    if ((mask & bit) && (mask & ~lanes.waiting) == 0) {
      complete(warp, other);
      return;
    }
  }
}

void BlockRunner::complete(unsigned warp, unsigned lead) {
  const Fiber& first = *lane_fiber(warp, lead);
  const unsigned mask = first.call.mask;
  WarpCalls calls{};
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    const Fiber& fiber = *lane_fiber(warp, lane);
    if (fiber.call.mask != mask || !same_function(fiber.call, first.call)) {
      // Told from the lowest lane's side, so that every schedule gives the same message.
      const Fiber* subject = lane_fiber(warp, static_cast<unsigned>(std::countr_zero(mask)));
      std::string absent = absent_lanes(*subject);
      if (absent.empty()) {
        subject = &first;
        absent = absent_lanes(first);
      }
      failure_ = launch_failure(warp_where(*subject) + ": the mask " +
                                mask_text(subject->call.mask) + " names " + absent + "; " + kRule);
      return;
    }
    calls[lane] = &fiber.call;
  }
  group_.clear();
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    Fiber* fiber = lane_fiber(warp, lane);
    fiber->result = warp_result(lane, mask, calls);
    // Shared accesses on either side of a __syncwarp() are ordered (the race check).
    if (first.call.op == WarpOp::syncwarp) race_check_.passed_syncwarp(fiber->thread);
    group_.push_back(fiber);
  }
  warps_[warp].waiting &= ~mask;
  warp_waiters_ -= static_cast<unsigned>(std::popcount(mask));
  make_ready(group_);
}

// Called when no thread can run on: each waiting lane gets the lanes of its warp that wait at the
// same __activemask() call, those a GPU would run together there.
void BlockRunner::answer_activemask() {
  auto& waiting = activemask_waiting_;
  std::sort(waiting.begin(), waiting.end(),
            [](const Fiber* a, const Fiber* b) { return a->thread < b->thread; });
  for (std::size_t begin = 0; begin < waiting.size();) {
    const unsigned warp = waiting[begin]->thread / 32;
    std::size_t end = begin;
    while (end < waiting.size() && waiting[end]->thread / 32 == warp) ++end;
    for (std::size_t i = begin; i < end; ++i) {
      unsigned mask = 0;
      for (std::size_t j = begin; j < end; ++j) {
        if (same_function(waiting[i]->call, waiting[j]->call))
          mask |= 1u << (waiting[j]->thread % 32);
      }
      waiting[i]->result = mask;
    }
    begin = end;
  }
  group_.assign(waiting.begin(), waiting.end());
  waiting.clear();
  make_ready(group_);
}

// No thread can run on, and lanes wait at a warp function: the first of them says which lanes of
// its mask are elsewhere.
std::optional<BlockFailure> BlockRunner::stuck_warp_failure() const {
  for (unsigned warp = 0; warp < warps_.size(); ++warp) {
    const unsigned waiting = warps_[warp].waiting;
    if (waiting == 0) continue;
    const Fiber& lead = *lane_fiber(warp, static_cast<unsigned>(std::countr_zero(waiting)));
    std::string absent = absent_lanes(lead);
    if (absent.empty()) absent = "lanes that never all arrived";
    return launch_failure(warp_where(lead) + ": the mask " + mask_text(lead.call.mask) + " names " +
                          absent + "; " + kRule);
  }
  return std::nullopt;
}

// "lanes 20-31, which had returned without reaching it; lane 3, which waits at ..." for the
// lanes of lead's mask that do not wait at lead's warp function with lead's mask.
std::string BlockRunner::absent_lanes(const Fiber& lead) const {
  std::vector<AbsentLanes> reasons;  // in the order of their first lane
  const auto add = [&](Absence why, std::string detail, unsigned lane) {
    auto found = std::find_if(reasons.begin(), reasons.end(), [&](const AbsentLanes& reason) {
      return reason.why == why && reason.detail == detail;
    });
    if (found == reasons.end()) found = reasons.insert(reasons.end(), {why, std::move(detail), 0u});
    found->lanes |= 1u << lane;
  };
  const unsigned warp = lead.thread / 32;
  const unsigned count = lanes_in_warp(warp);
  for (unsigned lanes = lead.call.mask; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    const Fiber* fiber = lane < count ? lane_fiber(warp, lane) : nullptr;
    if (lane >= count) {
      add(Absence::missing, "", lane);
    } else if (warps_[warp].exited >> lane & 1u) {
      add(Absence::returned, "", lane);
    } else if (!fiber) {
      continue;
    } else if (fiber->wait == Wait::barrier) {
      add(Absence::at_barrier, site(fiber->file, fiber->line), lane);
    } else if (fiber->wait == Wait::warp && !same_function(fiber->call, lead.call)) {
      add(Absence::elsewhere,
          std::string(warp_op_name(fiber->call.op)) + " at " +
              site(fiber->call.file, fiber->call.line),
          lane);
    } else if (fiber->wait == Wait::warp && fiber->call.mask != lead.call.mask) {
      add(Absence::other_mask, mask_text(fiber->call.mask), lane);
    }
  }
  std::string text;
  for (const auto& reason : reasons) {
    if (!text.empty()) text += "; ";
    text += lanes_text(reason.lanes) + ", " + absence_words(reason, threads_, warp, count);
  }
  return text;
}

}  // namespace emu::detail
