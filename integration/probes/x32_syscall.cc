// Makes an x32 system call (getpid with __X32_SYSCALL_BIT), which a filter for
// x86_64 numbers would not see: the process must be killed (SIGSYS).
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "integration/probes/probe.h"

int main() {
  pid_t child = ::fork();
  if (child < 0) probe::SetupFailed("fork");
  if (child == 0) {
    ::syscall(0x40000000L | SYS_getpid);
    ::_exit(0);
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child) probe::SetupFailed("waitpid");
  if (!WIFSIGNALED(status)) return probe::Allowed("an x32 getpid returned");
  std::printf("denied: an x32 getpid: killed by %s\n", ::strsignal(WTERMSIG(status)));
  return probe::kRefused;
}
