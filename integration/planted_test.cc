// A server that means harm plays for its next start: it plants a link where
// the reach will look for one of its grants, rewrites its own #! line, swaps
// the directory of a server inside its own for a link, or leaves a daemon
// running for later. Each test declares a server with bravebot-mcp add, starts
// it under confined-exec, changes what the server could change, and starts it
// again: the change widens nothing, and nothing it started outlives it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "integration/hostile_fixture.h"
#include "integration/process_scan.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Each server is started by both backends: what Landlock refuses (EACCES) is
// not there under bubblewrap (ENOENT).
constexpr Layers kBackends[] = {Layers::kEvery, Layers::kBubblewrap};

const char* OutsideRefused(Layers layers) {
  return layers == Layers::kBubblewrap ? kNoSuchFile : kDenied;
}

class PlantedTest : public HostileTest {
 protected:
  std::vector<std::string> Environment(const Named& named) const {
    std::vector<std::string> environment = {"BRAVEBOT_HOME=" + Profile(), "HOME=" + Path("home"),
                                            "PATH=/usr/bin:/bin"};
    for (const auto& [name, value] : named) environment.push_back(name + "=" + value);
    return environment;
  }

  // bravebot-mcp WORDS, as the person would type them, in the scenario.
  CommandOutput Mcp(std::vector<std::string> words, const Named& named = {}) const {
    words.insert(words.begin(), OurProgram("bravebot-mcp"));
    return RunCommand(words, Environment(named), scenario_);
  }

  // Starts the declared server `alias` under confined-exec.
  CommandOutput Start(const std::string& alias, const Named& named = {},
                      Layers layers = Layers::kEvery) const {
    std::vector<std::string> words = {ConfinedExec()};
    for (const std::string& flag : LayersFlags(layers)) words.push_back(flag);
    words.push_back(alias);
    std::vector<std::string> environment = Environment(named);
    for (const std::string& variable : LayersEnvironment(layers)) environment.push_back(variable);
    return RunCommand(words, environment, scenario_);
  }

  std::string Probe(const std::string& name) const { return ProbesDirectory() + "/" + name; }

  // A directory outside every reach, with a secret in it: ~/.ssh, say.
  std::string Elsewhere() {
    if (!std::filesystem::exists(Path("elsewhere"))) {
      MakeDirectory(Path("elsewhere"), 0755);
      WriteFile(Path("elsewhere/secret"), "a key\n", 0644);
    }
    return Path("elsewhere");
  }

  static void Replace(const std::string& path, const std::string& link_target) {
    std::filesystem::remove_all(path);
    std::filesystem::create_symlink(link_target, path);
  }
};

TEST_F(PlantedTest, AFileItMayReadSwappedForALinkToMcpJsonIsNotGranted) {
  const std::string memory = Path("work/memory.json");
  WriteFile(memory, "{}\n", 0644);
  ASSERT_EQ(Mcp({"add", "memory", "--dir", Path("work"), "--", Probe("read_may_read_file"), memory})
                .status,
            0);
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    ASSERT_TRUE(Worked(Start("memory", {}, layers)));
  }

  Replace(memory, Profile() + "/mcp.json");
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    EXPECT_TRUE(Refused(Start("memory", {}, layers), RefusedInAHiddenPlaceWith(layers)))
        << LayersName(layers);
  }
  EXPECT_THAT(Mcp({"reach", "memory"}).out,
              HasSubstr(memory + ": it leads through the link " + memory + " to " + Profile() +
                        "/mcp.json, out of " + Path("work")));
}

TEST_F(PlantedTest, APathEntrySwappedForALinkToTheHomeIsNotGranted) {
  MakeDirectory(Path("work/bin"), 0755);
  ASSERT_EQ(Mcp({"add", "pathy", "-e", "PATH=" + Path("work/bin") + ":/usr/bin:/bin", "-e",
                 "TARGET", "--dir", Path("work"), "--", Probe("read_outside")})
                .status,
            0);
  const Named target = {{"TARGET", Path("home/secret")}};
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    ASSERT_TRUE(Refused(Start("pathy", target, layers), RefusedInAHiddenPlaceWith(layers)));
  }

  Replace(Path("work/bin"), Path("home"));
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    EXPECT_TRUE(Refused(Start("pathy", target, layers), RefusedInAHiddenPlaceWith(layers)))
        << LayersName(layers);
  }
  EXPECT_THAT(Mcp({"reach", "pathy"}).out, HasSubstr("leads through the link " + Path("work/bin")));
}

