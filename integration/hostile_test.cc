// The hostile battery: each probe of integration/probes/ runs under
// confined-exec, confined exactly as a stdio server declared with the same
// words, and tries to break one promise of the reach (DESIGN.md §5 and §6).
// A probe exits 0 when its attempt worked, 1 when it was refused, 2 when it
// could not set up the attempt; confined-exec exits 125 when it refused to
// start it.
//
// Each test builds its scenario in a fresh directory any user can enter, so
// the same binary runs as root and as an ordinary user: every file a probe
// must be refused belongs to the running user and is open to it by its mode,
// so a refusal is the confinement's, not the file permissions'.
#include <grp.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>

#include "base/unique_fd.h"
#include "integration/hostile_fixture.h"

namespace bravebot::testing {
namespace {

// --- The profile directory, other servers, the person's files ---

TEST_F(HostileTest, ReadingTheUsersHomeIsRefused) {
  EXPECT_TRUE(Refused(Run("read_fake_home", {{"TARGET", Path("home/secret")}})));
}

TEST_F(HostileTest, ReadingTheDeclarationFileIsRefused) {
  EXPECT_TRUE(Refused(Run("read_mcp_json", {{"PROFILE", Profile()}})));
}

TEST_F(HostileTest, RewritingTheDeclarationFileIsRefused) {
  EXPECT_TRUE(Refused(Run("write_mcp_json", {{"PROFILE", Profile()}})));
}

TEST_F(HostileTest, ApprovingItselfIsRefused) {
  EXPECT_TRUE(Refused(Run("write_mcp_approved", {{"PROFILE", Profile()}})));
}

TEST_F(HostileTest, ListingTheProfileDirectoryIsRefused) {
  EXPECT_TRUE(Refused(Run("list_profile", {{"PROFILE", Profile()}})));
}

TEST_F(HostileTest, ReadingAnotherServersHomeIsRefused) {
  EXPECT_TRUE(Refused(Run("read_other_home", {{"TARGET", OtherHome() + "/secret"}})));
}

TEST_F(HostileTest, WritingAnotherServersHomeIsRefused) {
  EXPECT_TRUE(Refused(Run("write_other_home", {{"TARGET_DIR", OtherHome()}})));
}

TEST_F(HostileTest, MakingAHomeBesideItsOwnIsRefused) {
  EXPECT_TRUE(Refused(Run("make_sibling_home")));
}

TEST_F(HostileTest, ListingTheUsersRealHomeIsRefused) {
  struct passwd* user = ::getpwuid(::geteuid());
  struct stat status;
  if (user == nullptr || ::stat(user->pw_dir, &status) != 0) {
    GTEST_SKIP() << "the running user has no home directory to list";
  }
  EXPECT_TRUE(Refused(Run("list_user_home")));
}

// --- Files outside the reach ---

TEST_F(HostileTest, ReadingAFileOutsideTheReachIsRefused) {
  EXPECT_TRUE(Refused(Run("read_outside", {{"TARGET", Outside()}})));
}

TEST_F(HostileTest, WritingAFileOutsideTheReachIsRefused) {
  EXPECT_TRUE(Refused(Run("write_outside", {{"TARGET", Outside()}})));
}

TEST_F(HostileTest, CreatingAFileOutsideTheReachIsRefused) {
  EXPECT_TRUE(Refused(Run("create_outside", {{"TARGET_DIR", Path("outside")}})));
  EXPECT_FALSE(std::filesystem::exists(Path("outside/planted")));
}

TEST_F(HostileTest, RunningAProgramOutsideTheReachIsRefused) {
  std::filesystem::copy_file("/bin/true", Path("outside/tool"));
  ASSERT_EQ(::chmod(Path("outside/tool").c_str(), 0755), 0);
  EXPECT_TRUE(Refused(Run("exec_outside", {{"TARGET", Path("outside/tool")}})));
}

TEST_F(HostileTest, HardLinkingAFileIntoItsHomeIsRefused) {
  EXPECT_TRUE(Refused(Run("hardlink_outside", {{"TARGET", Outside()}})));
}

TEST_F(HostileTest, ReadingThroughASymlinkInItsHomeIsRefused) {
  EXPECT_TRUE(Refused(Run("symlink_outside", {{"TARGET", Outside()}})));
}

TEST_F(HostileTest, RenamingAFileOutOfItsHomeIsRefused) {
  EXPECT_TRUE(Refused(Run("rename_out_of_home", {{"TARGET_DIR", Path("outside")}})));
}

TEST_F(HostileTest, RenamingAFileIntoItsHomeIsRefused) {
  EXPECT_TRUE(Refused(Run("rename_into_home", {{"TARGET", Outside()}})));
  EXPECT_TRUE(std::filesystem::exists(Outside()));
}

TEST_F(HostileTest, WritingAGitHookIsRefused) {
  EXPECT_TRUE(Refused(Run("write_git_hook", {{"REPOSITORY", Repository()}})));
}

TEST_F(HostileTest, WritingAGitConfigIsRefused) {
  EXPECT_TRUE(Refused(Run("write_git_config", {{"REPOSITORY", Repository()}})));
}

TEST_F(HostileTest, TruncatingAFileOutsideIsRefused) {
  if (abi_ < 3) GTEST_SKIP() << NeedsAbi(3, abi_);
  EXPECT_TRUE(Refused(Run("truncate_outside", {{"TARGET", Outside()}})));
  EXPECT_GT(std::filesystem::file_size(Outside()), 0u);
}

TEST_F(HostileTest, ChangingTheModeOfAFileOutsideIsRefused) {
  EXPECT_TRUE(Refused(Run("chmod_outside", {{"TARGET", Outside()}})));
  struct stat status;
  ASSERT_EQ(::stat(Outside().c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0666u) << "the probe changed the mode of " << Outside();
}

TEST_F(HostileTest, SettingTheSetuidBitOnAProgramOutsideIsRefused) {
  std::filesystem::copy_file("/bin/true", Path("outside/tool"));
  ASSERT_EQ(::chmod(Path("outside/tool").c_str(), 0755), 0);
  EXPECT_TRUE(Refused(Run("setuid_outside", {{"TARGET", Path("outside/tool")}})));
  struct stat status;
  ASSERT_EQ(::stat(Path("outside/tool").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & S_ISUID, 0u) << "the probe made " << Path("outside/tool") << " setuid";
}

TEST_F(HostileTest, ExposingTheDeclarationFileByItsModeIsRefused) {
  ASSERT_EQ(::chmod((Profile() + "/mcp.json").c_str(), 0600), 0);
  EXPECT_TRUE(Refused(Run("chmod_mcp_json", {{"PROFILE", Profile()}})));
}

TEST_F(HostileTest, ChangingTheGroupOfAFileOutsideIsRefused) {
  // As root, the file first gets another group, so a change would show.
  if (::geteuid() == 0) {
    struct group* nogroup = ::getgrnam("nogroup");
    ASSERT_EQ(::chown(Outside().c_str(), 0, nogroup != nullptr ? nogroup->gr_gid : 65534), 0);
  }
  EXPECT_TRUE(Refused(Run("chown_outside", {{"TARGET", Outside()}})));
}

TEST_F(HostileTest, ChangingTheTimesOfAFileOutsideIsRefused) {
  EXPECT_TRUE(Refused(Run("touch_outside", {{"TARGET", Outside()}})));
}

TEST_F(HostileTest, SettingAnExtendedAttributeOutsideIsRefused) {
  if (::setxattr(Outside().c_str(), "user.bravebot-test", "x", 1, 0) != 0) {
    GTEST_SKIP() << "the test's file system takes no user attributes: " << std::strerror(errno);
  }
  EXPECT_TRUE(Refused(Run("setxattr_outside", {{"TARGET", Outside()}})));
}

TEST_F(HostileTest, WritingTheSystemTemporaryDirectoryIsRefused) {
  EXPECT_TRUE(Refused(Run("write_tmp")));
}

TEST_F(HostileTest, WritingSharedMemoryIsRefused) {
  if (!std::filesystem::is_directory("/dev/shm")) GTEST_SKIP() << "this machine has no /dev/shm";
  EXPECT_TRUE(Refused(Run("write_dev_shm")));
}

TEST_F(HostileTest, WritingItsProgramDirectoryIsRefused) {
  EXPECT_TRUE(Refused(Run("write_program_directory")));
}

TEST_F(HostileTest, ReadingAFileItWasGivenWorks) {
  EXPECT_TRUE(Worked(Run("read_may_read_file", {}, {Path("outside/given")})));
}

TEST_F(HostileTest, WritingAFileItWasGivenToReadIsRefused) {
  EXPECT_TRUE(Refused(Run("write_may_read_file", {}, {Path("outside/given")})));
}

TEST_F(HostileTest, WritingItsHomeTemporaryAndWorkingDirectoriesWorks) {
  EXPECT_TRUE(Worked(Run("write_own_directories")));
  EXPECT_TRUE(std::filesystem::exists(Path("work/made-by-probe")));
}

// --- The system's files ---

TEST_F(HostileTest, ReadingTheSystemsSecretsIsRefused) { EXPECT_TRUE(Refused(Run("etc_secrets"))); }

TEST_F(HostileTest, ReadingShadowThroughProcRootIsRefused) {
  EXPECT_TRUE(Refused(Run("shadow_via_proc_root")));
}

TEST_F(HostileTest, ReadingSystemConfigurationWorks) {
  EXPECT_TRUE(Worked(Run("read_etc_passwd")));
}

// --- Other processes ---

TEST_F(HostileTest, ReadingTheParentsMemoryIsRefused) { EXPECT_TRUE(Refused(Run("parent_mem"))); }

TEST_F(HostileTest, ReadingTheParentsEnvironmentIsRefused) {
  EXPECT_TRUE(Refused(Run("parent_environ")));
}

TEST_F(HostileTest, ReadingTheParentsMapsIsRefused) { EXPECT_TRUE(Refused(Run("parent_maps"))); }

TEST_F(HostileTest, ReopeningTheParentsDescriptorsIsRefused) {
  EXPECT_TRUE(Refused(Run("reopen_parent_fds")));
}

TEST_F(HostileTest, ReadingInitsEnvironmentIsRefused) { EXPECT_TRUE(Refused(Run("init_environ"))); }

TEST_F(HostileTest, TracingTheParentIsRefused) {
  EXPECT_TRUE(Refused(Run("ptrace_parent"), kNotPermitted));
}

TEST_F(HostileTest, ReadingTheParentsMemoryByCallIsRefused) {
  EXPECT_TRUE(Refused(Run("process_vm_readv_parent"), kNotPermitted));
}

TEST_F(HostileTest, TakingTheParentsDescriptorsByPidfdIsRefused) {
  EXPECT_TRUE(Refused(Run("pidfd_getfd_parent")));
}

TEST_F(HostileTest, SignallingTheParentIsRefused) {
  if (abi_ < 6) GTEST_SKIP() << NeedsAbi(6, abi_);
  EXPECT_TRUE(Refused(Run("signal_parent"), kNotPermitted));
}

TEST_F(HostileTest, SignallingTheProcessThatStartedItIsRefused) {
  if (abi_ < 6) GTEST_SKIP() << NeedsAbi(6, abi_);
  EXPECT_TRUE(Refused(Run("signal_test_process", {{"TARGET_PID", std::to_string(::getpid())}}),
                      kNotPermitted));
  ;
}

TEST_F(HostileTest, SignallingInitIsRefused) {
  EXPECT_TRUE(Refused(Run("signal_init"), kNotPermitted));
}

// --- Terminals ---

TEST_F(HostileTest, InjectingTerminalInputIsRefused) {
  EXPECT_TRUE(Refused(Run("tiocsti"), kNotPermitted));
}

TEST_F(HostileTest, InjectingTerminalInputWithAHighBitIsRefused) {
  EXPECT_TRUE(Refused(Run("tiocsti_high_bits"), kNotPermitted));
}

TEST_F(HostileTest, PastingTheConsoleSelectionIsRefused) {
  EXPECT_TRUE(Refused(Run("tioclinux"), kNotPermitted));
}

// --- Privileges ---

TEST_F(HostileTest, ASetuidCopyOfItselfGainsNothing) { EXPECT_TRUE(Refused(Run("setuid_copy"))); }

TEST_F(HostileTest, ItHoldsNoPrivilegeAndRunsUnderItsFilter) {
  EXPECT_TRUE(Refused(Run("capabilities_state")));
}

TEST_F(HostileTest, RaisingCapabilitiesIsRefused) {
  EXPECT_TRUE(Refused(Run("raise_capabilities"), kNotPermitted));
}

TEST_F(HostileTest, MountingIsRefused) { EXPECT_TRUE(Refused(Run("mount_tmpfs"), kNotPermitted)); }

TEST_F(HostileTest, TheNewMountApiIsRefused) { EXPECT_TRUE(Refused(Run("fsopen"), kNotPermitted)); }

TEST_F(HostileTest, CloningAMountTreeIsRefused) {
  EXPECT_TRUE(Refused(Run("open_tree"), kNotPermitted));
}

TEST_F(HostileTest, ChrootIsRefused) { EXPECT_TRUE(Refused(Run("chroot_home"), kNotPermitted)); }

TEST_F(HostileTest, UnsharingAUserNamespaceIsRefused) {
  EXPECT_TRUE(Refused(Run("unshare_user"), kNotPermitted));
}

TEST_F(HostileTest, CloningIntoAUserNamespaceIsRefused) {
  EXPECT_TRUE(Refused(Run("clone_newuser"), kNotPermitted));
}

TEST_F(HostileTest, Clone3IsNotThere) {
  EXPECT_TRUE(Refused(Run("clone3"), "Function not implemented"));
}

// --- Kernel surface ---

TEST_F(HostileTest, KeyctlIsRefused) { EXPECT_TRUE(Refused(Run("keyctl"), kNotPermitted)); }

TEST_F(HostileTest, AddingAKeyIsRefused) { EXPECT_TRUE(Refused(Run("add_key"), kNotPermitted)); }

TEST_F(HostileTest, RequestingAKeyIsRefused) {
  EXPECT_TRUE(Refused(Run("request_key"), kNotPermitted));
}

TEST_F(HostileTest, IoUringIsRefused) {
  EXPECT_TRUE(Refused(Run("io_uring_setup"), kNotPermitted));
}

TEST_F(HostileTest, BpfIsRefused) { EXPECT_TRUE(Refused(Run("bpf"), kNotPermitted)); }

TEST_F(HostileTest, PerfEventsAreRefused) {
  EXPECT_TRUE(Refused(Run("perf_event_open"), kNotPermitted));
}

TEST_F(HostileTest, UserfaultfdIsRefused) {
  EXPECT_TRUE(Refused(Run("userfaultfd"), kNotPermitted));
}

TEST_F(HostileTest, MakingAFileHandleIsRefused) {
  EXPECT_TRUE(Refused(Run("name_to_handle_at"), kNotPermitted));
}

TEST_F(HostileTest, OpeningByFileHandleIsRefused) {
  EXPECT_TRUE(Refused(Run("open_by_handle_at"), kNotPermitted));
}

TEST_F(HostileTest, X32SystemCallsKillTheProcess) {
  EXPECT_TRUE(Refused(Run("x32_syscall"), "Bad system call"));
}

TEST_F(HostileTest, I386SystemCallsKillTheProcess) {
  // Without i386 emulation (ia32_emulation off, or a hypervisor without it)
  // int $0x80 faults before the filter is asked, confined or not.
  CommandOutput unconfined = RunCommand({ProbesDirectory() + "/i386_syscall"}, {});
  if (unconfined.status != kWorked) {
    GTEST_SKIP() << "this kernel runs no i386 system call, even unconfined: " << unconfined.out;
  }
  EXPECT_TRUE(Refused(Run("i386_syscall"), "Bad system call"));
}

// --- Sockets ---

TEST_F(HostileTest, PacketSocketsAreRefused) {
  EXPECT_TRUE(Refused(Run("socket_packet"), kNoFamily));
}

TEST_F(HostileTest, PacketSocketsWithAHighBitAreRefused) {
  EXPECT_TRUE(Refused(Run("socket_packet_high_bits"), kNoFamily));
}

TEST_F(HostileTest, NetlinkAuditIsRefused) {
  EXPECT_TRUE(Refused(Run("socket_netlink_audit"), kNoFamily));
}

TEST_F(HostileTest, KernelCryptoSocketsAreRefused) {
  EXPECT_TRUE(Refused(Run("socket_alg"), kNoFamily));
}

TEST_F(HostileTest, InternetSocketsWork) { EXPECT_TRUE(Worked(Run("socket_inet"))); }

TEST_F(HostileTest, NetlinkRouteWorks) { EXPECT_TRUE(Worked(Run("socket_netlink_route"))); }

// A unix socket the test listens on: abstract when `path` starts with '@'.
UniqueFd Listen(const std::string& path) {
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

TEST_F(HostileTest, ConnectingToAnAbstractSocketOutsideIsRefused) {
  if (abi_ < 6) GTEST_SKIP() << NeedsAbi(6, abi_);
  const std::string name =
      "bravebot-hostile-" + std::filesystem::path(scenario_).filename().string();
  UniqueFd listening = Listen("@" + name);
  ASSERT_TRUE(listening.valid()) << std::strerror(errno);
  EXPECT_TRUE(Refused(Run("abstract_socket", {{"SOCKET_NAME", name}}), kNotPermitted));
  ;
}

TEST_F(HostileTest, ConnectingToAPathnameSocketOutsideIsRefused) {
  if (abi_ < 9) GTEST_SKIP() << NeedsAbi(9, abi_);
  UniqueFd listening = Listen(Path("outside/socket"));
  ASSERT_TRUE(listening.valid()) << std::strerror(errno);
  EXPECT_TRUE(Refused(Run("pathname_socket", {{"TARGET", Path("outside/socket")}})));
}

}  // namespace
}  // namespace bravebot::testing
