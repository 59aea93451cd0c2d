// A system call made by the instruction itself, without the C library: the
// kernel's answer is returned as it is, a negative errno where the call
// failed. bravebot-mcp-init is built on these alone, with no C library to
// start: on a virtual machine, glibc's start-up (which reads the processor's
// features and caches, each read trapping to the host) took 0.5 ms of every
// server's start (docs/performance.md). The launcher's child uses them too,
// for the steps it shares with the init (launcher/server_exec.h,
// launcher/child_report.h); they touch no errno and are async-signal-safe.
//
//   long written = RawSyscall(SYS_write, fd, reinterpret_cast<long>(text), length);
//   if (written < 0) ReportStepAndExit(kErrorFd, ChildStep::kExec, static_cast<int>(-written));
#ifndef BRAVEBOT_LAUNCHER_RAW_SYSCALL_H_
#define BRAVEBOT_LAUNCHER_RAW_SYSCALL_H_

#include <sys/syscall.h>

namespace bravebot {

inline long RawSyscall(long number, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0,
                       long f = 0) {
#if defined(__x86_64__)
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return result;
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = number;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  register long x5 __asm__("x5") = f;
  __asm__ volatile("svc #0"
                   : "+r"(x0)
                   : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                   : "memory");
  return x0;
#else
#error "bravebot-mcp makes its system calls itself on x86_64 and aarch64 only"
#endif
}

// The errno of a failed RawSyscall (its answer negated), 0 where it worked.
inline int RawErrno(long result) {
  return result < 0 && result > -4096 ? static_cast<int>(-result) : 0;
}

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_RAW_SYSCALL_H_
