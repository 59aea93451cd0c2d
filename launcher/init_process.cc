#include "launcher/init_process.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace bravebot {
namespace {

constexpr int kRelayedSignals[] = {SIGTERM, SIGINT, SIGHUP};

// The server's pid in the namespace, for the handler; set once, before any
// signal is relayed.
volatile sig_atomic_t server_pid = 0;

void Relay(int signal) {
  if (server_pid > 0) ::kill(-server_pid, signal);
}

void Wipe(const MemoryRegion& region) {
  if (region.start != 0 && region.end > region.start) {
    std::memset(reinterpret_cast<void*>(region.start), 0, region.end - region.start);
  }
}

int ShellStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

}  // namespace

CommandLineRegions ReadCommandLineRegions() {
  // Fields 48 to 51 of /proc/self/stat, counted after the command name, which
  // is in parentheses and may hold spaces.
  std::ifstream file("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  size_t close = text.rfind(')');
  if (close == std::string::npos) return {};
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  uintptr_t values[4] = {};
  for (int number = 3; number <= 51 && fields >> field; ++number) {
    if (number >= 48) values[number - 48] = std::stoull(field);
  }
  return {{values[0], values[1]}, {values[2], values[3]}};
}

int StartServerUnderInit(const CommandLineRegions& wipe) {
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  Wipe(wipe.arguments);
  Wipe(wipe.environment);
  struct sigaction relay = {};
  relay.sa_handler = Relay;
  relay.sa_flags = SA_RESTART;
  ::sigemptyset(&relay.sa_mask);
  for (int signal : kRelayedSignals) ::sigaction(signal, &relay, nullptr);

  pid_t pid = static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, nullptr, nullptr, nullptr, nullptr));
  if (pid < 0) return errno;
  if (pid == 0) return 0;
  server_pid = pid;
  // Nothing of the server's is held open here: its pipes and the error pipe
  // close when it does.
  ::syscall(SYS_close_range, 0, ~0U, 0);
  for (;;) {
    int status = 0;
    pid_t ended = ::wait4(-1, &status, 0, nullptr);
    if (ended == pid) ::_exit(ShellStatus(status));
    if (ended < 0 && errno != EINTR) ::_exit(127);
  }
}

void ResetInitSignals() {
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  for (int signal : kRelayedSignals) ::sigaction(signal, &default_action, nullptr);
}

}  // namespace bravebot
