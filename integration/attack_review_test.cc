// An attacker's review of the change that grants only where a path leads and
// starts each server in a PID namespace: each test here is an attack that
// worked when it was written, and passes once the attack no longer does.
//
//   - A home reached through a link (HOME=/home/u with /home a link, or HOME
//     ending in a slash) is not recognised as the home: --dir ~ is accepted,
//     and ~/bin or ~/.local/bin in PATH gives the whole directory above it.
//   - A server leaves a setuid (or setgid) program in its --dir, which any
//     other user who can reach that directory runs as the person (or as root
//     when bravebot-mcp runs as root).
//   - Without user namespaces, a chain of daemons deeper than EndStrays has
//     passes outlives the server.
//   - A temporary directory deeper than the descriptors the starter may open
//     is left behind.
//   - A server's #! line and a link it planted reach the person's terminal
//     with their control characters (escape sequences) as they are.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
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

class AttackReviewTest : public HostileTest {
 protected:
  // The environment of a person whose HOME is `home`, with the fixture's
  // profile directory (outside the home) and `path` as PATH.
  std::vector<std::string> Environment(const std::string& home, const std::string& path,
                                       const Named& named = {}) const {
    std::vector<std::string> environment = {"BRAVEBOT_HOME=" + Profile(), "HOME=" + home,
                                            "PATH=" + path};
    for (const auto& [name, value] : named) environment.push_back(name + "=" + value);
    return environment;
  }

  CommandOutput Mcp(std::vector<std::string> words, const std::vector<std::string>& environment) {
    words.insert(words.begin(), OurProgram("bravebot-mcp"));
    return RunCommand(words, environment, scenario_);
  }

  // confined-exec [layers] WORDS, in the scenario.
  CommandOutput Exec(const std::vector<std::string>& words,
                     const std::vector<std::string>& environment,
                     Layers layers = Layers::kEvery) const {
    std::vector<std::string> argv = {ConfinedExec()};
    for (const std::string& flag : LayersFlags(layers)) argv.push_back(flag);
    argv.insert(argv.end(), words.begin(), words.end());
    std::vector<std::string> with_backend = environment;
    for (const std::string& variable : LayersEnvironment(layers)) with_backend.push_back(variable);
    return RunCommand(argv, with_backend, scenario_);
  }

