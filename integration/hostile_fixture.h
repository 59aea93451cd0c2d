// The hostile battery's fixture, shared by every file of it: a fresh scenario
// directory any user can enter (a person's home with a secret, a profile
// directory with another server's home, files outside the reach, a
// repository), and Run(), which starts one probe of integration/probes/ under
// confined-exec, confined exactly as a stdio server declared with the same
// words. A probe exits 0 when its attempt worked, 1 when it was refused, 2
// when it could not set up the attempt; confined-exec exits 125 when it
// refused to start it.
#ifndef BRAVEBOT_INTEGRATION_HOSTILE_FIXTURE_H_
#define BRAVEBOT_INTEGRATION_HOSTILE_FIXTURE_H_

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/unique_fd.h"
#include "integration/programs.h"
#include "integration/run_command.h"

namespace bravebot::testing {

inline constexpr int kWorked = 0;
inline constexpr int kRefused = 1;

// A digest of a server other than the probe's: its home holds a secret.
inline constexpr char kOtherDigest[] =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

inline std::string FromEnvironment(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

// BRAVEBOT_BIN moves both, for a copy another user can run.
inline std::string ConfinedExec() { return OurProgram("confined-exec"); }
inline std::string ProbesDirectory() { return OurProgram("probes"); }

inline int LandlockAbi() {
  long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, 1 /* ..._VERSION */);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

inline std::string NeedsAbi(int needed, int present) {
  return "needs Landlock ABI " + std::to_string(needed) + ", this kernel has " +
         std::to_string(present);
}

inline void MakeDirectory(const std::string& path, mode_t mode) {
  ASSERT_EQ(::mkdir(path.c_str(), mode), 0) << path << ": " << std::strerror(errno);
  ASSERT_EQ(::chmod(path.c_str(), mode), 0) << path << ": " << std::strerror(errno);
}

inline void WriteFile(const std::string& path, const std::string& content, mode_t mode) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    ASSERT_TRUE(out.good()) << path;
  }
  ASSERT_EQ(::chmod(path.c_str(), mode), 0) << path << ": " << std::strerror(errno);
}

inline std::string Describe(const CommandOutput& output) {
  std::string said = "\n  stdout: " + output.out + "\n  stderr: " + output.err;
  switch (output.status) {
    case kWorked:
      return "the attempt WORKED: the promise is broken" + said;
    case kRefused:
      return "the attempt was refused" + said;
    case 2:
      return "the probe could not set up its attempt" + said;
    case 125:
      return "confined-exec refused to start the probe" + said;
    default:
      return "the probe ended with status " + std::to_string(output.status) + said;
  }
}

// bwrap's own words when it could not set the sandbox up; it then exits 1,
// which is no refusal of the probe's.
inline bool BubblewrapFailed(const CommandOutput& output) {
  return output.err.find("bwrap: ") != std::string::npos;
}

