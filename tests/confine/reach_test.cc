#include "confine/reach.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "confine/digest.h"
#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using testing::FakeFileSystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kHome[] = "/home/u";
constexpr char kNvmBin[] = "/home/u/.nvm/versions/node/v20/bin";

class ReachTest : public ::testing::Test {
 protected:
  ReachTest() {
    fs_.AddDirectory("/home/u/.bravebot/mcp-home");
    fs_.AddDirectory("/tmp/bravebot-run");
    fs_.AddExecutable("/usr/bin/env");
    fs_.AddExecutable("/usr/bin/python3");
    fs_.AddDirectory("/usr/local/bin");
    fs_.AddDirectory("/lib");
    fs_.AddDirectory("/bin");
    fs_.AddDirectory("/proc");
    fs_.AddDirectory("/sys");
    fs_.AddFile("/etc/passwd");
    fs_.AddFile("/etc/shadow");
    fs_.AddFile("/etc/gshadow");
    fs_.AddDirectory("/etc/sudoers.d");
    fs_.AddFile("/etc/ssl/openssl.cnf");
    fs_.AddDirectory("/etc/ssl/private");
    fs_.AddDirectory("/etc/ssl/certs");
    fs_.AddFile("/etc/ssh/ssh_config");
    fs_.AddFile("/etc/ssh/ssh_host_ed25519_key");
    fs_.AddFile("/etc/ssh/ssh_host_ed25519_key.pub");
    fs_.AddFile("/run/systemd/resolve/stub-resolv.conf");
    fs_.AddLink("/etc/resolv.conf", "../run/systemd/resolve/stub-resolv.conf");
    fs_.AddLink("/etc/mtab", "/proc/mounts");
    fs_.AddFile("/proc/mounts");
    fs_.AddLink("/etc/sneaky", "shadow");
    fs_.AddExecutable(std::string(kNvmBin) + "/node");
    fs_.AddLink(std::string(kNvmBin) + "/npx", "../lib/node_modules/npm/bin/npx-cli.js");
    fs_.AddExecutable("/home/u/.nvm/versions/node/v20/lib/node_modules/npm/bin/npx-cli.js",
                      "#!/usr/bin/env node\nrequire('../lib/cli.js')\n");
    fs_.AddDirectory("/home/u/.local/bin");
    fs_.AddDirectory("/home/u/.cargo/bin");
    fs_.AddFile("/home/u/notes.txt");
    environment_ = {{"PATH", std::string(kNvmBin) + ":/usr/local/bin:/usr/bin:/bin"},
                    {"HOME", kHome},
                    {"LANG", "C.UTF-8"}};
  }

  ReachInputs Inputs() {
    ReachInputs inputs;
    inputs.fs = &fs_;
    inputs.getenv = [this](const char* name) -> const char* {
      auto found = environment_.find(name);
      return found == environment_.end() ? nullptr : found->second.c_str();
    };
    inputs.user_home = kHome;
    inputs.profile = {"/home/u/.bravebot", "/home/u/.bravebot"};
    inputs.system_temporary_root = "/tmp";
    inputs.temporary_directory = "/tmp/bravebot-run";
    return inputs;
  }

  Declaration Npx() {
    Declaration declaration;
    declaration.alias = "everything";
    declaration.program = "npx";
    declaration.arguments = {"-y", "@modelcontextprotocol/server-everything"};
    declaration.passed_variables = {"PATH"};
    return declaration;
  }

  Reach ReachOf(const Declaration& declaration) {
    Result<Reach> reach = ComputeReach(declaration, Inputs());
    EXPECT_TRUE(reach.ok()) << reach.error().message();
    return reach.ok() ? *reach : Reach{};
  }

  static const ReachPath* Find(const Reach& reach, const std::string& path) {
    for (const ReachPath& granted : reach.paths) {
      if (granted.path == path) return &granted;
    }
    return nullptr;
  }
  static std::string WhyNot(const Reach& reach, const std::string& path) {
    for (const NotGranted& refused : reach.not_granted) {
      if (refused.path == path) return refused.why;
    }
    return "";
  }
  static bool Reaches(const Reach& reach, const std::string& path) {
    for (const ReachPath& granted : reach.paths) {
      if (granted.file_only ? granted.path == path
                            : path == granted.path || path.starts_with(granted.path + "/")) {
        return true;
      }
    }
    return false;
  }