  // read_outside run with `environment` (PATH and TARGET named from it) under
  // each backend that runs here: refused as Landlock refuses (EACCES), or,
  // under bubblewrap, not there (ENOENT).
  ::testing::AssertionResult ReadOutsideIsRefused(const std::vector<std::string>& environment) {
    std::string failures;
    for (Layers layers : {Layers::kEvery, Layers::kBubblewrap}) {
      if (!Runs(layers)) continue;
      CommandOutput run = Exec({"hostile-probe", "-e", "PATH", "-e", "TARGET", "--dir",
                                Path("work"), "--", ProbesDirectory() + "/read_outside"},
                               environment, layers);
      // What it reads is in the person's home, hidden below Landlock ABI 9.
      ::testing::AssertionResult refused = Refused(run, RefusedInAHiddenPlaceWith(layers));
      if (!refused)
        failures += std::string("\nunder ") + LayersName(layers) + ": " + refused.message();
    }
    if (failures.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << failures;
  }

  // A person's home at realhome, named through the link linkhome (as when
  // /home is a link to another disk), with a secret in it and in ~/.local.
  std::string LinkedHome() {
    MakeDirectory(Path("realhome"), 0755);
    WriteFile(Path("realhome/secret"), "the person's secret\n", 0644);
    MakeDirectory(Path("realhome/bin"), 0755);
    MakeDirectory(Path("realhome/.local"), 0755);
    MakeDirectory(Path("realhome/.local/bin"), 0755);
    MakeDirectory(Path("realhome/.local/share"), 0755);
    WriteFile(Path("realhome/.local/share/secret"), "a keyring\n", 0644);
    std::filesystem::create_symlink(Path("realhome"), Path("linkhome"));
    return Path("linkhome");
  }
};

// --- The home, named through a link ---

TEST_F(AttackReviewTest, AHomeReachedThroughALinkIsNeverItsDirectory) {
  const std::string home = LinkedHome();
  for (const std::string& directory : {home, Path("realhome")}) {
    CommandOutput added = Mcp({"add", "bad", "--dir", directory, "--", "/bin/true"},
                              Environment(home, "/usr/bin:/bin"));
    EXPECT_EQ(added.status, 1) << "--dir " << directory << " with HOME=" << home
                               << " was accepted: the server may write the whole home\n"
                               << added.out << added.err;
    EXPECT_THAT(added.err, HasSubstr("give the server a directory of its own")) << directory;
  }
}

TEST_F(AttackReviewTest, HomeBinInPathDoesNotGiveAHomeReachedThroughALink) {
  const std::string home = LinkedHome();
  const std::vector<std::string> environment =
      Environment(home, home + "/bin:/usr/bin:/bin", {{"TARGET", Path("realhome/secret")}});
  EXPECT_TRUE(ReadOutsideIsRefused(environment));
  CommandOutput added = Mcp({"add", "homebin", "-e", "PATH", "--", "/bin/true"}, environment);
  ASSERT_EQ(added.status, 0) << added.err;
  const std::string reach = Mcp({"reach", "homebin"}, environment).out;
  EXPECT_EQ(reach.find("    " + Path("realhome") + "  "), std::string::npos)
      << "reach gives the whole home: "
      << reach.substr(reach.find("    " + Path("realhome") + "  "), 200);
}

TEST_F(AttackReviewTest, LocalBinInPathGivesOnlyItselfWhenTheHomeIsReachedThroughALink) {
  const std::string home = LinkedHome();
  const std::vector<std::string> environment = Environment(
      home, home + "/.local/bin:/usr/bin:/bin", {{"TARGET", Path("realhome/.local/share/secret")}});
  EXPECT_TRUE(ReadOutsideIsRefused(environment));
}

TEST_F(AttackReviewTest, LocalBinInPathGivesOnlyItselfWhenHomeEndsInASlash) {
  MakeDirectory(Path("home/.local"), 0755);
  MakeDirectory(Path("home/.local/bin"), 0755);
  MakeDirectory(Path("home/.local/share"), 0755);
  WriteFile(Path("home/.local/share/secret"), "a keyring\n", 0644);
  const std::vector<std::string> environment =
      Environment(Path("home") + "/", Path("home/.local/bin") + ":/usr/bin:/bin",
                  {{"TARGET", Path("home/.local/share/secret")}});
  EXPECT_TRUE(ReadOutsideIsRefused(environment));
}

// --- System V IPC: no file, so no Landlock rule sees it ---

// A shared memory segment another program of the person's made, mode 0600,
// holding a secret; removed when the test ends.
class SharedSegment {
 public:
  SharedSegment() {
    id_ = ::shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    if (id_ < 0) return;
    void* at = ::shmat(id_, nullptr, 0);
    if (at == reinterpret_cast<void*>(-1)) return;
    std::strcpy(static_cast<char*>(at), "another program's secret");
    ::shmdt(at);
  }
  ~SharedSegment() {
    if (id_ >= 0) ::shmctl(id_, IPC_RMID, nullptr);
  }
  int id() const { return id_; }

