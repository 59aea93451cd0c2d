#include "confine/interpreter_line.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

InterpreterLine Read(const std::string& start) {
  std::optional<InterpreterLine> line = ReadInterpreterLine(start);
  EXPECT_TRUE(line.has_value()) << start;
  return line.value_or(InterpreterLine{});
}

TEST(InterpreterLineTest, AFileWithoutHashBangHasNone) {
  EXPECT_FALSE(ReadInterpreterLine("\x7f"
                                   "ELF...")
                   .has_value());
  EXPECT_FALSE(ReadInterpreterLine(" #!/bin/sh\n").has_value());
}

TEST(InterpreterLineTest, TheKernelRunsTheFirstWordAndGivesTheRestAsOneArgument) {
  InterpreterLine line = Read("#!  /usr/bin/python3 -u -X dev  \nprint()\n");
  EXPECT_EQ(line.interpreter, "/usr/bin/python3");
  EXPECT_THAT(line.env_program, IsEmpty());
  EXPECT_THAT(line.unread, IsEmpty());
}

TEST(InterpreterLineTest, EnvRunsTheProgramItIsGiven) {
  InterpreterLine line = Read("#!/usr/bin/env node\n");
  EXPECT_EQ(line.interpreter, "/usr/bin/env");
  EXPECT_EQ(line.env_program, "node");
  EXPECT_FALSE(line.env_path_cleared);
}

TEST(InterpreterLineTest, EnvDashSSplitsItsArgumentIntoOptionsAndAProgram) {
  EXPECT_EQ(Read("#!/usr/bin/env -S node --flag\n").env_program, "node");
  EXPECT_EQ(Read("#!/usr/bin/env -Snode --flag\n").env_program, "node");
  EXPECT_EQ(Read("#!/usr/bin/env --split-string=node --flag\n").env_program, "node");
  EXPECT_EQ(Read("#!/usr/bin/env -vS -0 -- /usr/bin/python3 -u\n").env_program, "/usr/bin/python3");
}

TEST(InterpreterLineTest, TheWordAfterDashUIsAVariableNotThePrograms) {
  // What a server that may write its own program once chose its reach with.
  InterpreterLine line = Read("#!/usr/bin/env -S -u /home/u/././bin/x /usr/bin/python3\n");
  EXPECT_EQ(line.env_program, "/usr/bin/python3");
  EXPECT_EQ(Read("#!/usr/bin/env -S --unset=A -uB --unset C node\n").env_program, "node");
  EXPECT_EQ(Read("#!/usr/bin/env -S -C /srv --chdir=/x --chdir /y node\n").env_program, "node");
}

TEST(InterpreterLineTest, ClearingPathSendsEnvToTheDefaultSearchPath) {
  EXPECT_TRUE(Read("#!/usr/bin/env -S -i node\n").env_path_cleared);
  EXPECT_TRUE(Read("#!/usr/bin/env -iS node\n").env_path_cleared);
  EXPECT_TRUE(Read("#!/usr/bin/env -S -u PATH node\n").env_path_cleared);
  EXPECT_TRUE(Read("#!/usr/bin/env -S - node\n").env_path_cleared);
  EXPECT_FALSE(Read("#!/usr/bin/env -S -u HOME node\n").env_path_cleared);
}

TEST(InterpreterLineTest, AssignmentsBeforeTheProgramAreSkippedButPathIsNotRead) {
  EXPECT_EQ(Read("#!/usr/bin/env -S NODE_ENV=production node\n").env_program, "node");
  InterpreterLine path = Read("#!/usr/bin/env -S PATH=/home/u/x node\n");
  EXPECT_THAT(path.env_program, IsEmpty());
  EXPECT_THAT(path.unread, HasSubstr("sets PATH"));
}

TEST(InterpreterLineTest, WhatIsNotReadWholeWidensNothing) {
  const char* unread[] = {
      "#!relative/python\n",
      "#!\n",
      "#!/usr/bin/env\n",
      "#!/usr/bin/env node --flag\n",  // one word with a space, no -S
      "#!/usr/bin/env -i node\n",      // options read as one word
      "#!/usr/bin/env -S \"node\"\n",  // quoting of env -S
      "#!/usr/bin/env -S ${RUNTIME}\n",
      "#!/usr/bin/env -S node # comment\n",
      "#!/usr/bin/env -S -x node\n",  // an option not read here
      "#!/usr/bin/env -S -S node\n",
      "#!/usr/bin/env -S ./bin/node\n",
      "#!/usr/bin/env -S -u\n",
  };
  for (const char* start : unread) {
    InterpreterLine line = Read(start);
    EXPECT_THAT(line.env_program, IsEmpty()) << start;
    EXPECT_THAT(line.unread, Not(IsEmpty())) << start;
  }
}

TEST(InterpreterLineTest, ALineLongerThanTheKernelReadsIsNotRead) {
  std::string start = "#!/usr/bin/env -S node " + std::string(kInterpreterLineBytes, 'x');
  EXPECT_THAT(Read(start.substr(0, kInterpreterLineBytes)).unread, HasSubstr("256 bytes"));
  // A short file with no newline at all is its whole line.
  EXPECT_EQ(Read("#!/bin/sh").interpreter, "/bin/sh");
}

TEST(InterpreterLineTest, ANulByteMakesTheLineUnread) {
  EXPECT_THAT(Read(std::string("#!/bin/sh\0/home/u/x\n", 21)).unread, HasSubstr("NUL"));
}

}  // namespace
}  // namespace bravebot