  FakeFileSystem fs_;
  std::map<std::string, std::string> environment_;
};

TEST_F(ReachTest, NpxFromNvmIsFoundThroughThePathAndItsInstallationGiven) {
  Reach reach = ReachOf(Npx());
  EXPECT_EQ(reach.program, std::string(kNvmBin) + "/npx");
  EXPECT_THAT(reach.argv, ElementsAre("npx", "-y", "@modelcontextprotocol/server-everything"));
  const ReachPath* installation = Find(reach, "/home/u/.nvm/versions/node/v20");
  ASSERT_NE(installation, nullptr);
  EXPECT_EQ(installation->access, PathAccess::kReadExecute);
  EXPECT_EQ(installation->reason, "installation around PATH entry " + std::string(kNvmBin));
  // The rest of the home is not reached.
  EXPECT_FALSE(Reaches(reach, "/home/u/notes.txt"));
  EXPECT_FALSE(Reaches(reach, "/home/u/.nvm"));
  EXPECT_FALSE(Reaches(reach, "/home/u/.bravebot/mcp.json"));
}

TEST_F(ReachTest, ShallowBinDirectoriesOfTheHomeGiveOnlyThemselves) {
  environment_["PATH"] = "/home/u/.local/bin:/home/u/.cargo/bin:/usr/bin";
  Declaration declaration = Npx();
  declaration.program = "/usr/bin/python3";
  Reach reach = ReachOf(declaration);
  EXPECT_NE(Find(reach, "/home/u/.local/bin"), nullptr);
  EXPECT_NE(Find(reach, "/home/u/.cargo/bin"), nullptr);
  EXPECT_EQ(Find(reach, "/home/u/.local"), nullptr);
  EXPECT_EQ(Find(reach, "/home/u/.cargo"), nullptr);
}

TEST_F(ReachTest, SystemBinDirectoriesGiveTheirInstallationButNeverTheRoot) {
  Reach reach = ReachOf(Npx());
  const ReachPath* local = Find(reach, "/usr/local");
  ASSERT_NE(local, nullptr);
  EXPECT_THAT(local->reason, HasSubstr("installation around PATH entry /usr/local/bin"));
  EXPECT_NE(Find(reach, "/bin"), nullptr);
  EXPECT_EQ(Find(reach, "/"), nullptr);
}

TEST_F(ReachTest, PathEntriesARuleLeavesOutAreSaidWhy) {
  environment_["PATH"] = "relative/bin::/home/u:/home:/:/home/u/.bravebot/bin:/tmp:/usr/bin";
  Declaration declaration = Npx();
  declaration.program = "/usr/bin/python3";
  Reach reach = ReachOf(declaration);
  EXPECT_THAT(WhyNot(reach, "relative/bin"), HasSubstr("not an absolute path"));
  EXPECT_THAT(WhyNot(reach, "(empty)"), HasSubstr("not an absolute path"));
  EXPECT_THAT(WhyNot(reach, "/home/u"), HasSubstr("it is your home"));
  EXPECT_THAT(WhyNot(reach, "/home"), HasSubstr("it holds your home"));
  EXPECT_THAT(WhyNot(reach, "/"), HasSubstr("it holds your home"));
  EXPECT_THAT(WhyNot(reach, "/home/u/.bravebot/bin"), HasSubstr("profile directory"));
  EXPECT_THAT(WhyNot(reach, "/tmp"), HasSubstr("temporary directory"));
  EXPECT_FALSE(Reaches(reach, "/home/u/notes.txt"));
}