 private:
  int id_ = -1;
};

TEST_F(AttackReviewTest, ASharedMemorySegmentOfAnotherProgramIsOutOfReach) {
  SharedSegment segment;
  ASSERT_GE(segment.id(), 0) << std::strerror(errno);
  // In an IPC namespace of its own, ours or bwrap's, the segment does not
  // exist (EINVAL).
  EXPECT_TRUE(Meets("sysv_shm_outside", {{"SHM_ID", std::to_string(segment.id())}}, {},
                    {"Invalid argument", "Invalid argument", "Invalid argument", std::nullopt,
                     "Invalid argument"}));
}

TEST_F(AttackReviewTest, ASharedMemorySegmentOfAnotherProgramIsOutOfReachWithoutNamespaces) {
  // No IPC namespace can be had there: only the filter could refuse it.
  SharedSegment segment;
  ASSERT_GE(segment.id(), 0) << std::strerror(errno);
  EXPECT_TRUE(Meets("sysv_shm_outside", {{"SHM_ID", std::to_string(segment.id())}}, {},
                    {std::nullopt, std::nullopt, std::nullopt, kNotPermitted, std::nullopt}));
}

// --- What it leaves in its own directory for others to run ---

TEST_F(AttackReviewTest, AProgramItLeavesInItsDirectoryIsNeitherSetuidNorSetgid) {
  // Any other user who can reach the directory runs the copy as the person
  // (as root, where bravebot-mcp runs as root): the view makes the rest of
  // the machine read-only, not the server's own directories, and no new
  // privileges binds only the server.
  const char* const plants =
      "cp /bin/true ./setuid; chmod 4755 ./setuid; "
      "cp /bin/true ./setgid; chmod 2755 ./setgid; "
      "install -m 4755 /bin/true ./installed; exit 0";
  for (Layers layers : {Layers::kEvery, Layers::kBubblewrap}) {
    if (!Runs(layers)) continue;
    CommandOutput run = Exec({"planter", "--dir", Path("work"), "--", "/bin/sh", "-c", plants},
                             Environment(Path("home"), "/usr/bin:/bin"), layers);
    ASSERT_EQ(run.status, 0) << LayersName(layers) << run.out << run.err;
    EXPECT_THAT(run.err, HasSubstr(kNotPermitted)) << LayersName(layers);
    for (const char* name : {"setuid", "setgid", "installed"}) {
      struct stat status;
      ASSERT_EQ(::stat(Path(std::string("work/") + name).c_str(), &status), 0) << name;
      EXPECT_EQ(status.st_mode & (S_ISUID | S_ISGID), 0u)
          << "the server left work/" << name << " with mode " << std::oct
          << (status.st_mode & 07777) << " under " << LayersName(layers);
    }
    ForgetWhatTheProbeMade();
  }
}

// --- Daemons, without a PID namespace, and in bwrap's ---

TEST_F(AttackReviewTest, AChainOfDaemonsDeeperThanEndStraysPassesEndsWhenItStops) {
  // Each link of the chain is a session of its own and the parent of the
  // next: when the server ends, only the first becomes the starter's child,
  // and EndStrays peels one link a pass, 50 passes at most. In a PID
  // namespace, ours or bwrap's, the whole chain ends with its first process.
  WriteFile(Path("work/chain.sh"),
            "n=$1\n"
            "if [ \"$n\" -gt 0 ]; then setsid /bin/sh \"$0\" $((n-1)) \"$2\" & else : > done; fi\n"
            "exec sleep \"$2\"\n",
            0644);
  for (Layers layers : {Layers::kEvery, Layers::kWithoutNamespaces, Layers::kBubblewrap}) {
    if (!Runs(layers)) continue;
    const std::string marker =
        "27" + std::to_string(::getpid()) + std::to_string(static_cast<int>(layers)) + ".7";
    std::filesystem::remove(Path("work/done"));
    CommandOutput run =
        Exec({"chain", "--dir", Path("work"), "--", "/bin/sh", "-c",
              "/bin/sh ./chain.sh 60 " + marker +
                  " </dev/null >/dev/null 2>&1 & while [ ! -e done ]; do sleep 0.05; done"},
             Environment(Path("home"), "/usr/bin:/bin"), layers);
    EXPECT_EQ(run.status, 0) << LayersName(layers) << run.err;
    std::vector<std::string> left;
    for (int tries = 0; tries < 100; ++tries) {
      left = ProcessesWithArgument(marker);
      if (left.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
    }
    EXPECT_THAT(left, ::testing::IsEmpty())
        << left.size() << " links of the chain outlived the server under " << LayersName(layers);
    // What outlived it is the test's own: ended here, whatever a pass missed.
    for (int tries = 0; tries < 100 && !left.empty(); ++tries) {
      for (const std::string& pid : left) ::kill(std::stoi(pid), SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      left = ProcessesWithArgument(marker);
    }
  }
}

// --- Its temporary directory ---

TEST_F(AttackReviewTest, ItsTemporaryDirectoryIsRemovedHoweverDeepItsTree) {
  // remove_all holds a descriptor a level: a tree deeper than the starter may
  // open stays in /tmp, and the failure is ignored.
  const std::string script =
      "cd \"$TMPDIR\" && echo \"$TMPDIR\" && i=0 && "
      "while [ $i -lt 400 ]; do mkdir d && cd d || exit 3; i=$((i+1)); done";
  std::vector<std::string> argv = {"/bin/sh", "-c",           "ulimit -n 256 && exec \"$@\"",
                                   "sh",      ConfinedExec(), "deep",
                                   "--dir",   Path("work"),   "--",
                                   "/bin/sh", "-c",           script};
  for (Layers layers : {Layers::kEvery, Layers::kBubblewrap}) {
    if (!Runs(layers)) continue;
    std::vector<std::string> environment = Environment(Path("home"), "/usr/bin:/bin");
    for (const std::string& variable : LayersEnvironment(layers)) environment.push_back(variable);
    CommandOutput run = RunCommand(argv, environment, scenario_);
    ASSERT_EQ(run.status, 0) << LayersName(layers) << run.out << run.err;
    const std::string temporary = run.out.substr(0, run.out.find('\n'));
    ASSERT_THAT(temporary, HasSubstr("/bravebot-run-"));
    const bool left = std::filesystem::exists(temporary);
    EXPECT_FALSE(left) << temporary << " was left behind under " << LayersName(layers);
    if (left) std::filesystem::remove_all(temporary);
  }
}

// --- What a server wrote, shown to the person ---

TEST_F(AttackReviewTest, ItsHashBangLineReachesNoTerminalAsItIs) {
  // "\e]0;...\a" retitles a terminal; "\e]52;c;...\a" writes the clipboard
  // on many; "\e[2J" clears what the person was reading.
  WriteFile(Path("work/server"), "#!/usr/bin/env -S -\x1b]0;owned\x07\x1b[2J node\n", 0755);
  const std::vector<std::string> environment = Environment(Path("home"), "/usr/bin:/bin");
  ASSERT_EQ(
      Mcp({"add", "script", "--dir", Path("work"), "--", Path("work/server")}, environment).status,
      0);
  CommandOutput reach = Mcp({"reach", "script"}, environment);
  EXPECT_THAT(reach.out, HasSubstr("not read here"));
  EXPECT_EQ(reach.out.find('\x1b'), std::string::npos)
      << "bravebot-mcp reach wrote the server's escape sequences to the terminal";
}

TEST_F(AttackReviewTest, ALinkItPlantedReachesNoTerminalAsItIs) {
  const std::string elsewhere = Path("outside/\x1b]0;owned\x07");
  std::filesystem::copy_file("/bin/true", elsewhere);
  std::filesystem::copy_file("/bin/true", Path("work/tool"));
  const std::vector<std::string> environment = Environment(Path("home"), "/usr/bin:/bin");
  ASSERT_EQ(
      Mcp({"add", "tool", "--dir", Path("work"), "--", Path("work/tool")}, environment).status, 0);
  std::filesystem::remove(Path("work/tool"));
  std::filesystem::create_symlink(elsewhere, Path("work/tool"));
  std::vector<std::string> argv = {OurProgram("mcp-run"), "tool"};
  CommandOutput run = RunCommand(argv, environment, scenario_);
  EXPECT_NE(run.status, 0);
  EXPECT_THAT(run.err, HasSubstr("leads through the link"));
  EXPECT_EQ(run.err.find('\x1b'), std::string::npos)
      << "mcp-run wrote the server's escape sequences to the terminal";
}

}  // namespace
}  // namespace bravebot::testing
