// bravebot-mcp-init: the first process of a server's PID namespace, executed
// by the launcher's child once the namespaces, the read-only view, the
// capabilities and no-new-privileges are set:
//
//   bravebot-mcp-init --landlock|--without-landlock PROGRAM ARGV0 [ARG...]
//
// with no environment and the descriptors of launcher/child_report.h open,
// the server's environment among them. The kernel ends a PID namespace the
// moment its first process ends, killing every process in it, and this
// process dies when the program that started it does (the parent-death
// signal, kept across execve); so it stays small, static and ours, and does
// three things: it starts the server as its one child, confined
// (launcher/server_exec.h), passes the stopping signals on to it, and ends
// with the server's status once the server ends. It holds nothing of its
// starter's: it is a program of its own, not a copy of the starter's memory,
// and keeps no descriptor once the server runs.
//
// It links no C library: its own entry point, its system calls made
// directly (launcher/raw_syscall.h). A C library's start-up was most of its
// cost (launcher/raw_syscall.h says why), and it needs nothing of one.
#include <fcntl.h>
#include <linux/filter.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <cerrno>

#include "launcher/child_report.h"
#include "launcher/raw_syscall.h"
#include "launcher/server_exec.h"

// A compiler may call these to zero or copy a structure (clang does without
// optimization), and no C library supplies them here. Written through
// volatile, so that no compiler makes them calls to themselves.
extern "C" void* memset(void* to, int value, size_t count) {
  volatile unsigned char* bytes = static_cast<unsigned char*>(to);
  for (size_t at = 0; at < count; ++at) bytes[at] = static_cast<unsigned char>(value);
  return to;
}

extern "C" void* memcpy(void* to, const void* from, size_t count) {
  volatile unsigned char* into = static_cast<unsigned char*>(to);
  const unsigned char* bytes = static_cast<const unsigned char*>(from);
  for (size_t at = 0; at < count; ++at) into[at] = bytes[at];
  return to;
}

namespace bravebot {
namespace {

constexpr int kRelayedSignals[] = {SIGTERM, SIGINT, SIGHUP};

// The server's pid in the namespace, for the handler; set once, before any
// signal is relayed.
volatile long server_pid = 0;

size_t Length(const char* text) {
  size_t length = 0;
  while (text[length] != '\0') ++length;
  return length;
}

bool Same(const char* one, const char* other) {
  for (; *one != '\0' && *one == *other; ++one, ++other) {
  }
  return *one == *other;
}

void Say(int fd, const char* text) {
  RawSyscall(SYS_write, fd, reinterpret_cast<long>(text), static_cast<long>(Length(text)));
}

[[noreturn]] void Exit(int status) {
  for (;;) RawSyscall(SYS_exit_group, status);
}

// Where a failed call is reported as the start's `step`.
long Checked(long result, ChildStep step) {
  if (int error = RawErrno(result)) ReportStepAndExit(kErrorFd, step, error);
  return result;
}

void Relay(int signal) {
  if (server_pid > 0) RawSyscall(SYS_kill, -server_pid, signal);
}

// The kernel's struct sigaction, which rt_sigaction takes (not the C
// library's, which has a larger mask).
struct KernelSigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)();
  unsigned long mask;
};

extern "C" void bravebot_init_restorer();
#if defined(__x86_64__)
// x86_64's kernel returns from a handler only through a restorer the
// process gives (SA_RESTORER), which makes the rt_sigreturn call.
__asm__(
    ".text\n"
    ".global bravebot_init_restorer\n"
    "bravebot_init_restorer:\n"
    "  mov $15, %rax\n"
    "  syscall\n");
constexpr unsigned long kRestorerFlag = 0x04000000;  // SA_RESTORER
#else
// Elsewhere the kernel's own trampoline (the vDSO's) returns from a handler.
extern "C" void bravebot_init_restorer() {}
constexpr unsigned long kRestorerFlag = 0;
#endif

void SetRelay(void (*handler)(int)) {
  KernelSigaction action{handler, SA_RESTART | kRestorerFlag,
                         kRestorerFlag != 0 ? bravebot_init_restorer : nullptr, 0};
  for (int signal : kRelayedSignals) {
    RawSyscall(SYS_rt_sigaction, signal, reinterpret_cast<long>(&action), 0, sizeof(action.mask));
  }
}

// The most instructions a filter may hold.
struct sock_filter instructions[BPF_MAXINSNS];

// The size of the memory file open on `fd`.
long SizeOf(int fd, ChildStep step) {
  const long size = Checked(RawSyscall(SYS_lseek, fd, 0, SEEK_END), step);
  Checked(RawSyscall(SYS_lseek, fd, 0, SEEK_SET), step);
  return size;
}

// Reads the filter the parent compiled from kSeccompFd, and closes it.
struct sock_fprog ReadSeccompFilter() {
  const long size = SizeOf(kSeccompFd, ChildStep::kSeccomp);
  if (size == 0 || size % static_cast<long>(sizeof(sock_filter)) != 0 ||
      size > static_cast<long>(sizeof(instructions))) {
    ReportStepAndExit(kErrorFd, ChildStep::kSeccomp, EINVAL);
  }
  char* into = reinterpret_cast<char*>(instructions);
  for (long done = 0; done < size;) {
    const long got =
        RawSyscall(SYS_pread64, kSeccompFd, reinterpret_cast<long>(into + done), size - done, done);
    if (got == -EINTR) continue;
    if (got <= 0) ReportStepAndExit(kErrorFd, ChildStep::kSeccomp, got < 0 ? RawErrno(got) : EIO);
    done += got;
  }
  RawSyscall(SYS_close, kSeccompFd);
  return {static_cast<unsigned short>(size / static_cast<long>(sizeof(sock_filter))), instructions};
}

