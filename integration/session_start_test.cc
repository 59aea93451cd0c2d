// bravebot-mcp session while a server starts: the line that updates at a
// terminal while it says nothing, and --startup-timeout, named where a
// start runs out of time.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "integration/supervisor_fixture.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class SessionStartTest : public SupervisorTest {
 protected:
  std::vector<std::string> SessionWords(std::vector<std::string> flags) const {
    flags.insert(flags.begin(), {OurProgram("bravebot-mcp"), "session"});
    return flags;
  }
};

// A server that never answers initialize: at a terminal a line says what
// the session waits for, and for how long, drawn again in place each
// second; the start ends after --startup-timeout's 3 s, naming the flag.
TEST_F(SessionStartTest, AtATerminalASilentStartGetsALineThatUpdatesAndTheTimeoutNamesItsFlag) {
  DeclareFault("mute", "never-answers");
  Request({"mute"});
  CommandOutput session =
      RunAtTerminalStepByStep(SessionWords({"--startup-timeout", "3"}), Environment(), Checkout(),
                              {{"[1/2/3] ", "1\n"}, {"gives a server longer to start", "\x04"}});
  // Drawn once a second, each time in place of the last.
  const std::string line = "\r  mute: waiting for its answer to initialize, ";
  size_t drawn = 0;
  for (size_t at = session.out.find(line); at != std::string::npos;
       at = session.out.find(line, at + 1)) {
    ++drawn;
  }
  EXPECT_GE(drawn, 2U) << session.out;
  EXPECT_THAT(session.out, ::testing::ContainsRegex("initialize, [12] s of 3 s\x1b\\[K"));
  // Taken away before the next line is printed.
  EXPECT_THAT(session.out, HasSubstr("\r\x1b[Kmute did not start: no answer to initialize within "
                                     "3 s"));
  EXPECT_THAT(session.out, HasSubstr("; bravebot-mcp session --startup-timeout SECONDS gives a "
                                     "server longer to start\r\n"));
}

// A runner's first start fetches the package: the line says so.
TEST_F(SessionStartTest, ARunnersLineSaysItsFirstStartFetchesThePackage) {
  const std::string npx = temporary_.Join("bin/npx");
  std::filesystem::create_directories(temporary_.Join("bin"));
  std::filesystem::copy_file(OurProgram("fake_servers/fault_server"), npx);
  Declare("runner", {"--", npx, "never-answers"});
  Request({"runner"});
  CommandOutput session =
      RunAtTerminalStepByStep(SessionWords({"--startup-timeout", "2"}), Environment(), Checkout(),
                              {{"[1/2/3] ", "1\n"}, {"gives a server longer to start", "\x04"}});
  // Cut to the terminal's 80 columns, so that it never wraps.
  const std::string line =
      "\r  runner: waiting for its answer to initialize, 1 s of 2 s (npx fetches the package into "
      "the server's home on its first start)";
  EXPECT_THAT(session.out, HasSubstr(line.substr(0, 1 + 79) + "\x1b[K"));
}

// Without a terminal nothing is drawn in place; the flag is still named.
TEST_F(SessionStartTest, WithoutATerminalNoLineIsDrawn) {
  DeclareFault("mute", "never-answers");
  Request({"mute"});
  CommandOutput session =
      RunWithoutTerminal(SessionWords({"--startup-timeout", "1", "--dangerously-skip-permissions"}),
                         Environment(), Checkout(), /*input=*/"");
  EXPECT_THAT(session.out + session.err,
              HasSubstr("no answer to initialize within 1 s, and it wrote nothing"));
  EXPECT_THAT(session.out + session.err,
              HasSubstr("; bravebot-mcp session --startup-timeout SECONDS gives a server longer "
                        "to start\n"));
  EXPECT_THAT(session.out + session.err, Not(HasSubstr("waiting for its answer")));
  EXPECT_THAT(session.out + session.err, Not(HasSubstr("\x1b[K")));
}

TEST_F(SessionStartTest, ABadStartupTimeoutIsRefused) {
  for (const char* bad : {"0", "601", "ten", "-5"}) {
    CommandOutput session =
        RunCommand(SessionWords({"--startup-timeout", bad}), Environment(), Checkout());
    EXPECT_EQ(session.status, 2) << bad;
    EXPECT_THAT(session.err,
                HasSubstr("--startup-timeout takes a whole number of seconds from 1 to 600"))
        << bad;
  }
}

}  // namespace
}  // namespace bravebot::testing