TEST_F(PlantedTest, AProgramSwappedForALinkOutOfItsDirectoryIsNotStarted) {
  std::filesystem::copy_file(Probe("read_outside"), Path("work/tool"));
  std::filesystem::copy_file(Probe("read_outside"), Elsewhere() + "/tool");
  ASSERT_EQ(
      Mcp({"add", "tool", "-e", "TARGET", "--dir", Path("work"), "--", Path("work/tool")}).status,
      0);
  const Named target = {{"TARGET", Elsewhere() + "/secret"}};
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    ASSERT_TRUE(Refused(Start("tool", target, layers), OutsideRefused(layers)));
  }

  Replace(Path("work/tool"), Elsewhere() + "/tool");
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    CommandOutput started = Start("tool", target, layers);
    EXPECT_EQ(started.status, 125) << LayersName(layers) << started.out << started.err;
    EXPECT_THAT(started.err, HasSubstr("leads through the link " + Path("work/tool")));
  }
}

TEST_F(PlantedTest, AnInterpreterItsOwnHashBangLineNamesIsNotGranted) {
  std::filesystem::copy_file(Probe("read_outside"), Elsewhere() + "/interpreter");
  WriteFile(Path("work/server"), "#!/bin/sh\nexit 0\n", 0755);
  ASSERT_EQ(Mcp({"add", "script", "-e", "TARGET", "--dir", Path("work"), "--", Path("work/server")})
                .status,
            0);
  const Named target = {{"TARGET", Elsewhere() + "/secret"}};
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    ASSERT_TRUE(Worked(Start("script", target, layers)));
  }

  // The server rewrites its own program to run under an interpreter of its
  // choosing, whose directory holds what it is after.
  WriteFile(Path("work/server"), "#!" + Elsewhere() + "/interpreter\n", 0755);
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    CommandOutput started = Start("script", target, layers);
    EXPECT_NE(started.status, 0) << LayersName(layers) << started.out << started.err;
    EXPECT_THAT(started.out + started.err, Not(HasSubstr("allowed")));
  }
}

TEST_F(PlantedTest, AWordAfterEnvDashUIsNotTakenForTheInterpreter) {
  WriteFile(Path("work/server"), "#!/bin/sh\nexit 0\n", 0755);
  ASSERT_EQ(Mcp({"add", "script", "-e", "TARGET", "--dir", Path("work"), "--", Path("work/server")})
                .status,
            0);
  // env -S -u NAME unsets NAME: the word after -u names a variable, and the
  // program env runs is /bin/sh. "/./." once passed the string checks.
  const std::string hidden = Elsewhere() + "/././secret";
  WriteFile(Path("work/server"),
            "#!/usr/bin/env -S -u " + hidden + " /bin/sh\nexec cat \"$TARGET\" >/dev/null\n", 0755);
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    CommandOutput started = Start("script", {{"TARGET", Elsewhere() + "/secret"}}, layers);
    EXPECT_EQ(started.status, 1) << LayersName(layers) << started.out << started.err;
    EXPECT_THAT(started.err, HasSubstr(OutsideRefused(layers)));
  }
}