// Refused, and saying `words` (an errno's text) when given.
inline ::testing::AssertionResult Refused(const CommandOutput& output,
                                          const std::string& words = "") {
  if (BubblewrapFailed(output)) {
    return ::testing::AssertionFailure()
           << "bubblewrap did not start the probe" << Describe(output);
  }
  if (output.status != kRefused) return ::testing::AssertionFailure() << Describe(output);
  if (output.out.find(words) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "refused, but not with \"" << words << "\"" << Describe(output);
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult Worked(const CommandOutput& output) {
  if (output.status != kWorked) return ::testing::AssertionFailure() << Describe(output);
  return ::testing::AssertionSuccess();
}

// The words of the errno each layer refuses with.
inline constexpr char kNotPermitted[] = "Operation not permitted";  // seccomp, EPERM
inline constexpr char kDenied[] = "Permission denied";              // Landlock, EACCES
inline constexpr char kReadOnly[] = "Read-only file system";        // the view, EROFS
inline constexpr char kNoProcess[] = "No such process";             // the PID namespace
inline constexpr char kNoSuchFile[] = "No such file or directory";  // the PID namespace's /proc
inline constexpr char kNoFamily[] = "Address family not supported by protocol";
inline constexpr char kCrossDevice[] = "Invalid cross-device link";  // EXDEV
inline constexpr char kHoldsNoDescriptor[] = "holds no descriptor";
// Not a refusal: the attempt must work.
inline constexpr char kWorks[] = "(works)";
// Under bubblewrap: a path outside its binds is not there (ENOENT, kNoSuchFile),
// and its root outside them is read-only (EROFS, kReadOnly).

// Which layers of confinement a probe runs under. Every layer is what a server
// gets; each of the others turns one layer off (confined-exec's --without-
// flags), so that a probe proves the layer meant to refuse it, not one that
// happened to refuse first: with the read-only view on, a write outside fails
// with EROFS before Landlock is ever asked. The last is the other backend:
// bubblewrap with our seccomp filter, as a kernel without Landlock gets it.
enum class Layers {
  kEvery,              // Landlock, the read-only view, namespaces, seccomp, no capabilities
  kLandlockAlone,      // no read-only view
  kViewAlone,          // no Landlock
  kWithoutNamespaces,  // a machine without user namespaces: no view, no PID namespace
  kBubblewrap,         // bwrap's binds and namespaces, seccomp, no capabilities
};

inline constexpr Layers kAllLayers[] = {Layers::kEvery, Layers::kLandlockAlone, Layers::kViewAlone,
                                        Layers::kWithoutNamespaces, Layers::kBubblewrap};

inline const char* LayersName(Layers layers) {
  switch (layers) {
    case Layers::kEvery:
      return "every layer";
    case Layers::kLandlockAlone:
      return "Landlock without the read-only view or the hidden places";
    case Layers::kViewAlone:
      return "the read-only view without Landlock";
    case Layers::kWithoutNamespaces:
      return "no user or PID namespace";
    case Layers::kBubblewrap:
      return "bubblewrap";
  }
  return "";
}

inline std::vector<std::string> LayersFlags(Layers layers) {
  switch (layers) {
    case Layers::kEvery:
      return {};
    case Layers::kLandlockAlone:
      return {"--without-read-only-view"};
    case Layers::kViewAlone:
      return {"--without-landlock"};
    case Layers::kWithoutNamespaces:
      return {"--without-namespaces"};
    case Layers::kBubblewrap:
      return {};
  }
  return {};
}

// What confined-exec's environment adds: the backend it is to use.
inline std::vector<std::string> LayersEnvironment(Layers layers) {
  if (layers == Layers::kBubblewrap) return {"BRAVEBOT_BACKEND=bubblewrap"};
  return {};
}

// What a probe must meet under each set of layers: the words of the errno it
// is refused with (kWorks where it must work), or nothing where that set is
// not the one that decides it, and the probe is not run under it. The
// bubblewrap column has no default: every probe says what bubblewrap gives it.
struct Expectations {
  std::optional<std::string> every;
  std::optional<std::string> landlock_alone;
  std::optional<std::string> view_alone;
  std::optional<std::string> without_namespaces;
  std::optional<std::string> bubblewrap;

  const std::optional<std::string>& For(Layers layers) const {
    switch (layers) {
      case Layers::kEvery:
        return every;
      case Layers::kLandlockAlone:
        return landlock_alone;
      case Layers::kViewAlone:
        return view_alone;
      case Layers::kWithoutNamespaces:
        return without_namespaces;
      case Layers::kBubblewrap:
        return bubblewrap;
    }
    return every;
  }
};

// The same words under every set of layers: a refusal of seccomp's, which
// stays on whatever else is off.
inline Expectations Everywhere(const std::string& words) {
  return {words, words, words, words, words};
}

// A unix socket the test listens on: abstract when `path` starts with '@'.
inline UniqueFd ListenOn(const std::string& path) {
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.data(), std::min(path.size(), sizeof(address.sun_path) - 1));
  socklen_t size = sizeof(address);
  if (path[0] == '@') {
    address.sun_path[0] = '\0';
    size = static_cast<socklen_t>(offsetof(struct sockaddr_un, sun_path) + path.size());
  }
  if (!fd.valid() || ::bind(fd.get(), reinterpret_cast<struct sockaddr*>(&address), size) != 0 ||
      ::listen(fd.get(), 4) != 0) {
    return UniqueFd();
  }
  return fd;
}

// A variable in the probe's environment: named with -e NAME and read from the
// caller's, so its value is never recorded as a file the server may read.
using Named = std::vector<std::pair<std::string, std::string>>;

class HostileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // BRAVEBOT_TEST_WITHOUT_LANDLOCK=1 runs the battery as a kernel without
    // Landlock would: the bubblewrap column alone.
    abi_ = FromEnvironment("BRAVEBOT_TEST_WITHOUT_LANDLOCK", "")[0] == '1' ? 0 : LandlockAbi();
    // Not in /tmp: below Landlock ABI 9 /tmp is hidden from a server but for
    // its own paths there (profiles/socket_mask_plan.h), and a file outside
    // its reach would not be there for Landlock to refuse.
    std::string pattern =
        FromEnvironment("BRAVEBOT_TEST_TMPDIR", "/var/tmp") + "/bravebot-hostile-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << pattern << ": " << std::strerror(errno);
    scenario_ = pattern;
    ASSERT_EQ(::chmod(scenario_.c_str(), 0755), 0);

    MakeDirectory(Path("home"), 0755);  // the person's home, as HOME says
    WriteFile(Path("home/secret"), "the person's secret\n", 0644);
    MakeDirectory(Profile(), 0700);
    WriteFile(Profile() + "/mcp.json", "{\"version\": 1, \"servers\": {}}\n", 0644);
    WriteFile(Profile() + "/mcp-approved", "# bravebot-mcp approvals, format 1\n", 0644);
    MakeDirectory(Profile() + "/mcp-home", 0700);
    MakeDirectory(OtherHome(), 0700);
    WriteFile(OtherHome() + "/secret", "another server's secret\n", 0644);
    MakeDirectory(Path("outside"), 0755);
    WriteFile(Outside(), "a file outside the reach\n", 0666);
    WriteFile(Path("outside/given"), "a file given as an argument\n", 0644);
    MakeDirectory(Path("work"), 0755);
    MakeDirectory(Repository(), 0755);
    MakeDirectory(Repository() + "/.git", 0755);
    MakeDirectory(Repository() + "/.git/hooks", 0755);
    WriteFile(Repository() + "/.git/config", "[core]\n\tbare = false\n", 0644);
    WriteFile(Repository() + "/.git/hooks/pre-commit", "#!/bin/sh\nexit 0\n", 0755);
  }

  void TearDown() override {
    std::error_code ignored;
    if (!scenario_.empty()) std::filesystem::remove_all(scenario_, ignored);
  }

  // Whether `layers` can run here: every set but bubblewrap needs Landlock.
  // Without it, only the bubblewrap column runs (bubblewrap is then what a
  // server gets); a missing /usr/bin/bwrap fails that column, it is no skip.
  bool Runs(Layers layers) const { return layers == Layers::kBubblewrap || abi_ > 0; }

  std::string Path(const std::string& name) const { return scenario_ + "/" + name; }
  std::string Profile() const { return Path("profile"); }
  std::string OtherHome() const { return Profile() + "/mcp-home/" + kOtherDigest; }
  std::string Outside() const { return Path("outside/secret"); }
  std::string Repository() const { return Path("repository"); }

  // Runs `probe` under confined-exec with `layers`, declared with `named`
  // (-e NAME) and --dir work, with `arguments` after the probe's path.
  CommandOutput Run(const std::string& probe, const Named& named = {},
                    const std::vector<std::string>& arguments = {},
                    Layers layers = Layers::kEvery) const {
    std::vector<std::string> words = {ConfinedExec()};
    for (const std::string& flag : LayersFlags(layers)) words.push_back(flag);
    words.push_back("hostile-probe");
    std::vector<std::string> environment = {"BRAVEBOT_HOME=" + Profile(), "HOME=" + Path("home"),
                                            "PATH=/usr/bin:/bin"};
    for (const std::string& variable : LayersEnvironment(layers)) environment.push_back(variable);
    for (const auto& [name, value] : named) {
      words.insert(words.end(), {"-e", name});
      environment.push_back(name + "=" + value);
    }
    words.insert(words.end(), {"--dir", Path("work"), "--", ProbesDirectory() + "/" + probe});
    words.insert(words.end(), arguments.begin(), arguments.end());
    return RunCommand(words, environment, scenario_);
  }

  // Runs `probe` under each set of layers `expected` names, and checks it
  // meets each.
  ::testing::AssertionResult Meets(const std::string& probe, const Named& named,
                                   const std::vector<std::string>& arguments,
                                   const Expectations& expected) const {
    std::string failures;
    for (Layers layers : kAllLayers) {
      const std::optional<std::string>& words = expected.For(layers);
      if (!words || !Runs(layers)) continue;
      CommandOutput output = Run(probe, named, arguments, layers);
      ForgetWhatTheProbeMade();
      ::testing::AssertionResult met = *words == kWorks ? Worked(output) : Refused(output, *words);
      if (!met) failures += std::string("\nunder ") + LayersName(layers) + ": " + met.message();
    }
    if (failures.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << probe << failures;
  }

  // What a probe left in its home and its working directory, so the next set
  // of layers starts where the first did.
  void ForgetWhatTheProbeMade() const {
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(Profile() + "/mcp-home")) {
      if (entry.path().filename() != kOtherDigest) std::filesystem::remove_all(entry, ignored);
    }
    for (const auto& entry : std::filesystem::directory_iterator(Path("work"))) {
      std::filesystem::remove_all(entry, ignored);
    }
  }

  // Below Landlock ABI 9, /tmp, /dev/shm, /run, /var/lib, the person's home
  // and the profile directory are hidden from a server that has a mount
  // namespace (profiles/socket_mask_plan.h): each an empty read-only mount
  // with only its own paths bound back. What lies there is not there to
  // refuse, and nothing can be made there: `words` (ENOENT or EROFS) where
  // the mounts are (with the view); without them, or from ABI 9, `otherwise`.
  // Under bubblewrap, what the set of layers says for it.
  Expectations InAHiddenPlace(const std::string& words, const Expectations& otherwise) const {
    if (abi_ >= 9) return otherwise;
    return {words, otherwise.landlock_alone, words, otherwise.without_namespaces,
            otherwise.bubblewrap};
  }

  // The words of a refusal to read what lies in a hidden place (the
  // person's home, the profile directory), with every layer on, or under
  // bubblewrap, where it is not there either.
  std::string RefusedInAHiddenPlaceWith(Layers layers = Layers::kEvery) const {
    return abi_ >= 9 && layers != Layers::kBubblewrap ? kDenied : kNoSuchFile;
  }

  int abi_ = 0;
  std::string scenario_;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_HOSTILE_FIXTURE_H_
