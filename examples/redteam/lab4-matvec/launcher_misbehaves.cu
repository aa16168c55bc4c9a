// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads Matvec.Speed
// redteam: a launcher that never answers, exits 77 ("no GPU"), stops itself, floods, or forks
//
// Each check's first call meets a different failure of the launcher (n tells them apart; under
// ctest each check is its own lab program and its own launcher): n = 1 exits with status 77, the
// code that means "no GPU, skipped"; n = 64 loops forever; n = 16385 stops itself with SIGSTOP;
// n = 10 prints 9 MiB; n = 1000 closes its socket and returns; n = 16384 forks a child that keeps
// the socket open for ten minutes and exits, so the socket never reaches end-of-file. Nothing is
// ever computed. The hope: a skip, or a time-out charged to nobody, instead of a failure.
// Why it must fail: a launcher's exit status is not the lab program's; a call gets 20 s, then
// the launcher's whole process group is killed; output is capped at 8 MiB (SIGXFSZ); every one
// of these ends the call, and the check, as a failure.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "lab4.h"

void matvec(float*, const float*, const float*, int n) {
  switch (n) {
    case 1:  // Matvec.Integers: "no GPU"
      std::exit(77);
    case 64:  // Matvec.Reals: never returns
      for (volatile bool forever = true; forever;) {
      }
      break;
    case 16385:  // Matvec.Large: stopped, neither dead nor answering
      raise(SIGSTOP);
      break;
    case 10: {  // Matvec.Examples: past the 8 MiB output limit
      const std::string line(1023, '#');
      for (int i = 0; i < 9 * 1024; ++i) std::puts(line.c_str());
      break;
    }
    case 1000:  // Matvec.Threads: the answer has nowhere to go
      close(3);
      break;
    case 16384:  // Matvec.Speed: gone, but a child holds the socket open
      if (fork() == 0) {
        sleep(600);
        _exit(0);
      }
      _exit(0);
    default:
      break;
  }
}