TEST_F(ReachTest, AProgramThatIsALinkIntoAnotherInstallationGivesBoth) {
  fs_.AddExecutable("/opt/tool-2.1/bin/tool");
  fs_.AddLink("/usr/local/bin/tool", "/opt/tool-2.1/bin/tool");
  Declaration declaration = Npx();
  declaration.program = "tool";
  environment_["PATH"] = "/usr/local/bin";
  Reach reach = ReachOf(declaration);
  EXPECT_EQ(reach.program, "/usr/local/bin/tool");
  const ReachPath* target = Find(reach, "/opt/tool-2.1/bin");
  ASSERT_NE(target, nullptr);
  EXPECT_THAT(target->reason, HasSubstr("through links, /opt/tool-2.1/bin/tool"));
  EXPECT_NE(Find(reach, "/opt/tool-2.1"), nullptr);
}

TEST_F(ReachTest, AnEnvScriptGivesTheInterpreterFoundThroughThePath) {
  fs_.AddExecutable("/srv/node-22/bin/node");
  fs_.AddExecutable("/srv/app/server.js", "#!/usr/bin/env node\n");
  environment_["PATH"] = "/srv/node-22/bin:/usr/bin";
  Declaration declaration = Npx();
  declaration.program = "/srv/app/server.js";
  declaration.arguments = {};
  Reach reach = ReachOf(declaration);
  EXPECT_NE(Find(reach, "/srv/app"), nullptr);
  const ReachPath* node = Find(reach, "/srv/node-22/bin");
  ASSERT_NE(node, nullptr);
  EXPECT_NE(Find(reach, "/srv/node-22"), nullptr);
}

TEST_F(ReachTest, AProgramInTheHomeItselfIsGivenAlone) {
  fs_.AddExecutable("/home/u/server", "#!/usr/bin/python3\n");
  Declaration declaration = Npx();
  declaration.program = "/home/u/server";
  Reach reach = ReachOf(declaration);
  const ReachPath* program = Find(reach, "/home/u/server");
  ASSERT_NE(program, nullptr);
  EXPECT_TRUE(program->file_only);
  EXPECT_EQ(Find(reach, "/home/u"), nullptr);
  EXPECT_FALSE(Reaches(reach, "/home/u/notes.txt"));
}

TEST_F(ReachTest, WithoutPathAProgramByNameIsNotFound) {
  Declaration declaration = Npx();
  declaration.passed_variables = {};
  Result<Reach> reach = ComputeReach(declaration, Inputs());
  ASSERT_FALSE(reach.ok());
  EXPECT_THAT(reach.error().message(), HasSubstr("name PATH for it (-e PATH)"));
  EXPECT_THAT(reach.error().message(), HasSubstr("full path"));
  declaration.passed_variables = {"PATH"};
  environment_["PATH"] = "/usr/bin";
  reach = ComputeReach(declaration, Inputs());
  ASSERT_FALSE(reach.ok());
  EXPECT_THAT(reach.error().message(), HasSubstr("not found in the PATH the server is given"));
}

TEST_F(ReachTest, EnvironmentIsExactlyWhatWasGiven) {
  Declaration declaration = Npx();
  declaration.stored_variables = {{"TOKEN", "sk"}};
  declaration.passed_variables = {"PATH", "UNSET_ONE"};
  Reach reach = ReachOf(declaration);
  std::vector<std::string> names;
  for (const ReachVariable& variable : reach.environment) names.push_back(variable.name);
  EXPECT_THAT(names, ElementsAre("HOME", "PATH", "TMPDIR", "TOKEN"));
  EXPECT_THAT(reach.unset_variables, ElementsAre("UNSET_ONE"));
  EXPECT_EQ(reach.environment[0].value,
            "/home/u/.bravebot/mcp-home/" + ComputeDigest(declaration).hex);
  EXPECT_EQ(reach.environment[2].value, "/tmp/bravebot-run");
}

TEST_F(ReachTest, HomeNamedByThePersonIsKept) {
  Declaration declaration = Npx();
  declaration.passed_variables = {"PATH", "HOME"};
  Reach reach = ReachOf(declaration);
  size_t homes = 0;
  for (const ReachVariable& variable : reach.environment) {
    if (variable.name != "HOME") continue;
    EXPECT_EQ(variable.value, kHome);
    ++homes;
  }
  EXPECT_EQ(homes, 1u);
}

