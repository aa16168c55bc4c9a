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

}  // namespace

Supervised supervise(pid_t child, Clock::time_point start, Streams streams, const Channel& channel,
                     double time_limit_s, std::uint64_t output_cap,
                     const std::function<void()>& kill_all) {
  Supervised out;
  HeadBuffer output(output_cap);
  LineSplitter lines(
      output_cap, channel.on_line ? channel.on_line : [](std::string_view) {});
  std::string unsent = channel.input;
  const auto deadline = [&] {
    const double uncounted = channel.uncounted_seconds ? channel.uncounted_seconds() : 0;
    return start + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(time_limit_s + uncounted));
  };
  std::optional<Clock::time_point> ended;  // when the child was reaped
  bool killed = false;
  const auto kill_once = [&] {
    if (!killed) kill_all();
    killed = true;
  };
  const auto stop = [&](std::string reason) {
    if (out.stopped || out.timed_out || ended) return;
    out.stopped = true;
    out.stop_reason = std::move(reason);
    kill_once();
  };

  while (true) {
    std::vector<pollfd> polled;
    const auto watch = [&polled](const UniqueFd& fd, short events) {
      if (fd) polled.push_back({fd.get(), events, 0});
    };
    watch(streams.output, POLLIN);
    watch(streams.lines, POLLIN);
    watch(streams.bwrap_status, POLLIN);
    if (channel.more_input && streams.input && unsent.empty()) {
      try {
        unsent = channel.more_input();
      } catch (...) {
        stop(thrown_reason("Channel::more_input"));
      }
    }
    if (!unsent.empty()) watch(streams.input, POLLOUT);
    if (::poll(polled.data(), polled.size(), static_cast<int>(kTick.count())) < 0 &&
        errno != EINTR) {
      polled.clear();
    }
    for (const auto& p : polled) {
      if (p.revents == 0) continue;
      if (p.fd == streams.output.get()) {
        read_some(streams.output, [&](std::string_view data) {
          output.append(data);
          if (!channel.on_output) return;
          try {
            channel.on_output(data);
          } catch (...) {
            stop(thrown_reason("Channel::on_output"));
          }
        });
      } else if (p.fd == streams.lines.get()) {
        read_some(streams.lines, [&](std::string_view data) {
          try {
            lines.feed(data);
          } catch (...) {
            stop(thrown_reason("Channel::on_line"));
          }
        });
      } else if (p.fd == streams.bwrap_status.get()) {
        read_some(streams.bwrap_status, [&](std::string_view data) {
          if (out.bwrap_status.size() < kStatusCap) out.bwrap_status.append(data);
        });
      } else if (p.fd == streams.input.get()) {
        // A socket, so that a child that closed its end gives EPIPE here, not SIGPIPE.
        const ssize_t sent =
            ::send(streams.input.get(), unsent.data(), unsent.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0) unsent.erase(0, static_cast<std::size_t>(sent));
        if ((unsent.empty() && !channel.more_input) ||
            (sent < 0 && errno != EAGAIN && errno != EINTR)) {
          streams.input.reset();  // end of file for the child
        }
      }
    }

    const auto now = Clock::now();
    if (!ended) {
      int status = 0;
      const pid_t reaped = ::waitpid(child, &status, WNOHANG);
      if (reaped == child || (reaped < 0 && errno == ECHILD)) {
        // ECHILD: the grader ignores SIGCHLD, so the kernel reaped it; its status is lost.
        out.wait_status = reaped == child ? status : 255 << 8;
        ended = now;
        kill_once();  // what it left behind
        streams.input.reset();
      } else if (now >= deadline()) {
        if (!out.stopped && !out.timed_out) {
          out.timed_out = true;
          kill_once();
        }
      } else if (channel.should_stop && !killed) {
        try {
          if (auto reason = channel.should_stop()) stop(std::move(*reason));
        } catch (...) {
          stop(thrown_reason("Channel::should_stop"));
        }
      }
    }
    const bool drained = !streams.output && !streams.lines && !streams.bwrap_status;
    if (ended && (drained || now - *ended > kDrainGrace)) break;
  }

  out.seconds = std::chrono::duration<double>(*ended - start).count();
  out.output = std::move(output.text());
  out.output_truncated = output.truncated();
  out.channel_truncated = lines.truncated();
  return out;
}

}  // namespace sandbox
