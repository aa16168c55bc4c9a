// The probe under a container's seccomp filter, for real: a child process installs a filter that
// refuses new namespaces as Docker's default profile does (clone with a CLONE_NEW* flag, unshare
// and setns get EPERM, clone3 ENOSYS so that the C library falls back to clone), runs the probe,
// and the instructor must be told it was seccomp, with the flag that lifts it. bubblewrap's own
// message is what it is on this machine, not a captured one.
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include <gtest/gtest.h>

#include "sandbox/sandbox.hpp"

namespace sandbox {
namespace {

#if defined(__x86_64__)
constexpr unsigned kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kAuditArch = AUDIT_ARCH_AARCH64;
#endif

#if defined(__x86_64__) || defined(__aarch64__)
#ifndef SYS_clone3
#define SYS_clone3 435  // the same number on every architecture; older headers lack it
#endif
constexpr unsigned kNamespaceFlags = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |
                                     CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP;

bool refuse_namespaces_like_docker() {
  sock_filter program[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 5, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_setns, 4, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 5, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      // clone: its flags are the first argument's low word (little-endian).
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, kNamespaceFlags, 0, 2),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog filter{static_cast<unsigned short>(std::size(program)), program};
  return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) == 0;
}
#endif

void write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

TEST(ProbeUnderSeccomp, ADockerLikeFilterIsNamedAsTheCauseWithItsFix) {
#if !defined(__x86_64__) && !defined(__aarch64__)
  GTEST_SKIP() << "the test's seccomp filter is written for x86-64 and aarch64";
#else
  static const Capabilities here = probe();
  if (!here.bubblewrap) GTEST_SKIP() << "bubblewrap does not work here anyway: " << here.why_not;
  int out[2];
  ASSERT_EQ(::pipe(out), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(out[0]);
    if (!refuse_namespaces_like_docker()) {
      write_all(out[1], "no filter\n");
      ::_exit(2);
    }
    const Capabilities caps = probe();
    std::string words = caps.bubblewrap ? "bubblewrap worked\n" : "";
    if (caps.bubblewrap_diagnosis) {
      words += "cause: " + caps.bubblewrap_diagnosis->cause +
               "\nfix: " + caps.bubblewrap_diagnosis->fix + "\n";
    } else {
      words += "no diagnosis: " + caps.why_not + "\n";
    }
    write_all(out[1], words);
    ::_exit(0);
  }
  ::close(out[1]);
  std::string words;
  char buffer[4096];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) > 0;) words.append(buffer, n);
  ::close(out[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << words;
  EXPECT_NE(words.find("cause: "), std::string::npos) << words;
  EXPECT_NE(words.find("Seccomp: 2"), std::string::npos) << words;
  EXPECT_NE(words.find("(bwrap: "), std::string::npos) << words;
  EXPECT_NE(words.find("--security-opt seccomp=unconfined"), std::string::npos) << words;
  std::printf("what the instructor is told:\n%s", words.c_str());
#endif
}

}  // namespace
}  // namespace sandbox
