// The one progress line of a batch: done, running, failed, and the time left at the pace so far.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace batch {

class Progress {
 public:
  explicit Progress(int total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void started() { ++running_; }
  // `failed`: not graded, or graded with problems worth a look.
  void finished(bool failed, bool from_cache);
  void stop();  // prints the final line

 private:
  void print(bool final);
  void loop();

  const int total_;
  const bool terminal_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<int> running_{0};
  std::atomic<int> done_{0};
  std::atomic<int> failed_{0};
  std::atomic<int> cached_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread printer_;
};

}  // namespace batch
