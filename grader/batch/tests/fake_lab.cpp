// A stand-in for a lab program, for testing how labgrade batch judges what a program does. It
// speaks the grader channel like the harness, then misbehaves as FAKE_SCENARIO says.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "contract/exit_status.hpp"
#include "contract/grader_channel.hpp"

namespace {

std::vector<std::string> selected_checks(int argc, char** argv) {
  std::vector<std::string> checks;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::string flag = "--gtest_filter=";
    if (arg.rfind(flag, 0) != 0) continue;
    std::string rest = arg.substr(flag.size());
    for (std::size_t at; (at = rest.find(':')) != std::string::npos; rest.erase(0, at + 1)) {
      checks.push_back(rest.substr(0, at));
    }
    checks.push_back(rest);
  }
  return checks;
}

contract::CheckRecord record_for(const std::string& check, contract::Verdict verdict,
                                 const std::string& digest) {
  contract::CheckRecord record;
  record.lab = "lab0";
  record.check = check;
  record.kind = check.find("Speed") != std::string::npos ? "speed" : "correctness";
  record.verdict = verdict;
  record.fraction = verdict == contract::Verdict::pass ? 1 : 0;
  contract::CaseResult one;
  one.name = "integers 64";
  one.verdict = verdict;
  one.output_digest = digest;
  record.cases.push_back(one);
  return record;
}

}  // namespace

int main(int argc, char** argv) {
  const char* env = std::getenv("FAKE_SCENARIO");
  const std::string scenario = env ? env : "honest";
  if (scenario == "exit_zero_early") return 0;  // like exit(0) from a static initializer
  if (scenario == "prints_passed") {
    std::printf("[  PASSED  ] 3 tests.\n[  SKIPPED ] 0 tests\n");
    return 0;
  }
  if (scenario == "no_gpu") return 77;
  if (scenario == "bad_setup") {
    std::printf("error: the spec says no\n");
    return 2;
  }
  if (scenario == "hang_before_main") pause();  // like an endless static initializer
  auto channel = contract::GraderChannel::open_from_environment();
  if (!channel) return 2;
  channel->wait_for_turn();  // when the grader asked for it, as the harness does
  const auto checks = selected_checks(argc, argv);
  bool failed = false;
  for (const auto& check : checks) {
    // Silent between checks while the machine is shared (a program starved of the CPU).
    if (scenario == "silent_unless_alone" && check == "Lab.Second" &&
        ::access(std::getenv("FAKE_ALONE_FILE"), F_OK) != 0) {
      pause();
    }
    channel->send_started(check);
    // FAKE_TURN_FILE: made by the test's take_turn; a check that runs before it fails.
    if (const char* turn = std::getenv("FAKE_TURN_FILE"); turn && ::access(turn, F_OK) != 0) {
      channel->send_record(record_for(check, contract::Verdict::fail, "before its turn"));
      failed = true;
      continue;
    }
    if (scenario == "crash_second" && check == "Lab.Second") std::raise(SIGSEGV);
    if (scenario == "hang_first" && check == "Lab.First") pause();
    // Too slow while the machine is shared (FAKE_ALONE_FILE absent), in time when alone.
    if (scenario == "slow_unless_alone" && check == "Lab.First" &&
        ::access(std::getenv("FAKE_ALONE_FILE"), F_OK) != 0) {
      pause();
    }
    if (scenario == "hang_all") pause();
    // The GPU's memory ran out while the machine was shared (FAKE_ALONE_FILE absent).
    if (scenario == "out_of_memory_unless_alone" && check == "Lab.Second" &&
        ::access(std::getenv("FAKE_ALONE_FILE"), F_OK) != 0) {
      auto record = record_for(check, contract::Verdict::fail, "right");
      record.reason =
          "the lab program's cudaMalloc failed: cudaErrorMemoryAllocation (out of memory)";
      channel->send_record(record);
      failed = true;
      continue;
    }
    if (scenario == "exit_in_second" && check == "Lab.Second") std::exit(0);
    // The host refused the lab program a thread (harness end_if_refused_by_host).
    if (scenario == "host_refused_in_second" && check == "Lab.Second") {
      return contract::exit_status::host_refused;
    }
    if (scenario == "forge_nonce") {
      // Records stamped with a made-up nonce, as a kernel that writes to the pipe itself would.
      const auto line =
          contract::encode_record("guessed", record_for(check, contract::Verdict::pass, "right")) +
          "\n";
      if (write(4, line.data(), line.size()) < 0) return 3;
      continue;
    }
    if (scenario == "verdict_exit") {
      // Every record says FAKE_VERDICT, then the program exits with FAKE_EXIT.
      channel->send_record(
          record_for(check, contract::verdict_from_string(std::getenv("FAKE_VERDICT")), "right"));
      continue;
    }
    if (scenario == "emulation_finds_second" && check == "Lab.Second") {
      // As the emulation's lab program words a bounds check's finding (harness
      // apply_memory_errors).
      auto record = record_for(check, contract::Verdict::fail, "right");
      record.backend = "emulation: fake";
      record.reason =
          "the CPU emulation found an access outside the memory it was given in your kernel (the "
          "results can look right, but the code is wrong): kernel.cu:18 (K), thread (0,2,0) of "
          "block (0,0,0): invalid read of 4 bytes at A + 8 bytes (A[2])";
      record.notes = {"device buffer A at 0x1000, 4 bytes",
                      "kernel.cu:19 (K), thread (0,1,0) of block (0,0,0): invalid read"};
      channel->send_record(record);
      failed = true;
      continue;
    }
    const bool pass = scenario != "lie_exit";
    failed = failed || !pass;
    const std::string digest = scenario == "wrong_digest" ? "wrong" : "right";
    channel->send_record(
        record_for(check, pass ? contract::Verdict::pass : contract::Verdict::fail, digest));
  }
  if (scenario == "lie_exit") return 0;  // says 0 although a check failed
  if (scenario == "verdict_exit") return std::atoi(std::getenv("FAKE_EXIT"));
  return failed ? 1 : 0;
}
