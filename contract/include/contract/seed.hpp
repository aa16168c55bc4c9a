// The run's seed, which decides every input of every check. A student's run takes LAB_SEED or
// --seed, else draws a fresh one (printed and stored in each record, so a failure can be replayed
// exactly); under labgrade the grader chooses it and sends it over the grader channel
// (contract/grader_channel.hpp): `labgrade run` by the same rule, `labgrade batch` a secret one.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace contract {

// The seed given (--seed), else LAB_SEED from the environment, else a random one of at most nine
// digits (short enough to type). Throws std::invalid_argument when the given text is not a
// non-negative integer.
std::uint64_t choose_seed(std::optional<std::string_view> given);

}  // namespace contract