void* Map(long size, int fd) {
  const int flags = fd >= 0 ? MAP_PRIVATE : MAP_PRIVATE | MAP_ANONYMOUS;
  return reinterpret_cast<void*>(Checked(
      RawSyscall(SYS_mmap, 0, size, PROT_READ | PROT_WRITE, flags, fd, 0), ChildStep::kExec));
}

// The server's environment from kEnvironmentFd (NAME=value strings, each
// ended by NUL), as an envp array in memory of the init's own; closes it.
char** ReadEnvironment() {
  const long size = SizeOf(kEnvironmentFd, ChildStep::kExec);
  char* text = nullptr;
  long count = 0;
  if (size > 0) {
    text = static_cast<char*>(Map(size, kEnvironmentFd));
    if (text[size - 1] != '\0') ReportStepAndExit(kErrorFd, ChildStep::kExec, EINVAL);
    for (long at = 0; at < size; ++at) count += text[at] == '\0';
  }
  char** envp = static_cast<char**>(Map((count + 1) * static_cast<long>(sizeof(char*)), -1));
  for (long at = 0, index = 0; index < count; ++index) {
    envp[index] = text + at;
    at += static_cast<long>(Length(text + at)) + 1;
  }
  envp[count] = nullptr;
  RawSyscall(SYS_close, kEnvironmentFd);
  return envp;
}

// The death signal again: the kernel keeps it across execve, but a security
// module that moves a program into a domain of its own on exec clears it.
// Then whether the starter is still there: its end of the error pipe is open
// until the server executes, so writing to it fails only once it is gone.
void ArmDeathSignal() {
  Checked(RawSyscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL), ChildStep::kDeathSignal);
  struct pollfd starter = {kErrorFd, POLLOUT, 0};
  struct timespec now = {0, 0};
  if (RawSyscall(SYS_ppoll, reinterpret_cast<long>(&starter), 1, reinterpret_cast<long>(&now), 0,
                 0) != 1 ||
      (starter.revents & POLLERR) != 0) {
    Exit(127);
  }
}

int ShellStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

int InitMain(int argc, char** argv) {
  // First: no /proc/1/mem, environ or core for the server to read.
  RawSyscall(SYS_prctl, PR_SET_DUMPABLE, 0);
  if (argc == 2 && Same(argv[1], "--version")) {
    Say(1, "bravebot-mcp-init " BRAVEBOT_VERSION "\n");
    return 0;
  }
  if (argc < 4 || RawSyscall(SYS_fcntl, kErrorFd, F_GETFD) < 0) {
    Say(2,
        "bravebot-mcp-init: started by bravebot-mcp, mcp-run and bravebot-supervisor as the first "
        "process of a server's PID namespace; it is not run by hand\n");
    return 2;
  }
  // What the server is given closes as it executes: the error pipe then
  // reads as end of file, which is how the parent learns it started.
  for (int fd : kHandedOver) {
    RawSyscall(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);  // kRulesetFd: closed without Landlock
  }
  ArmDeathSignal();
  const bool landlock = Same(argv[1], kInitWithLandlock);
  if (!landlock && !Same(argv[1], kInitWithoutLandlock)) {
    ReportStepAndExit(kErrorFd, ChildStep::kInit, EINVAL);
  }
  if (landlock && RawSyscall(SYS_fcntl, kRulesetFd, F_GETFD) < 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kLandlock, EBADF);
  }
  const struct sock_fprog seccomp = ReadSeccompFilter();
  char** const envp = ReadEnvironment();

  SetRelay(Relay);
  const long pid = Checked(RawSyscall(SYS_clone, SIGCHLD), ChildStep::kInit);
  if (pid == 0) {
    SetRelay(SIG_DFL);
    Checked(RawSyscall(SYS_setsid), ChildStep::kSession);
    ConfineAndExec({landlock, &seccomp, kWorkingDirectoryFd, argv[2], argv + 3, envp});
  }
  server_pid = pid;
  // Nothing of the server's is held open here: its pipes and the error pipe
  // close when it does.
  RawSyscall(SYS_close_range, 0, ~0U, 0);
  for (;;) {
    int status = 0;
    const long ended = RawSyscall(SYS_wait4, -1, reinterpret_cast<long>(&status), 0, 0);
    if (ended == pid) return ShellStatus(status);
    if (ended < 0 && ended != -EINTR) return 127;
  }
}

}  // namespace
}  // namespace bravebot

// The entry point: the kernel leaves argc, then argv, at the stack's top.
extern "C" [[noreturn]] void bravebot_init_start(long* stack) {
  const int argc = static_cast<int>(stack[0]);
  char** argv = reinterpret_cast<char**>(stack + 1);
  bravebot::Exit(bravebot::InitMain(argc, argv));
}

#if defined(__x86_64__)
__asm__(
    ".text\n"
    ".global _start\n"
    "_start:\n"
    "  xor %rbp, %rbp\n"
    "  mov %rsp, %rdi\n"
    "  and $-16, %rsp\n"
    "  call bravebot_init_start\n"
    "  hlt\n");
#elif defined(__aarch64__)
__asm__(
    ".text\n"
    ".global _start\n"
    "_start:\n"
    "  mov x29, #0\n"
    "  mov x30, #0\n"
    "  mov x0, sp\n"
    "  bl bravebot_init_start\n");
#endif