TEST_F(ReachTest, WritableDirectoriesAreTheHomeTheTemporaryAndTheWorkingDirectory) {
  fs_.AddDirectory("/srv/data");
  Declaration declaration = Npx();
  declaration.directory = "/srv/data";
  Reach reach = ReachOf(declaration);
  std::vector<std::string> writable;
  for (const ReachPath& path : reach.paths) {
    if (path.access == PathAccess::kReadWriteExecute) writable.push_back(path.path);
  }
  EXPECT_THAT(writable, ElementsAre(reach.home, "/tmp/bravebot-run", "/srv/data"));
  EXPECT_EQ(reach.working_directory, "/srv/data");
  EXPECT_THAT(reach.socket_directories, ElementsAre(reach.home, "/tmp/bravebot-run", "/srv/data"));
}

TEST_F(ReachTest, WithoutDirItStartsInItsTemporaryDirectory) {
  Reach reach = ReachOf(Npx());
  EXPECT_EQ(reach.working_directory, "/tmp/bravebot-run");
  EXPECT_FALSE(Reaches(reach, "/tmp/other-program.sock"));
}

TEST_F(ReachTest, ADirectoryThatBecameARepositoryOrALinkIntoOneIsRefusedAtStart) {
  fs_.AddDirectory("/srv/data/.git");
  Declaration declaration = Npx();
  declaration.directory = "/srv/data";
  Result<Reach> reach = ComputeReach(declaration, Inputs());
  ASSERT_FALSE(reach.ok());
  EXPECT_THAT(reach.error().message(), HasSubstr("/srv/data is a git repository"));

  fs_.AddDirectory("/home/u/work/app/.git");
  fs_.AddLink("/srv/moved", "/home/u/work/app");
  declaration.directory = "/srv/moved";
  reach = ComputeReach(declaration, Inputs());
  ASSERT_FALSE(reach.ok());
  EXPECT_THAT(reach.error().message(), HasSubstr("/home/u/work/app is a git repository"));
}

TEST_F(ReachTest, AHomeThatIsAWorkTreeRefusesEveryDirectoryInIt) {
  fs_.AddDirectory("/home/u/.git");
  fs_.AddDirectory("/home/u/servers/data");
  Declaration declaration = Npx();
  declaration.directory = "/home/u/servers/data";
  Result<Reach> reach = ComputeReach(declaration, Inputs());
  ASSERT_FALSE(reach.ok());
  EXPECT_THAT(reach.error().message(), HasSubstr("inside the git repository /home/u"));
}

TEST_F(ReachTest, EtcIsGivenEntryByEntryWithoutItsSecrets) {
  Reach reach = ReachOf(Npx());
  EXPECT_TRUE(Reaches(reach, "/etc/passwd"));
  EXPECT_TRUE(Reaches(reach, "/etc/ssl/openssl.cnf"));
  EXPECT_TRUE(Reaches(reach, "/etc/ssl/certs/ca.pem"));
  EXPECT_TRUE(Reaches(reach, "/etc/ssh/ssh_config"));
  EXPECT_TRUE(Reaches(reach, "/etc/ssh/ssh_host_ed25519_key.pub"));
  for (const char* secret : {"/etc/shadow", "/etc/gshadow", "/etc/sudoers.d/x",
                             "/etc/ssl/private/key.pem", "/etc/ssh/ssh_host_ed25519_key"}) {
    EXPECT_FALSE(Reaches(reach, secret)) << secret;
  }
  EXPECT_THAT(WhyNot(reach, "/etc/shadow"), HasSubstr("secret"));
  EXPECT_EQ(Find(reach, "/etc"), nullptr);
}

TEST_F(ReachTest, LinksOutOfEtcAreFollowedButNotIntoASecret) {
  Reach reach = ReachOf(Npx());
  const ReachPath* resolver = Find(reach, "/run/systemd/resolve/stub-resolv.conf");
  ASSERT_NE(resolver, nullptr);
  EXPECT_EQ(resolver->reason, "target of the link /etc/resolv.conf");
  EXPECT_TRUE(resolver->file_only);
  EXPECT_EQ(Find(reach, "/proc/mounts"), nullptr);  // under /proc, given already
  EXPECT_EQ(Find(reach, "/etc/sneaky"), nullptr);
  EXPECT_THAT(WhyNot(reach, "/etc/sneaky"), HasSubstr("a link to a secret"));
  EXPECT_FALSE(Reaches(reach, "/etc/shadow"));
}

