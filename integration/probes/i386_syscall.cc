// Makes an i386 system call (int $0x80, getpid), which a filter for x86_64
// numbers would not see: the process must be killed (SIGSYS).
#include <signal.h>
#include <sys/wait.h>

#include "integration/probes/probe.h"

int main() {
  pid_t child = ::fork();
  if (child < 0) probe::SetupFailed("fork");
  if (child == 0) {
    long result = 20;  // getpid on i386
    asm volatile("int $0x80" : "+a"(result) : : "r8", "r9", "r10", "r11", "memory");
    ::_exit(0);
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child) probe::SetupFailed("waitpid");
  if (!WIFSIGNALED(status)) return probe::Allowed("an i386 getpid returned");
  std::printf("denied: an i386 getpid: killed by %s\n", ::strsignal(WTERMSIG(status)));
  return probe::kRefused;
}
