// bravebot-mcp session: a bravebot session at the terminal, in plain form.
// It starts bravebot-supervisor and speaks only its protocol to it, so what
// a person sees here is what a session's front end is handed.
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <ostream>
#include <string_view>

#include "cli/command.h"
#include "cli/profile_access.h"
#include "cli/simple_options.h"
#include "cli/supervisor_child.h"
#include "cli/terminal_questions.h"
#include "cli/terminal_session.h"
#include "supervisor/mcp/line_splitter.h"
#include "supervisor/store/declaration_store.h"

namespace bravebot {
namespace {

// A call line longer than this is not a call anybody typed.
constexpr std::size_t kLongestInputLine = 16 << 20;

SimpleCommandSpec SessionOptions() {
  SimpleCommandSpec spec{
      "session",
      "Opens a bravebot session in the current directory, in plain form, through "
      "bravebot-supervisor: puts each server question and each tool list to you at the "
      "terminal, starts the servers confined, then reads calls from standard input, one a "
      "line, ALIAS:TOOL {json arguments}, puts each to you and prints its result. /status "
      "shows what the session started, /release marks something private let out of "
      "quarantine, and the end of input closes the session.",
      /*takes_alias=*/false,
      /*takes_json=*/false,
      {{"--one-shot", "ask nobody, as a one-shot run does"},
       {"--incognito", "write nothing under the profile directory"},
       {"--dangerously-skip-permissions",
        "answer every question yes without drawing it, and record nothing"}}};
  spec.valued = {{"--startup-timeout",
                  "seconds a server has to answer initialize as it starts (1 to 600, default 30)"}};
  return spec;
}

// --startup-timeout's value: a whole number of seconds from 1 to 600.
Result<int> StartupTimeout(const SimpleOptions& options) {
  auto given = options.values.find("--startup-timeout");
  if (given == options.values.end()) return 30;
  const std::string& text = given->second;
  if (text.empty() || text.size() > 3 ||
      text.find_first_not_of("0123456789") != std::string::npos || std::stoi(text) < 1 ||
      std::stoi(text) > 600) {
    return Error(ErrorCode::kUsage,
                 "--startup-timeout takes a whole number of seconds from 1 to 600");
  }
  return std::stoi(text);
}

// The runner each declared server's program is (npx, uvx, ...): its first
// start fetches the package, which the progress line says. Nothing where
// mcp.json cannot be read: the session says that itself.
std::map<std::string, std::string> RunnersOf(const CommandContext& context) {
  static constexpr std::string_view kRunners[] = {"npx",  "uvx",  "bunx", "pnpx",
                                                  "pipx", "pnpm", "yarn", "deno"};
  std::map<std::string, std::string> runners;
  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile || !*profile) return runners;
  Result<DeclarationFile> file = DeclarationStore(**profile).Read();
  if (!file) return runners;
  for (const Declaration& declaration : file->declarations) {
    const std::string name = declaration.program.substr(declaration.program.rfind('/') + 1);
    for (std::string_view runner : kRunners) {
      if (name == runner) runners[declaration.alias] = name;
    }
  }
  return runners;
}

// Standard input, a line at a time, read only when it can be without
// waiting, so the supervisor's notifications are taken meanwhile.
class InputLines {
 public:
  enum class Got { kLine, kNothingYet, kEnd, kTooLong };

  // A whole line read already, into `line`, or what else there is.
  Got Next(std::string& line) {
    if (std::optional<std::string> whole = lines_.Next()) {
      line = std::move(*whole);
      return Got::kLine;
    }
    if (lines_.overflowed()) return Got::kTooLong;
    if (!ended_) return Got::kNothingYet;
    std::optional<std::string> last = lines_.Rest();  // a last line with no line end
    if (!last || last->empty()) return Got::kEnd;
    line = std::move(*last);
    return Got::kLine;
  }

  // Reads what standard input holds; call it once it can be read.
  void Read() {
    char chunk[4096];
    ssize_t got = ::read(0, chunk, sizeof(chunk));
    if (got < 0 && errno == EINTR) return;
    if (got <= 0) {
      ended_ = true;
      return;
    }
    lines_.Feed(std::string_view(chunk, static_cast<std::size_t>(got)));
  }

 private:
  LineSplitter lines_{kLongestInputLine};
  bool ended_ = false;
};

int RunSession(const SimpleOptions& options, CommandContext& context) {
  Result<int> timeout = StartupTimeout(options);
  if (!timeout) return Report(context, "session", timeout.error());
  // A supervisor that ends makes a write to it fail, not end this program.
  ::signal(SIGPIPE, SIG_IGN);
  Result<std::unique_ptr<SupervisorChild>> supervisor =
      SupervisorChild::StartOursBesideUs(context.fs, "no session can be opened");
  if (!supervisor) return Report(context, "session", supervisor.error());

  TerminalSessionOptions session_options;
  session_options.directory = context.cwd;
  session_options.one_shot = options.flags.count("--one-shot") > 0;
  session_options.incognito = options.flags.count("--incognito") > 0 || IsIncognito(context);
  session_options.skip_permissions = options.flags.count("--dangerously-skip-permissions") > 0;
  session_options.startup_timeout_seconds = *timeout;
  session_options.startup_timeout_flag = "bravebot-mcp session --startup-timeout SECONDS";
  // Only where a person watches the terminal it is drawn on.
  session_options.progress = context.at_terminal;
  if (struct winsize size{}; ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
    session_options.progress_width = size.ws_col;
  }
  if (session_options.progress) session_options.runners = RunnersOf(context);
  std::unique_ptr<TerminalQuestions> questions =
      session_options.one_shot ? nullptr : TerminalQuestions::Open();
  TerminalSession session(**supervisor, questions.get(), context.out, context.err);
  if (!session.Open(session_options)) {
    (*supervisor)->Wait();  // its input closed, it ends
    return kExitFailed;
  }
  // Questions that come up from here on (a list changed) are put between
  // calls, never while one is being read.
  InputLines input;
  std::string line;
  bool ended_early = false;
  while (!session.supervisor_ended()) {
    InputLines::Got got = input.Next(line);
    if (got == InputLines::Got::kNothingYet) {
      SupervisorConnection::Wait waited = session.connection().WaitUntilReadable(0);
      if (waited == SupervisorConnection::Wait::kEnded) {
        context.err << "bravebot-mcp session: bravebot-supervisor ended; its log above says "
                       "why\n";
        ended_early = true;
        break;
      }
      session.PutChangedLists();
      if (waited == SupervisorConnection::Wait::kReadable) input.Read();
      continue;
    }
    if (got == InputLines::Got::kTooLong) {
      context.err << "bravebot-mcp session: a line of over 16 MiB is no call; the session "
                     "is closed\n";
      break;
    }
    if (got == InputLines::Got::kEnd) break;
    session.TakeLine(line);
    session.PutChangedLists();
  }
  ended_early = ended_early || session.supervisor_ended();
  if (!ended_early) session.Close();
  const int status = (*supervisor)->Wait();
  return ended_early || status != 0 ? kExitFailed : kExitOk;
}

}  // namespace

const CommandSpec kSessionCommand = {"session", "open a session here, in plain form", "",
                                     SessionOptions, RunSession};

}  // namespace bravebot