// A link in /etc is granted where it leads, whole when that is a directory:
// a directory holding secrets (or the root) is then given with them, where
// /etc itself gives it entry by entry.
TEST_F(ReachTest, LinksInEtcToADirectoryHoldingSecretsGiveNoneOfThem) {
  fs_.AddFile("/etc/ssl/private/key.pem");
  fs_.AddLink("/etc/ssl-compat", "ssl");
  fs_.AddLink("/etc/sysroot", "/");
  Reach reach = ReachOf(Npx());
  EXPECT_TRUE(Reaches(reach, "/etc/ssl/openssl.cnf"));
  for (const char* secret : {"/etc/ssl/private/key.pem", "/etc/shadow", "/etc/gshadow"}) {
    EXPECT_FALSE(Reaches(reach, secret)) << secret;
  }
}

TEST_F(ReachTest, DevicesAndKernelViews) {
  Reach reach = ReachOf(Npx());
  EXPECT_EQ(Find(reach, "/dev/null")->access, PathAccess::kReadWrite);
  EXPECT_EQ(Find(reach, "/dev/urandom")->access, PathAccess::kRead);
  EXPECT_EQ(Find(reach, "/proc")->access, PathAccess::kRead);
  EXPECT_FALSE(Reaches(reach, "/dev/sda"));
}

TEST_F(ReachTest, FilesItMayReadAreGivenAloneWhileTheDeclarationNamesThem) {
  fs_.AddFile("/home/u/keys/brave-api-key");
  fs_.AddFile("/home/u/keys/other-key");
  Declaration declaration = Npx();
  declaration.stored_variables = {{"BRAVE_API_KEY_FILE", "/home/u/keys/brave-api-key"}};
  declaration.may_read = {"/home/u/keys/brave-api-key", "/home/u/keys/other-key"};
  Reach reach = ReachOf(declaration);
  const ReachPath* key = Find(reach, "/home/u/keys/brave-api-key");
  ASSERT_NE(key, nullptr);
  EXPECT_TRUE(key->file_only);
  EXPECT_EQ(key->access, PathAccess::kRead);
  EXPECT_FALSE(Reaches(reach, "/home/u/keys/other-key"));
  EXPECT_THAT(WhyNot(reach, "/home/u/keys/other-key"), HasSubstr("no value or argument"));
}

// --- What a server may write never steers its reach ---

TEST_F(ReachTest, AFileItMayReadThatBecameALinkInItsDirectoryIsNotGiven) {
  fs_.AddDirectory("/srv/memory");
  fs_.AddFile("/home/u/.bravebot/mcp.json");
  fs_.AddLink("/srv/memory/memory.json", "/home/u/.bravebot/mcp.json");
  fs_.AddFile("/srv/memory/notes.json");
  fs_.AddLink("/srv/memory/latest.json", "notes.json");
  Declaration declaration = Npx();
  declaration.directory = "/srv/memory";
  declaration.stored_variables = {{"MEMORY_FILE_PATH", "/srv/memory/memory.json"},
                                  {"NOTES", "/srv/memory/latest.json"}};
  declaration.may_read = {"/srv/memory/memory.json", "/srv/memory/latest.json"};
  Reach reach = ReachOf(declaration);
  EXPECT_FALSE(Reaches(reach, "/home/u/.bravebot/mcp.json"));
  EXPECT_THAT(WhyNot(reach, "/srv/memory/memory.json"), HasSubstr("leads through the link"));
  // A link inside the directory to a file inside it is not what add recorded either.
  EXPECT_THAT(WhyNot(reach, "/srv/memory/latest.json"), HasSubstr("it is now a link"));
}

