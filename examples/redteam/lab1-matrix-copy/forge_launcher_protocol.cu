// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: forged launcher messages on fd 3: unknown ops, foreign regions, desync, oversized frames
//
// fd 3 of the launcher is its socket to the lab program (launcher/protocol.hpp: a 4-byte
// little-endian length, then MessagePack). The stand-in's main() says hello honestly; at the
// first contract call this code takes the socket over and never returns: it answers every
// request itself, in turn with ops of kinds that do not exist ("verdict", "download"), a copy
// from a region that is not an argument of the call, a memset of 2^40 bytes before the output,
// a launch of a kernel that is in no module, two answers for one request, an "error" answer, a
// second hello, and a frame header of 4 GiB. Nothing is ever copied from the input.
// Why it must fail: the lab program trusts nothing it reads on the socket: unknown ops, addresses
// outside the call's buffers, unknown kernels, malformed or oversized frames and "error" answers
// each fail the call; it reads one answer per request, so a desync fails the next call.
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "lab1.h"

namespace {

constexpr int kSocket = 3;
constexpr std::uint64_t kFakeBase = std::uint64_t{0x4000} << 48;  // launcher/protocol.hpp
std::uint64_t region_of(std::uint64_t a) { return (a - kFakeBase) >> 36; }
std::uint64_t fake(std::uint64_t region, std::uint64_t offset) {
  return kFakeBase + (region << 36) + offset;
}

// Just enough MessagePack (big-endian sizes; nlohmann reads any width).
struct Pack {
  std::string out;
  void be(std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>(v >> (8 * i)));
  }
  Pack& map(unsigned n) { out.push_back('\xDE'); be(n, 2); return *this; }
  Pack& array(unsigned n) { out.push_back('\xDD'); be(n, 4); return *this; }
  Pack& bytes(char tag, const std::string& s) {
    out.push_back(tag);
    be(s.size(), 4);
    out += s;
    return *this;
  }
  Pack& str(const std::string& s) { return bytes('\xDB', s); }
  Pack& bin(const std::string& s) { return bytes('\xC6', s); }
  Pack& num(std::uint64_t v) { out.push_back('\xCF'); be(v, 8); return *this; }
};

void send_frame(const std::string& body, std::uint32_t claimed) {
  char header[4];
  std::memcpy(header, &claimed, 4);  // x86-64: little-endian, as wire.cpp writes it
  if (write(kSocket, header, 4) != 4 || write(kSocket, body.data(), body.size()) < 0) _exit(0);
}
void send(const Pack& p) { send_frame(p.out, static_cast<std::uint32_t>(p.out.size())); }

bool read_exactly(char* data, std::size_t size) {
  return recv(kSocket, data, size, MSG_WAITALL) == static_cast<ssize_t>(size);
}

// The next request's "args" (bin 8: nlohmann writes short binaries so), or false at the end.
bool next_request(std::string& args) {
  std::uint32_t size = 0;
  if (!read_exactly(reinterpret_cast<char*>(&size), 4) || size > (1u << 20)) return false;
  std::string body(size, '\0');
  if (!read_exactly(&body[0], size)) return false;
  const std::size_t at = body.find("\xA4" "args\xC4");
  if (at == std::string::npos) return false;
  args = body.substr(at + 7, static_cast<unsigned char>(body[at + 6]));
  return args.size() >= 16;
}

void answer(int turn, std::uint64_t out, std::uint64_t in, std::uint64_t bytes) {
  Pack p;
  switch (turn % 8) {
    case 0:  // ops that do not exist
      p.map(1).str("ops").array(2);
      p.map(3).str("k").str("verdict").str("check").str("CopyMatrix.Correctness");
      p.str("verdict").str("pass");
      p.map(3).str("k").str("download").str("from").num(in).str("bytes").num(bytes);
      return send(p);
    case 1:  // a copy from a region that is not an argument of this call
      p.map(1).str("ops").array(1).map(4).str("k").str("copy").str("to").num(out);
      p.str("from").num(fake(region_of(out) + 1, 0)).str("bytes").num(bytes);
      return send(p);
    case 2:  // 2^40 bytes of zeros, starting before the output
      p.map(1).str("ops").array(1).map(4).str("k").str("memset").str("address").num(out - 4096);
      p.str("value").num(0).str("bytes").num(std::uint64_t{1} << 40);
      return send(p);
    case 3:  // a kernel that is in no module the launcher sent
      p.map(1).str("ops").array(1).map(6).str("k").str("launch");
      p.str("kernel").str("0:harness_pass").str("grid").array(3).num(65535).num(65535).num(65535);
      p.str("block").array(3).num(1024).num(1).num(1).str("shared").num(1u << 30);
      p.str("params").bin(std::string(reinterpret_cast<char*>(&out), 8));
      return send(p);
    case 4: {  // two answers for one request: the second is read as the next call's
      Pack empty;
      empty.map(1).str("ops").array(0);
      send(empty);
      return send(empty);
    }
    case 5:  // an error instead of ops: not "not attempted", a failure
      p.map(1).str("error").str("no function copy_matrix (not attempted)");
      return send(p);
    case 6:  // a second hello, defining nothing
      p.map(1).str("hello").map(5).str("fatbins").array(0).str("kernels").array(0);
      p.str("variables").array(0).str("defines").array(0).str("early_ops").array(0);
      return send(p);
    default:  // a frame header of 4 GiB - 16 and a few bytes
      return send_frame("\x81\xA3ops\x90", 0xFFFFFFF0u);
  }
}

[[noreturn]] void take_over(const float* in, float* out, int rows, int cols) {
  const std::uint64_t bytes = std::uint64_t{4} * rows * cols;
  int turn = 0;
  answer(turn++, reinterpret_cast<std::uint64_t>(out), reinterpret_cast<std::uint64_t>(in),
         bytes);
  std::string args;
  while (next_request(args)) {
    std::uint64_t i = 0, o = 0;
    std::memcpy(&i, args.data(), 8);
    std::memcpy(&o, args.data() + 8, 8);
    answer(turn++, o, i, bytes);
  }
  _exit(0);
}

}  // namespace

void copy_matrix(const float* in, float* out, int rows, int cols) {
  take_over(in, out, rows, cols);
}
void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  take_over(in, out, rows, cols);
}
