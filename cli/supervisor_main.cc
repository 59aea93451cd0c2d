// bravebot-supervisor: a bravebot session's one long-lived helper, speaking
// JSON-RPC 2.0 on its standard input and output (docs/supervisor-protocol.md).
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>

#include "base/shown_text.h"
#include "base/version.h"
#include "cli/command.h"
#include "confine/whole_directory.h"
#include "launcher/launch.h"
#include "supervisor/session/supervisor.h"
#include "supervisor/store/server_directories.h"

namespace {

constexpr char kHelp[] = R"(usage: bravebot-supervisor

Serves one bravebot session: JSON-RPC 2.0 on standard input and output, one
message a line, its log on standard error. A session opens with session/open
and ends with session/close or the end of standard input; every server it
started, and everything they started, ends with it. The protocol is in
docs/supervisor-protocol.md.
)";

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
      std::cout << kHelp;
      return 0;
    }
    if (std::strcmp(argv[1], "--version") == 0) {
      std::cout << bravebot::VersionLine("bravebot-supervisor");
      return 0;
    }
    std::cerr << "bravebot-supervisor: it takes no arguments (--help says how it is used)\n";
    return bravebot::kExitUsage;
  }
  // It holds stored values (servers' keys): no core file, and no reading of
  // its memory through /proc by another process of the same user (but while
  // a server starts: launcher/clone_sharing_memory.h).
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  // The init its servers start under is the one installed as it started.
  bravebot::InitProgramFd();
  // What a supervisor killed by SIGKILL left (its servers' run
  // directories, incognito homes in them) goes with the next.
  bravebot::SweepRunDirectoriesInBackground(bravebot::kSystemTemporaryRoot);
  // A server or a session that closes its end must not end it by SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof(cwd)) == nullptr) {
    std::cerr << "bravebot-supervisor: the current directory cannot be read\n";
    return bravebot::kExitFailed;
  }
  bravebot::RealFileSystem fs;
  bravebot::CommandContext context{std::cin, std::cout, std::cerr, ::getenv, cwd, false, fs};
  bravebot::SupervisorMachine machine{::getenv, &fs, context.UserHome(), context.ProfileLocation()};

  boost::asio::io_context io;
  // Its own descriptors 0 and 1, duplicated so that nothing else of the
  // process writes into the protocol by mistake.
  const int input = ::dup(STDIN_FILENO);
  const int output = ::dup(STDOUT_FILENO);
  ::close(STDOUT_FILENO);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  bravebot::Supervisor supervisor(io, machine, input, output);
  boost::asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
  bool at_once = false;
  signals.async_wait([&](const boost::system::error_code& error, int signal) {
    if (error) return;
    supervisor.EndOnSignal(signal);
    // A second signal does not wait for the servers to end: the loop ends at
    // once, and they end with the supervisor (their death signal).
    signals.async_wait([&](const boost::system::error_code& again, int) {
      if (again) return;
      at_once = true;
      io.stop();
    });
  });
  supervisor.Begin();
  try {
    io.run();
  } catch (const std::exception& error) {
    // Nothing a session or a server sends should get here; if something
    // does, it is said, and the servers end with the supervisor (their death
    // signal) rather than run on unsupervised.
    // Escaped: a JSON library's error can quote what it was reading.
    std::cerr << "bravebot-supervisor: stopped by an internal error: "
              << bravebot::EscapeControlCharacters(error.what()) << "\n";
    return 70;
  }
  // The servers' run directories are removed on threads of their own: those
  // under way are given a few seconds to end, and what they leave unremoved,
  // no longer held, goes with the next start's sweep.
  if (!at_once) bravebot::AwaitRunDirectoryRemovals(bravebot::kRemovalsAwaitedAtExit);
  return supervisor.exit_status();
}