TEST_F(PlantedTest, ADirectorySwappedForALinkIsNotEntered) {
  MakeDirectory(Path("work/inner"), 0755);
  ASSERT_EQ(Mcp({"add", "inner", "--dir", Path("work/inner"), "--", Probe("write_own_directories")})
                .status,
            0);
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    ASSERT_TRUE(Worked(Start("inner", {}, layers))) << LayersName(layers);
    // What it made, so that it can make it again under the next backend.
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(Profile() + "/mcp-home")) {
      if (entry.path().filename() == "made-by-probe") std::filesystem::remove(entry.path());
    }
    std::filesystem::remove(Path("work/inner/made-by-probe"));
  }

  // The server whose directory holds this one's swaps it for a link.
  Replace(Path("work/inner"), Elsewhere());
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    CommandOutput started = Start("inner", {}, layers);
    EXPECT_EQ(started.status, 125) << LayersName(layers) << started.out << started.err;
    EXPECT_THAT(started.err, HasSubstr(Path("work/inner") + " now leads through a link"));
  }
  EXPECT_FALSE(std::filesystem::exists(Elsewhere() + "/made-by-probe"));
}

TEST_F(PlantedTest, TheHomeAboveItAndTheSystemsDirectoriesAreNeverItsDirectory) {
  for (const std::string& directory :
       {Path("home"), scenario_, std::string("/"), std::string("/etc"), std::string("/usr/lib"),
        std::string("/tmp")}) {
    CommandOutput added = Mcp({"add", "bad", "--dir", directory, "--", "/bin/true"});
    EXPECT_EQ(added.status, 1) << directory << ": " << added.out;
    EXPECT_THAT(added.err, HasSubstr("give the server a directory of its own")) << directory;
  }
}

// --- Processes that mean to outlive it ---

// The words that declare a server that leaves a daemon in a session of its own
// and a double-forked one behind, each marked by an argument no other process
// holds, and ends after `lasting` seconds.
std::vector<std::string> DeclareDaemons(const std::string& marker, const std::string& lasting) {
  return {"add", "daemons",
          "--",  "/bin/sh",
          "-c",  "setsid sleep " + marker + "1 & (sleep " + marker + "2 &) ; sleep " + lasting};
}

bool AnyLeft(const std::string& marker) {
  return !ProcessesWithArgument(marker + "1").empty() ||
         !ProcessesWithArgument(marker + "2").empty();
}

// Waits up to a few seconds for the daemons to end (a killed process is gone
// as soon as the kernel reaps it, not at once).
bool EndSoon(const std::string& marker) {
  for (int tries = 0; tries < 100 && AnyLeft(marker); ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  return !AnyLeft(marker);
}

TEST_F(PlantedTest, DaemonsItStartedEndWhenItStops) {
  for (Layers layers : {Layers::kEvery, Layers::kWithoutNamespaces, Layers::kBubblewrap}) {
    if (!Runs(layers)) continue;
    const std::string marker =
        "29" + std::to_string(::getpid()) + std::to_string(static_cast<int>(layers)) + ".";
    ASSERT_EQ(Mcp(DeclareDaemons(marker, "0.3")).status, 0);
    CommandOutput run = Start("daemons", {}, layers);
    EXPECT_EQ(run.status, 0) << LayersName(layers) << run.err;
    EXPECT_TRUE(EndSoon(marker)) << "a daemon outlived the server under " << LayersName(layers);
  }
}

TEST_F(PlantedTest, DaemonsItStartedEndWhenItsStarterIsKilled) {
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    const std::string marker =
        "28" + std::to_string(::getpid()) + std::to_string(static_cast<int>(layers)) + ".";
    ASSERT_EQ(Mcp(DeclareDaemons(marker, "100")).status, 0);
    std::vector<std::string> environment = Environment({});
    for (const std::string& variable : LayersEnvironment(layers)) environment.push_back(variable);
    pid_t starter = StartCommand({ConfinedExec(), "daemons"}, environment);
    ASSERT_GT(starter, 0);
    for (int tries = 0; tries < 200 && !(ProcessesWithArgument(marker + "1").size() == 1 &&
                                         ProcessesWithArgument(marker + "2").size() == 1);
         ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(AnyLeft(marker)) << "the daemons never started under " << LayersName(layers);
    ::kill(starter, SIGKILL);
    WaitForExit(starter);
    EXPECT_TRUE(EndSoon(marker)) << "a daemon outlived its starter's SIGKILL under "
                                 << LayersName(layers);
  }
}

}  // namespace
}  // namespace bravebot::testing
