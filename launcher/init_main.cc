// bravebot-mcp-init: the first process of a server's PID namespace, executed
// by the launcher's child once the namespaces, the read-only view, the
// capabilities and no-new-privileges are set:
//
//   bravebot-mcp-init --landlock|--without-landlock PROGRAM ARGV0 [ARG...]
//
// with no environment (it runs unconfined, and its C library reads some as it
// starts) and the descriptors of launcher/child_report.h open, the server's
// environment among them. The kernel ends a PID
// namespace the moment its first process ends, killing every process in it,
// and this process dies when the program that started it does (the
// parent-death signal, kept across execve); so it stays small, static and
// ours, and does three things: it starts the server as its one child,
// confined (launcher/server_exec.h), passes the stopping signals on to it,
// and ends with the server's status once the server ends. It holds nothing
// of its starter's: it is a program of its own, not a copy of the starter's
// memory, and keeps no descriptor once the server runs.
#include <fcntl.h>
#include <linux/filter.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "launcher/child_report.h"
#include "launcher/server_exec.h"

namespace bravebot {
namespace {

constexpr int kRelayedSignals[] = {SIGTERM, SIGINT, SIGHUP};

// The server's pid in the namespace, for the handler; set once, before any
// signal is relayed.
volatile sig_atomic_t server_pid = 0;

void Relay(int signal) {
  if (server_pid > 0) ::kill(-server_pid, signal);
}

void SetRelay(void (*handler)(int)) {
  struct sigaction action = {};
  action.sa_handler = handler;
  action.sa_flags = SA_RESTART;
  ::sigemptyset(&action.sa_mask);
  for (int signal : kRelayedSignals) ::sigaction(signal, &action, nullptr);
}

// The most instructions a filter may hold.
struct sock_filter instructions[BPF_MAXINSNS];

// Reads the filter the parent compiled from kSeccompFd, and closes it.
struct sock_fprog ReadSeccompFilter() {
  struct stat status;
  if (::fstat(kSeccompFd, &status) != 0) ReportStepAndExit(kErrorFd, ChildStep::kSeccomp, errno);
  const size_t size = static_cast<size_t>(status.st_size);
  if (size == 0 || size % sizeof(sock_filter) != 0 || size > sizeof(instructions)) {
    ReportStepAndExit(kErrorFd, ChildStep::kSeccomp, EINVAL);
  }
  char* into = reinterpret_cast<char*>(instructions);
  for (size_t done = 0; done < size;) {
    ssize_t got = ::pread(kSeccompFd, into + done, size - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) ReportStepAndExit(kErrorFd, ChildStep::kSeccomp, got < 0 ? errno : EIO);
    done += static_cast<size_t>(got);
  }
  ::close(kSeccompFd);
  return {static_cast<unsigned short>(size / sizeof(sock_filter)), instructions};
}

// The server's environment from kEnvironmentFd (NAME=value strings, each
// ended by NUL), as an envp array in memory of the init's own; closes it.
char** ReadEnvironment() {
  struct stat status;
  if (::fstat(kEnvironmentFd, &status) != 0) ReportStepAndExit(kErrorFd, ChildStep::kExec, errno);
  const size_t size = static_cast<size_t>(status.st_size);
  char* text = nullptr;
  size_t count = 0;
  if (size > 0) {
    void* mapped = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, kEnvironmentFd, 0);
    if (mapped == MAP_FAILED) ReportStepAndExit(kErrorFd, ChildStep::kExec, errno);
    text = static_cast<char*>(mapped);
    if (text[size - 1] != '\0') ReportStepAndExit(kErrorFd, ChildStep::kExec, EINVAL);
    for (size_t at = 0; at < size; ++at) count += text[at] == '\0';
  }
  void* array = ::mmap(nullptr, (count + 1) * sizeof(char*), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (array == MAP_FAILED) ReportStepAndExit(kErrorFd, ChildStep::kExec, errno);
  char** envp = static_cast<char**>(array);
  for (size_t at = 0, index = 0; index < count; ++index) {
    envp[index] = text + at;
    at += std::strlen(text + at) + 1;
  }
  envp[count] = nullptr;
  ::close(kEnvironmentFd);
  return envp;
}

// The death signal again: the kernel keeps it across execve, but a security
// module that moves a program into a domain of its own on exec clears it.
// Then whether the starter is still there: its end of the error pipe is open
// until the server executes, so writing to it fails only once it is gone.
void ArmDeathSignal() {
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kDeathSignal, errno);
  }
  struct pollfd starter = {kErrorFd, POLLOUT, 0};
  if (::poll(&starter, 1, 0) != 1 || (starter.revents & POLLERR) != 0) ::_exit(127);
}

int ShellStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

void Say(int fd, const char* text) {
  [[maybe_unused]] ssize_t ignored = ::write(fd, text, std::strlen(text));
}

}  // namespace
}  // namespace bravebot

int main(int argc, char** argv) {
  using namespace bravebot;
  // First: no /proc/1/mem, environ or core for the server to read.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    Say(STDOUT_FILENO, "bravebot-mcp-init " BRAVEBOT_VERSION "\n");
    return 0;
  }
  if (argc < 4 || ::fcntl(kErrorFd, F_GETFD) < 0) {
    Say(STDERR_FILENO,
        "bravebot-mcp-init: started by bravebot-mcp, mcp-run and bravebot-supervisor as the first "
        "process of a server's PID namespace; it is not run by hand\n");
    return 2;
  }
  // What the server is given closes as it executes: the error pipe then
  // reads as end of file, which is how the parent learns it started.
  for (int fd : kHandedOver)
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);  // kRulesetFd: closed without Landlock
  ArmDeathSignal();
  const bool landlock = std::strcmp(argv[1], kInitWithLandlock) == 0;
  if (!landlock && std::strcmp(argv[1], kInitWithoutLandlock) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kInit, EINVAL);
  }
  if (landlock && ::fcntl(kRulesetFd, F_GETFD) < 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kLandlock, EBADF);
  }
  const struct sock_fprog seccomp = ReadSeccompFilter();
  char** const envp = ReadEnvironment();

  SetRelay(Relay);
  pid_t pid = static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, nullptr));
  if (pid < 0) ReportStepAndExit(kErrorFd, ChildStep::kInit, errno);
  if (pid == 0) {
    SetRelay(SIG_DFL);
    if (::setsid() < 0) ReportStepAndExit(kErrorFd, ChildStep::kSession, errno);
    ConfineAndExec({landlock, &seccomp, kWorkingDirectoryFd, argv[2], argv + 3, envp});
  }
  server_pid = pid;
  // Nothing of the server's is held open here: its pipes and the error pipe
  // close when it does.
  ::syscall(SYS_close_range, 0, ~0U, 0);
  for (;;) {
    int status = 0;
    pid_t ended = ::wait4(-1, &status, 0, nullptr);
    if (ended == pid) return ShellStatus(status);
    if (ended < 0 && errno != EINTR) return 127;
  }
}