TEST_F(ReachTest, AFileItMayReadIsGivenWhereItLeadsOutsideEveryWritableDirectory) {
  fs_.AddFile("/home/u/keys/brave-api-key");
  fs_.AddLink("/home/u/current-key", "keys/brave-api-key");
  fs_.AddLink("/home/u/profile-key", ".bravebot/mcp.json");
  fs_.AddFile("/home/u/.bravebot/mcp.json");
  Declaration declaration = Npx();
  declaration.arguments = {"--key=/home/u/current-key", "/home/u/profile-key"};
  declaration.may_read = {"/home/u/current-key", "/home/u/profile-key"};
  Reach reach = ReachOf(declaration);
  const ReachPath* key = Find(reach, "/home/u/keys/brave-api-key");
  ASSERT_NE(key, nullptr);
  EXPECT_THAT(key->reason, HasSubstr("/home/u/current-key (through links)"));
  EXPECT_THAT(WhyNot(reach, "/home/u/profile-key"), HasSubstr("profile directory"));
}

TEST_F(ReachTest, APathEntryThatBecameALinkInAWritableDirectoryIsNotGiven) {
  fs_.AddDirectory("/srv/work/bin");
  fs_.AddLink("/srv/work/tools", "/home/u");
  fs_.AddLink("/srv/work/local", "bin");
  environment_["PATH"] = "/srv/work/tools:/srv/work/local:/usr/bin";
  Declaration declaration = Npx();
  declaration.program = "/usr/bin/python3";
  declaration.directory = "/srv/work";
  Reach reach = ReachOf(declaration);
  EXPECT_THAT(WhyNot(reach, "/srv/work/tools"), HasSubstr("leads through the link"));
  EXPECT_FALSE(Reaches(reach, "/home/u/notes.txt"));
  EXPECT_NE(Find(reach, "/srv/work/bin"), nullptr);
}

TEST_F(ReachTest, AnotherServersDirectoryIsWritableToo) {
  fs_.AddDirectory("/srv/other/bin");
  fs_.AddLink("/srv/other/bin/tools", "/home/u/.cargo/bin");
  environment_["PATH"] = "/srv/other/bin/tools:/usr/bin";
  Declaration declaration = Npx();
  declaration.program = "/usr/bin/python3";
  ReachInputs inputs = Inputs();
  inputs.declared_directories = {"/srv/other"};
  Result<Reach> reach = ComputeReach(declaration, inputs);
  ASSERT_TRUE(reach.ok());
  EXPECT_THAT(WhyNot(*reach, "/srv/other/bin/tools"), HasSubstr("out of /srv/other"));
  // Not written by a server, the same link is followed.
  reach = ComputeReach(declaration, Inputs());
  EXPECT_NE(Find(*reach, "/home/u/.cargo/bin"), nullptr);
}

TEST_F(ReachTest, TheHashBangLineOfAProgramAServerMayWriteWidensNothing) {
  fs_.AddDirectory("/srv/work");
  fs_.AddExecutable("/home/u/.ssh/interpreter");
  fs_.AddExecutable("/srv/work/server", "#!/home/u/.ssh/interpreter\n");
  fs_.AddExecutable("/srv/work/python-server", "#!/usr/bin/python3\n");
  Declaration declaration = Npx();
  declaration.program = "/srv/work/server";
  declaration.directory = "/srv/work";
  Reach reach = ReachOf(declaration);
  EXPECT_FALSE(Reaches(reach, "/home/u/.ssh/interpreter"));
  EXPECT_THAT(WhyNot(reach, "/home/u/.ssh/interpreter"),
              HasSubstr("lies in /srv/work, a directory a server may write"));
  // An interpreter the reach gives already still runs it.
  declaration.program = "/srv/work/python-server";
  reach = ReachOf(declaration);
  EXPECT_TRUE(Reaches(reach, "/usr/bin/python3"));
  EXPECT_EQ(WhyNot(reach, "/usr/bin/python3"), "");
}

