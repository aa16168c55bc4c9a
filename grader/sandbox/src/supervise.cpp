#include "supervise.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <optional>
#include <vector>

#include "output_buffers.hpp"

namespace sandbox {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kTick = std::chrono::milliseconds(10);
constexpr auto kDrainGrace = std::chrono::seconds(1);
constexpr std::size_t kStatusCap = 64 << 10;

// Reads what is there; resets the fd at end of file or on an error.
template <typename Sink>
void read_some(UniqueFd& fd, Sink&& sink) {
  char buffer[64 << 10];
  const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
  if (got > 0) {
    sink(std::string_view(buffer, static_cast<std::size_t>(got)));
  } else if (got == 0 || errno != EINTR) {
    fd.reset();
  }
}

// A reason from a callback that threw (the run is stopped: a grader bug must not leave it running).
std::string thrown_reason(const char* callback) {
  try {
    throw;
  } catch (const std::exception& e) {
    return std::string(callback) + " threw: " + e.what();
  } catch (...) {
    return std::string(callback) + " threw";
  }
}

// One supervision: the child's streams, what has come of it so far, and the limits.
class Supervisor {
 public:
  Supervisor(pid_t child, Clock::time_point start, Streams streams, const Channel& channel,
             double time_limit_s, std::uint64_t output_cap, const std::function<void()>& kill_all)
      : child_(child),
        start_(start),
        streams_(std::move(streams)),
        channel_(channel),
        time_limit_s_(time_limit_s),
        kill_all_(kill_all),
        output_(output_cap),
        lines_(
            output_cap, channel.on_line ? channel.on_line : [](std::string_view) {}),
        unsent_(channel.input) {}

  Supervised run() {
    while (true) {
      serve_streams();
      const auto now = Clock::now();
      if (!ended_) watch_child(now);
      const bool drained = !streams_.output && !streams_.lines && !streams_.bwrap_status;
      if (ended_ && (drained || now - *ended_ > kDrainGrace)) break;
    }
    out_.seconds = std::chrono::duration<double>(*ended_ - start_).count();
    out_.output = std::move(output_.text());
    out_.output_truncated = output_.truncated();
    out_.channel_truncated = lines_.truncated();
    return std::move(out_);
  }

 private:
  Clock::time_point deadline() const {
    const double uncounted = channel_.uncounted_seconds ? channel_.uncounted_seconds() : 0;
    return start_ + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(time_limit_s_ + uncounted));
  }

  void kill_once() {
    if (!killed_) kill_all_();
    killed_ = true;
  }

  void stop(std::string reason) {
    if (out_.stopped || out_.timed_out || ended_) return;
    out_.stopped = true;
    out_.stop_reason = std::move(reason);
    kill_once();
  }

  // One poll() of the streams (at most a tick), and what is ready read or written.
  void serve_streams() {
    std::vector<pollfd> polled;
    const auto watch = [&polled](const UniqueFd& fd, short events) {
      if (fd) polled.push_back({fd.get(), events, 0});
    };
    watch(streams_.output, POLLIN);
    watch(streams_.lines, POLLIN);
    watch(streams_.bwrap_status, POLLIN);
    if (channel_.more_input && streams_.input && unsent_.empty()) {
      try {
        unsent_ = channel_.more_input();
      } catch (...) {
        stop(thrown_reason("Channel::more_input"));
      }
    }
    if (!unsent_.empty()) watch(streams_.input, POLLOUT);
    if (::poll(polled.data(), polled.size(), static_cast<int>(kTick.count())) < 0 &&
        errno != EINTR) {
      polled.clear();
    }
    for (const auto& p : polled) {
      if (p.revents != 0) serve(p.fd);
    }
  }

  void serve(int fd) {
    if (fd == streams_.output.get()) {
      read_some(streams_.output, [&](std::string_view data) {
        output_.append(data);
        if (!channel_.on_output) return;
        try {
          channel_.on_output(data);
        } catch (...) {
          stop(thrown_reason("Channel::on_output"));
        }
      });
    } else if (fd == streams_.lines.get()) {
      read_some(streams_.lines, [&](std::string_view data) {
        try {
          lines_.feed(data);
        } catch (...) {
          stop(thrown_reason("Channel::on_line"));
        }
      });
    } else if (fd == streams_.bwrap_status.get()) {
      read_some(streams_.bwrap_status, [&](std::string_view data) {
        if (out_.bwrap_status.size() < kStatusCap) out_.bwrap_status.append(data);
      });
    } else if (fd == streams_.input.get()) {
      send_input();
    }
  }

  void send_input() {
    // A socket, so that a child that closed its end gives EPIPE here, not SIGPIPE.
    const ssize_t sent =
        ::send(streams_.input.get(), unsent_.data(), unsent_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) unsent_.erase(0, static_cast<std::size_t>(sent));
    if ((unsent_.empty() && !channel_.more_input) ||
        (sent < 0 && errno != EAGAIN && errno != EINTR)) {
      streams_.input.reset();  // end of file for the child
    }
  }

  // Has the child ended, run out of time, or should it stop?
  void watch_child(Clock::time_point now) {
    int status = 0;
    const pid_t reaped = ::waitpid(child_, &status, WNOHANG);
    if (reaped == child_ || (reaped < 0 && errno == ECHILD)) {
      // ECHILD: the grader ignores SIGCHLD, so the kernel reaped it; its status is lost.
      out_.wait_status = reaped == child_ ? status : 255 << 8;
      ended_ = now;
      kill_once();  // what it left behind
      streams_.input.reset();
    } else if (now >= deadline()) {
      if (!out_.stopped && !out_.timed_out) {
        out_.timed_out = true;
        kill_once();
      }
    } else if (channel_.should_stop && !killed_) {
      try {
        if (auto reason = channel_.should_stop()) stop(std::move(*reason));
      } catch (...) {
        stop(thrown_reason("Channel::should_stop"));
      }
    }
  }

  const pid_t child_;
  const Clock::time_point start_;
  Streams streams_;
  const Channel& channel_;
  const double time_limit_s_;
  const std::function<void()>& kill_all_;
  Supervised out_;
  HeadBuffer output_;
  LineSplitter lines_;
  std::string unsent_;
  std::optional<Clock::time_point> ended_;  // when the child was reaped
  bool killed_ = false;
};

}  // namespace

Supervised supervise(pid_t child, Clock::time_point start, Streams streams, const Channel& channel,
                     double time_limit_s, std::uint64_t output_cap,
                     const std::function<void()>& kill_all) {
  return Supervisor(child, start, std::move(streams), channel, time_limit_s, output_cap, kill_all)
      .run();
}

}  // namespace sandbox
