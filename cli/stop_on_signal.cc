#include "cli/stop_on_signal.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include "supervisor/store/server_directories.h"

namespace bravebot {
namespace {

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP};

struct Watched {
  std::mutex mutex;
  pid_t server_group = 0;
  std::string run_directory;
  std::function<void(int signal)> stop;  // in place of the above
  bool stop_called = false;
  int stdin_flags = -1;  // as mcp-run was given them
  int stdout_flags = -1;
};

// Never destroyed: the waiting thread may still use it while main returns.
Watched& State() {
  static Watched* state = new Watched;
  return *state;
}

sigset_t StopSignals() {
  sigset_t signals;
  ::sigemptyset(&signals);
  for (int signal : kStopSignals) ::sigaddset(&signals, signal);
  return signals;
}

// Kills the group and waits a little for its leader to go, so that nothing
// it runs writes into the run directory while it is removed.
void KillServer(pid_t group) {
  ::kill(-group, SIGKILL);
  for (int tries = 0; tries < 100; ++tries) {
    pid_t done = ::waitpid(group, nullptr, WNOHANG);
    if (done != 0) return;  // reaped here, or by mcp-run's own thread: gone either way
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void RestoreFlags(const Watched& state) {
  // The bridge makes them non-blocking, and the open files may be the shell's.
  if (state.stdin_flags >= 0) ::fcntl(STDIN_FILENO, F_SETFL, state.stdin_flags);
  if (state.stdout_flags >= 0) ::fcntl(STDOUT_FILENO, F_SETFL, state.stdout_flags);
}

[[noreturn]] void EndBy(int signal) {
  ::signal(signal, SIG_DFL);
  sigset_t just_this;
  ::sigemptyset(&just_this);
  ::sigaddset(&just_this, signal);
  ::pthread_sigmask(SIG_UNBLOCK, &just_this, nullptr);
  ::raise(signal);
  ::_exit(128 + signal);
}

void WaitForStopSignals() {
  const sigset_t signals = StopSignals();
  for (;;) {
    int signal = 0;
    if (::sigwait(&signals, &signal) != 0) continue;
    Watched& state = State();
    // Held to the end: mcp-run's own thread cannot start or forget a server
    // meanwhile.
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.stop && !state.stop_called) {
      state.stop_called = true;
      state.stop(signal);
      continue;
    }
    if (state.server_group > 0) {
      KillServer(state.server_group);
      // mcp-run's own thread may be removing it too; neither stops the other.
      for (int tries = 0; tries < 10 && std::filesystem::exists(state.run_directory); ++tries) {
        RemoveRunDirectory(state.run_directory);
      }
    }
    RestoreFlags(state);
    EndBy(signal);
  }
}

}  // namespace

void StopOnSignal::Install() {
  Watched& state = State();
  state.stdin_flags = ::fcntl(STDIN_FILENO, F_GETFL);
  state.stdout_flags = ::fcntl(STDOUT_FILENO, F_GETFL);
  const sigset_t signals = StopSignals();
  ::pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread(WaitForStopSignals).detach();
}

StopOnSignal::StopOnSignal(pid_t server_group, std::string run_directory) {
  Watched& state = State();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.server_group = server_group;
  state.run_directory = std::move(run_directory);
}

StopOnSignal::StopOnSignal(std::function<void(int signal)> stop) {
  Watched& state = State();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.stop = std::move(stop);
  state.stop_called = false;
}

StopOnSignal::~StopOnSignal() {
  Watched& state = State();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.server_group = 0;
  state.run_directory.clear();
  state.stop = nullptr;
}

void EndBySignal(int signal) {
  RestoreFlags(State());
  EndBy(signal);
}

}  // namespace bravebot