TEST_F(ReachTest, AProgramReachedThroughALinkOutOfAWritableDirectoryIsNotStarted) {
  fs_.AddDirectory("/srv/work");
  fs_.AddExecutable("/home/u/.ssh/tool");
  fs_.AddLink("/srv/work/server", "/home/u/.ssh/tool");
  Declaration declaration = Npx();
  declaration.program = "/srv/work/server";
  declaration.directory = "/srv/work";
  Result<Reach> reach = ComputeReach(declaration, Inputs());
  ASSERT_FALSE(reach.ok());
  EXPECT_THAT(reach.error().message(), HasSubstr("its program /srv/work/server is not started"));
}

TEST_F(ReachTest, AnEnvLineIsReadAsEnvReadsIt) {
  fs_.AddDirectory("/home/u/bin");
  fs_.AddExecutable("/opt/app/server", "#!/usr/bin/env -S -u /home/u/././bin/x /usr/bin/python3\n");
  Declaration declaration = Npx();
  declaration.program = "/opt/app/server";
  Reach reach = ReachOf(declaration);
  EXPECT_FALSE(Reaches(reach, "/home/u/bin"));
  EXPECT_TRUE(Reaches(reach, "/usr/bin/python3"));
}

TEST_F(ReachTest, AnEnvLineNotReadWholeIsSaid) {
  fs_.AddExecutable("/opt/app/server", "#!/usr/bin/env -S \"/home/u/bin/x\"\n");
  Declaration declaration = Npx();
  declaration.program = "/opt/app/server";
  Reach reach = ReachOf(declaration);
  EXPECT_THAT(WhyNot(reach, "/opt/app/server"), HasSubstr("quotes, escapes"));
}

// --- The profile directory, wherever it is ---

TEST_F(ReachTest, AProfileInASystemDirectoryIsLeftOutOfIt) {
  fs_.AddDirectory("/opt/bb/mcp-home");
  fs_.AddFile("/opt/bb/mcp.json");
  fs_.AddDirectory("/opt/tool/bin");
  fs_.AddFile("/opt/readme");
  ReachInputs inputs = Inputs();
  inputs.profile = {"/opt/bb", "/opt/bb"};
  Result<Reach> reach = ComputeReach(Npx(), inputs);
  ASSERT_TRUE(reach.ok()) << reach.error().message();
  EXPECT_EQ(Find(*reach, "/opt"), nullptr);
  EXPECT_FALSE(Reaches(*reach, "/opt/bb/mcp.json"));
  EXPECT_TRUE(Reaches(*reach, "/opt/tool/bin"));
  EXPECT_TRUE(Reaches(*reach, "/opt/readme"));
  EXPECT_THAT(WhyNot(*reach, "/opt/bb"), HasSubstr("profile directory"));
}

// A home under /opt (a service account's) holds the profile directory: /opt
// is given around the home, and nothing of the home itself.
TEST_F(ReachTest, AHomeInASystemDirectoryIsLeftOutWhole) {
  fs_.AddDirectory("/opt/svc/home/.bravebot/mcp-home");
  fs_.AddFile("/opt/svc/home/Documents/letter");
  fs_.AddFile("/opt/svc/home/notes");
  fs_.AddDirectory("/opt/tool/bin");
  ReachInputs inputs = Inputs();
  inputs.user_home = "/opt/svc/home";
  inputs.profile = {"/opt/svc/home/.bravebot", "/opt/svc/home/.bravebot"};
  Result<Reach> reach = ComputeReach(Npx(), inputs);
  ASSERT_TRUE(reach.ok()) << reach.error().message();
  EXPECT_TRUE(Reaches(*reach, "/opt/tool/bin"));
  EXPECT_FALSE(Reaches(*reach, "/opt/svc/home/Documents/letter"));
  EXPECT_FALSE(Reaches(*reach, "/opt/svc/home/notes"));
  EXPECT_FALSE(Reaches(*reach, "/opt/svc/home/Documents"));
  EXPECT_THAT(WhyNot(*reach, "/opt/svc/home"), HasSubstr("it is your home"));
}

// Nor through a link met on the way around it, in /opt or in /etc.
TEST_F(ReachTest, ALinkIntoTheHomeMetAroundItIsNotFollowed) {
  fs_.AddDirectory("/opt/svc/home/.bravebot/mcp-home");
  fs_.AddFile("/opt/svc/home/.bravebot/mcp.json");
  fs_.AddFile("/opt/svc/home/Documents/letter");
  fs_.AddLink("/opt/current", "/opt/svc/home/Documents");
  fs_.AddLink("/opt/keys", "/opt/svc/home/.bravebot/mcp.json");
  fs_.AddLink("/etc/notes", "/opt/svc/home/Documents/letter");
  ReachInputs inputs = Inputs();
  inputs.user_home = "/opt/svc/home";
  inputs.profile = {"/opt/svc/home/.bravebot", "/opt/svc/home/.bravebot"};
  Result<Reach> reach = ComputeReach(Npx(), inputs);
  ASSERT_TRUE(reach.ok()) << reach.error().message();
  EXPECT_FALSE(Reaches(*reach, "/opt/svc/home/Documents/letter"));
  EXPECT_FALSE(Reaches(*reach, "/opt/svc/home/.bravebot/mcp.json"));
  EXPECT_THAT(WhyNot(*reach, "/opt/current"), HasSubstr("a link into your home"));
  EXPECT_THAT(WhyNot(*reach, "/etc/notes"), HasSubstr("a link into your home"));
}

TEST_F(ReachTest, AProfileBesideAPathInstallationKeepsTheInstallationFromBeingGiven) {
  fs_.AddDirectory("/srv/a/bb/mcp-home");
  fs_.AddFile("/srv/a/bb/mcp.json");
  fs_.AddExecutable("/srv/a/bin/tool");
  environment_["PATH"] = "/srv/a/bin:/usr/bin";
  Declaration declaration = Npx();
  declaration.program = "tool";
  ReachInputs inputs = Inputs();
  inputs.profile = {"/srv/a/bb", "/srv/a/bb"};
  Result<Reach> reach = ComputeReach(declaration, inputs);
  ASSERT_TRUE(reach.ok()) << reach.error().message();
  EXPECT_NE(Find(*reach, "/srv/a/bin"), nullptr);
  EXPECT_EQ(Find(*reach, "/srv/a"), nullptr);
  EXPECT_FALSE(Reaches(*reach, "/srv/a/bb/mcp.json"));
}

TEST_F(ReachTest, AProfileReachedThroughALinkIsLeftOutWhereItLeads) {
  fs_.AddDirectory("/data/bb/bin");
  fs_.AddLink("/home/u/.bravebot-link", "/data/bb");
  fs_.AddDirectory("/data/tools/bin");
  environment_["PATH"] = "/data/tools/bin:/data/bb/bin:/usr/bin";
  Declaration declaration = Npx();
  declaration.program = "/usr/bin/python3";
  ReachInputs inputs = Inputs();
  inputs.profile = {"/home/u/.bravebot-link", "/data/bb"};
  Result<Reach> reach = ComputeReach(declaration, inputs);
  ASSERT_TRUE(reach.ok());
  EXPECT_NE(Find(*reach, "/data/tools"), nullptr);
  EXPECT_THAT(WhyNot(*reach, "/data/bb/bin"), HasSubstr("profile directory"));
  EXPECT_FALSE(Reaches(*reach, "/data/bb"));
}

TEST_F(ReachTest, SystemDirectoriesThatAreLinksAreGivenWhereTheyLead) {
  FakeFileSystem merged;
  merged.AddDirectory("/usr/bin");
  merged.AddDirectory("/usr/lib");
  merged.AddLink("/bin", "usr/bin");
  merged.AddLink("/lib", "usr/lib");
  merged.AddExecutable("/usr/bin/python3");
  merged.AddDirectory("/home/u/.bravebot");
  ReachInputs inputs = Inputs();
  inputs.fs = &merged;
  Declaration declaration = Npx();
  declaration.program = "/usr/bin/python3";
  Result<Reach> reach = ComputeReach(declaration, inputs);
  ASSERT_TRUE(reach.ok());
  EXPECT_NE(Find(*reach, "/usr"), nullptr);
  EXPECT_EQ(Find(*reach, "/bin"), nullptr);
  EXPECT_EQ(Find(*reach, "/lib"), nullptr);
}

}  // namespace
}  // namespace bravebot
