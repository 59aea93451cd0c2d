#include "profiles/seccomp_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/audit.h>
#include <linux/ioprio.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>

#include "tests/profiles/testing/bpf_evaluator.h"

namespace bravebot {
namespace {

constexpr uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr uint32_t kEperm = SECCOMP_RET_ERRNO | EPERM;
constexpr uint32_t kEnosys = SECCOMP_RET_ERRNO | ENOSYS;
constexpr uint32_t kEafnosupport = SECCOMP_RET_ERRNO | EAFNOSUPPORT;
constexpr uint32_t kKillProcess = SECCOMP_RET_KILL_PROCESS;

constexpr uint64_t kHighBits = 0xffffffff00000000;
constexpr uint64_t kThreadFlags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
                                  CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID |
                                  CLONE_CHILD_CLEARTID;
constexpr uint32_t kX32SyscallBit = 0x40000000;  // __X32_SYSCALL_BIT
constexpr int kI386Getpid = 20;
constexpr uint64_t kOtherPid = 4242;
constexpr uint64_t kPointer = 0x7fff0000;
constexpr uint64_t kMinusOne = static_cast<uint64_t>(-1);  // as a sign-extended int
constexpr uint64_t kMinusOneZeroExtended = 0xffffffff;

struct NamedCall {
  const char* name;
  int nr;
};

// DESIGN §6's calls refused whatever their arguments.
constexpr NamedCall kRefusedCalls[] = {
    {"ptrace", __NR_ptrace},
    {"process_vm_readv", __NR_process_vm_readv},
    {"process_vm_writev", __NR_process_vm_writev},
    {"mount", __NR_mount},
    {"fsopen", __NR_fsopen},
    {"fsconfig", __NR_fsconfig},
    {"fsmount", __NR_fsmount},
    {"fspick", __NR_fspick},
    {"move_mount", __NR_move_mount},
    {"open_tree", __NR_open_tree},
    {"mount_setattr", __NR_mount_setattr},
    {"pidfd_getfd", __NR_pidfd_getfd},
    {"process_madvise", __NR_process_madvise},
    {"kcmp", __NR_kcmp},
    {"umount2", __NR_umount2},
    {"pivot_root", __NR_pivot_root},
    {"chroot", __NR_chroot},
    {"setns", __NR_setns},
    {"unshare", __NR_unshare},
    {"bpf", __NR_bpf},
    {"perf_event_open", __NR_perf_event_open},
    {"userfaultfd", __NR_userfaultfd},
    {"keyctl", __NR_keyctl},
    {"add_key", __NR_add_key},
    {"request_key", __NR_request_key},
    {"kexec_load", __NR_kexec_load},
    {"kexec_file_load", __NR_kexec_file_load},
    {"init_module", __NR_init_module},
    {"finit_module", __NR_finit_module},
    {"delete_module", __NR_delete_module},
    {"io_uring_setup", __NR_io_uring_setup},
    {"io_uring_enter", __NR_io_uring_enter},
    {"io_uring_register", __NR_io_uring_register},
    {"open_by_handle_at", __NR_open_by_handle_at},
    {"name_to_handle_at", __NR_name_to_handle_at},
    {"acct", __NR_acct},
    {"quotactl", __NR_quotactl},
    {"swapon", __NR_swapon},
    {"swapoff", __NR_swapoff},
    {"reboot", __NR_reboot},
    {"settimeofday", __NR_settimeofday},
    {"clock_settime", __NR_clock_settime},
    {"clock_adjtime", __NR_clock_adjtime},
    {"adjtimex", __NR_adjtimex},
    {"fanotify_init", __NR_fanotify_init},
    {"inotify_add_watch", __NR_inotify_add_watch},
};

// Calls whose answer depends on their arguments, tested one by one below.
constexpr int kArgumentCalls[] = {__NR_clone,          __NR_clone3,         __NR_ioctl,
                                  __NR_socket,         __NR_socketpair,     __NR_setpriority,
                                  __NR_ioprio_set,     __NR_prlimit64,      __NR_sched_setscheduler,
                                  __NR_sched_setparam, __NR_sched_setattr,  __NR_sched_setaffinity,
                                  __NR_kill,           __NR_chmod,          __NR_fchmod,
                                  __NR_fchmodat,       452 /* fchmodat2 */, __NR_mknod,
                                  __NR_mknodat,        __NR_creat,          __NR_open,
                                  __NR_openat,         __NR_openat2};

class SeccompFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<SeccompProgram> program = BuildSeccompProgram();
    ASSERT_TRUE(program.ok()) << program.error().message();
    program_ = std::move(*program);
  }

  // What the filter answers for a call, evaluated without installing it.
  uint32_t Action(int nr, std::initializer_list<uint64_t> args = {},
                  uint32_t arch = AUDIT_ARCH_X86_64) {
    struct seccomp_data call = {};
    call.nr = nr;
    call.arch = arch;
    call.instruction_pointer = 0x401000;
    std::copy(args.begin(), args.end(), call.args);
    Result<uint32_t> action = testing::EvaluateSeccompProgram(program_.instructions, call);
    if (!action) {
      ADD_FAILURE() << action.error().message();
      return 0xdeadbeef;
    }
    return *action;
  }

  SeccompProgram program_;
};

TEST_F(SeccompFilterTest, FitsInOneKernelFilter) {
  EXPECT_GT(program_.instructions.size(), 0u);
  EXPECT_LE(program_.instructions.size(), size_t{BPF_MAXINSNS});
}

TEST_F(SeccompFilterTest, AllowsOrdinaryCalls) {
  EXPECT_EQ(Action(__NR_read, {0, 0x7fff0000, 4096}), kAllow);
  EXPECT_EQ(Action(__NR_write, {1, 0x7fff0000, 12}), kAllow);
  EXPECT_EQ(Action(__NR_openat, {static_cast<uint64_t>(AT_FDCWD), 0x7fff0000, O_RDONLY}), kAllow);
  EXPECT_EQ(Action(__NR_execve, {0x7fff0000, 0x7fff1000, 0x7fff2000}), kAllow);
  EXPECT_EQ(Action(__NR_mmap,
                   {0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, static_cast<uint64_t>(-1), 0}),
            kAllow);
  EXPECT_EQ(Action(__NR_getpid), kAllow);
  EXPECT_EQ(Action(__NR_clone, {kThreadFlags, 0x7fff0000, 0x7fff1000, 0x7fff2000, 0x7fff3000}),
            kAllow);
  EXPECT_EQ(Action(__NR_clone, {SIGCHLD}), kAllow);  // fork()
  EXPECT_EQ(Action(__NR_clone, {CLONE_VM | CLONE_VFORK | SIGCHLD}), kAllow);
}

TEST_F(SeccompFilterTest, AllowsEveryOtherCallNumber) {
  for (int nr = 0; nr < 512; ++nr) {
    bool named = std::any_of(std::begin(kRefusedCalls), std::end(kRefusedCalls),
                             [nr](const NamedCall& call) { return call.nr == nr; }) ||
                 std::find(std::begin(kArgumentCalls), std::end(kArgumentCalls), nr) !=
                     std::end(kArgumentCalls);
    if (named) continue;
    EXPECT_EQ(Action(nr), kAllow) << "system call " << nr;
  }
}

TEST_F(SeccompFilterTest, RefusesEachListedCallWithEperm) {
  for (const NamedCall& call : kRefusedCalls) {
    EXPECT_EQ(Action(call.nr), kEperm) << call.name;
    EXPECT_EQ(Action(call.nr, {1, 2, 3, 4, 5, 6}), kEperm) << call.name;
  }
}

TEST_F(SeccompFilterTest, RefusesCloneWithAnyNamespaceFlag) {
  for (uint64_t flag : {CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,
                        CLONE_NEWNET, CLONE_NEWCGROUP}) {
    EXPECT_EQ(Action(__NR_clone, {flag}), kEperm) << std::hex << flag;
    EXPECT_EQ(Action(__NR_clone, {flag | SIGCHLD}), kEperm) << std::hex << flag;
  }
  EXPECT_EQ(Action(__NR_clone, {CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | SIGCHLD}), kEperm);
}

TEST_F(SeccompFilterTest, RefusesCloneNewuserWhateverElseIsSet) {
  EXPECT_EQ(Action(__NR_clone, {CLONE_NEWUSER}), kEperm);
  EXPECT_EQ(Action(__NR_clone, {kThreadFlags | CLONE_NEWUSER}), kEperm);
  // The kernel reads the low 32 bits of the flags: the high ones must not
  // hide a namespace flag, nor make a thread's flags look like one.
  EXPECT_EQ(Action(__NR_clone, {kHighBits | CLONE_NEWUSER}), kEperm);
  EXPECT_EQ(Action(__NR_clone, {kHighBits | kThreadFlags | CLONE_NEWUSER}), kEperm);
  EXPECT_EQ(Action(__NR_clone, {(uint64_t{CLONE_NEWUSER} << 32) | kThreadFlags}), kAllow);
  EXPECT_EQ(Action(__NR_clone, {kHighBits | kThreadFlags}), kAllow);
}

TEST_F(SeccompFilterTest, AnswersClone3WithEnosysSoLibcFallsBackToClone) {
  EXPECT_EQ(Action(__NR_clone3), kEnosys);
  EXPECT_EQ(Action(__NR_clone3, {0x7fff0000, 88}), kEnosys);
}

TEST_F(SeccompFilterTest, AllowsTheSocketFamiliesOfTheDesign) {
  EXPECT_EQ(Action(__NR_socket, {AF_UNIX, SOCK_STREAM, 0}), kAllow);
  EXPECT_EQ(Action(__NR_socket, {AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0}), kAllow);
  EXPECT_EQ(Action(__NR_socket, {AF_INET, SOCK_STREAM, IPPROTO_TCP}), kAllow);
  EXPECT_EQ(Action(__NR_socket, {AF_INET, SOCK_DGRAM, IPPROTO_UDP}), kAllow);
  EXPECT_EQ(Action(__NR_socket, {AF_INET6, SOCK_STREAM | SOCK_NONBLOCK, 0}), kAllow);
  EXPECT_EQ(Action(__NR_socket, {AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE}), kAllow);
  EXPECT_EQ(Action(__NR_socket, {AF_NETLINK, SOCK_DGRAM, NETLINK_ROUTE}), kAllow);
}

TEST_F(SeccompFilterTest, RefusesOtherSocketFamiliesWithEafnosupport) {
  EXPECT_EQ(Action(__NR_socket, {AF_PACKET, SOCK_RAW, 0x0300}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {AF_NETLINK, SOCK_RAW, NETLINK_AUDIT}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {AF_VSOCK, SOCK_STREAM, 0}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {AF_ALG, SOCK_SEQPACKET, 0}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {AF_UNSPEC, SOCK_STREAM, 0}), kEafnosupport);
  for (uint64_t family = 0; family < 64; ++family) {
    if (family == AF_UNIX || family == AF_INET || family == AF_INET6 || family == AF_NETLINK) {
      continue;
    }
    EXPECT_EQ(Action(__NR_socket, {family, SOCK_STREAM, 0}), kEafnosupport) << family;
  }
  EXPECT_EQ(Action(__NR_socket, {0x7fffffff, SOCK_STREAM, 0}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {static_cast<uint64_t>(-1), SOCK_STREAM, 0}), kEafnosupport);
}

TEST_F(SeccompFilterTest, HighBitsNeverHideARefusedSocketFamily) {
  EXPECT_EQ(Action(__NR_socket, {kHighBits | AF_PACKET, SOCK_RAW, 0}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {(uint64_t{1} << 32) | AF_ALG, SOCK_SEQPACKET, 0}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {AF_NETLINK, SOCK_RAW, kHighBits | NETLINK_AUDIT}), kEafnosupport);
  // The filter errs closed: an allowed family or protocol with high bits set
  // is refused too (the range rules compare all 64 bits; no libc sets them).
  EXPECT_EQ(Action(__NR_socket, {(uint64_t{1} << 32) | AF_INET, SOCK_STREAM, 0}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socket, {AF_NETLINK, SOCK_RAW, kHighBits | NETLINK_ROUTE}), kEafnosupport);
}

TEST_F(SeccompFilterTest, AllowsSocketpairOnlyForLocalSockets) {
  EXPECT_EQ(Action(__NR_socketpair, {AF_UNIX, SOCK_STREAM, 0, 0x7fff0000}), kAllow);
  EXPECT_EQ(Action(__NR_socketpair, {AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, 0x7fff0000}),
            kAllow);
  EXPECT_EQ(Action(__NR_socketpair, {AF_UNSPEC, SOCK_STREAM, 0, 0x7fff0000}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socketpair, {AF_INET, SOCK_STREAM, 0, 0x7fff0000}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socketpair, {AF_NETLINK, SOCK_RAW, 0, 0x7fff0000}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socketpair, {AF_PACKET, SOCK_RAW, 0, 0x7fff0000}), kEafnosupport);
  EXPECT_EQ(Action(__NR_socketpair, {kHighBits | AF_PACKET, SOCK_RAW, 0, 0}), kEafnosupport);
}

TEST_F(SeccompFilterTest, RefusesTerminalInjectionIoctls) {
  EXPECT_EQ(Action(__NR_ioctl, {0, TIOCSTI, 0x7fff0000}), kEperm);
  EXPECT_EQ(Action(__NR_ioctl, {0, TIOCLINUX, 0x7fff0000}), kEperm);
  // The kernel reads the request as 32 bits: high bits must not hide it.
  EXPECT_EQ(Action(__NR_ioctl, {0, kHighBits | TIOCSTI, 0x7fff0000}), kEperm);
  EXPECT_EQ(Action(__NR_ioctl, {0, (uint64_t{1} << 32) | TIOCLINUX, 0x7fff0000}), kEperm);
  EXPECT_EQ(Action(__NR_ioctl, {0, TCGETS, 0x7fff0000}), kAllow);
  EXPECT_EQ(Action(__NR_ioctl, {3, FIONREAD, 0x7fff0000}), kAllow);
  EXPECT_EQ(Action(__NR_ioctl, {0, TIOCGWINSZ, 0x7fff0000}), kAllow);
}

TEST_F(SeccompFilterTest, RefusesInotifyWatchesButNotTheirDescriptor) {
  EXPECT_EQ(Action(__NR_inotify_add_watch, {3, kPointer, IN_OPEN | IN_CREATE}), kEperm);
  // A descriptor with no watch sees nothing; a program that makes one learns
  // of the refusal where it can say so, at its first watch.
  EXPECT_EQ(Action(__NR_inotify_init1, {IN_CLOEXEC}), kAllow);
  EXPECT_EQ(Action(__NR_inotify_rm_watch, {3, 1}), kAllow);
}

TEST_F(SeccompFilterTest, AllowsSetpriorityOfItselfOnly) {
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_PROCESS, 0, 10}), kAllow);  // nice(10)
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_PROCESS, 0, static_cast<uint64_t>(-5)}), kAllow);
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_PROCESS, kOtherPid, 10}), kEperm);
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_PGRP, 0, 10}), kEperm);
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_PGRP, kOtherPid, 10}), kEperm);
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_USER, 0, 10}), kEperm);  // its own user
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_USER, 1000, 10}), kEperm);
  // The kernel reads `which` and `who` as ints: high bits hide neither.
  EXPECT_EQ(Action(__NR_setpriority, {kHighBits | PRIO_USER, 0, 10}), kEperm);
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_PROCESS, kHighBits | kOtherPid, 10}), kEperm);
  // The filter errs closed: high bits over an allowed value are refused too.
  EXPECT_EQ(Action(__NR_setpriority, {PRIO_PROCESS, kHighBits, 10}), kEperm);
  EXPECT_EQ(Action(__NR_setpriority, {kHighBits | PRIO_PROCESS, 0, 10}), kEperm);
}

TEST_F(SeccompFilterTest, AllowsIoprioSetOfItselfOnly) {
  const uint64_t idle = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0);
  EXPECT_EQ(Action(__NR_ioprio_set, {IOPRIO_WHO_PROCESS, 0, idle}), kAllow);
  EXPECT_EQ(Action(__NR_ioprio_set, {IOPRIO_WHO_PROCESS, kOtherPid, idle}), kEperm);
  EXPECT_EQ(Action(__NR_ioprio_set, {IOPRIO_WHO_PGRP, 0, idle}), kEperm);
  EXPECT_EQ(Action(__NR_ioprio_set, {IOPRIO_WHO_USER, 0, idle}), kEperm);
  EXPECT_EQ(Action(__NR_ioprio_set, {kHighBits | IOPRIO_WHO_USER, 0, idle}), kEperm);
  EXPECT_EQ(Action(__NR_ioprio_set, {IOPRIO_WHO_PROCESS, kHighBits | kOtherPid, idle}), kEperm);
  EXPECT_EQ(Action(__NR_ioprio_set, {IOPRIO_WHO_PROCESS, kHighBits, idle}), kEperm);
  // Reading stays allowed, whoever it names.
  EXPECT_EQ(Action(__NR_ioprio_get, {IOPRIO_WHO_USER, 0}), kAllow);
}

TEST_F(SeccompFilterTest, AllowsPrlimitToSetOnlyItsOwnLimits) {
  EXPECT_EQ(Action(__NR_prlimit64, {0, RLIMIT_NOFILE, kPointer, 0}), kAllow);  // setrlimit
  EXPECT_EQ(Action(__NR_prlimit64, {0, RLIMIT_NOFILE, 0, kPointer}), kAllow);  // getrlimit
  EXPECT_EQ(Action(__NR_prlimit64, {0, RLIMIT_CPU, kPointer, kPointer}), kAllow);
  // Reading another process's limits stays allowed.
  EXPECT_EQ(Action(__NR_prlimit64, {kOtherPid, RLIMIT_CPU, 0, kPointer}), kAllow);
  EXPECT_EQ(Action(__NR_prlimit64, {kOtherPid, RLIMIT_CPU, kPointer, 0}), kEperm);
  EXPECT_EQ(Action(__NR_prlimit64, {kOtherPid, RLIMIT_CPU, kPointer, kPointer}), kEperm);
  EXPECT_EQ(Action(__NR_prlimit64, {1, RLIMIT_NOFILE, kPointer, 0}), kEperm);
  EXPECT_EQ(Action(__NR_prlimit64, {kHighBits | kOtherPid, RLIMIT_CPU, kPointer, 0}), kEperm);
  EXPECT_EQ(Action(__NR_prlimit64, {kHighBits, RLIMIT_CPU, kPointer, 0}), kEperm);
}

TEST_F(SeccompFilterTest, AllowsSchedulingOfItselfOnly) {
  for (int nr :
       {__NR_sched_setscheduler, __NR_sched_setparam, __NR_sched_setattr, __NR_sched_setaffinity}) {
    EXPECT_EQ(Action(nr, {0, SCHED_BATCH, kPointer}), kAllow) << nr;
    EXPECT_EQ(Action(nr, {kOtherPid, SCHED_BATCH, kPointer}), kEperm) << nr;
    EXPECT_EQ(Action(nr, {1, SCHED_BATCH, kPointer}), kEperm) << nr;
    EXPECT_EQ(Action(nr, {kHighBits | kOtherPid, SCHED_BATCH, kPointer}), kEperm) << nr;
    EXPECT_EQ(Action(nr, {kHighBits, SCHED_BATCH, kPointer}), kEperm) << nr;
  }
  // Reading another process's scheduling stays allowed.
  EXPECT_EQ(Action(__NR_sched_getscheduler, {kOtherPid}), kAllow);
  EXPECT_EQ(Action(__NR_sched_getaffinity, {kOtherPid, 128, kPointer}), kAllow);
}

TEST_F(SeccompFilterTest, RefusesKillOfEveryProcess) {
  EXPECT_EQ(Action(__NR_kill, {kMinusOne, SIGKILL}), kEperm);
  EXPECT_EQ(Action(__NR_kill, {kMinusOne, 0}), kEperm);
  // The kernel reads the pid as an int: -1 zero-extended is -1 too.
  EXPECT_EQ(Action(__NR_kill, {kMinusOneZeroExtended, SIGKILL}), kEperm);
  // One process, its own process group, or a group it names stay allowed.
  EXPECT_EQ(Action(__NR_kill, {kOtherPid, SIGTERM}), kAllow);
  EXPECT_EQ(Action(__NR_kill, {0, SIGTERM}), kAllow);
  EXPECT_EQ(Action(__NR_kill, {static_cast<uint64_t>(-static_cast<int64_t>(kOtherPid)), SIGTERM}),
            kAllow);
  EXPECT_EQ(Action(__NR_kill, {kHighBits | kOtherPid, SIGTERM}), kAllow);
}

TEST_F(SeccompFilterTest, RefusesTheSetuidAndSetgidBitsInEveryModeItSets) {
  for (uint64_t bit : {S_ISUID, S_ISGID}) {
    for (uint64_t mode : {bit | 0755, bit, bit | 0x100000000}) {
      EXPECT_EQ(Action(__NR_chmod, {0x7fff0000, mode}), kEperm) << std::oct << mode;
      EXPECT_EQ(Action(__NR_fchmod, {3, mode}), kEperm) << std::oct << mode;
      EXPECT_EQ(Action(__NR_fchmodat, {static_cast<uint64_t>(AT_FDCWD), 0x7fff0000, mode}), kEperm);
      EXPECT_EQ(Action(452, {static_cast<uint64_t>(AT_FDCWD), 0x7fff0000, mode, 0}), kEperm);
      EXPECT_EQ(Action(__NR_mknod, {0x7fff0000, S_IFREG | mode, 0}), kEperm);
      EXPECT_EQ(Action(__NR_mknodat, {3, 0x7fff0000, S_IFREG | mode, 0}), kEperm);
      EXPECT_EQ(Action(__NR_creat, {0x7fff0000, mode}), kEperm);
      EXPECT_EQ(Action(__NR_open, {0x7fff0000, O_WRONLY | O_CREAT, mode}), kEperm);
      EXPECT_EQ(Action(__NR_openat, {3, 0x7fff0000, O_WRONLY | O_CREAT | O_TRUNC, mode}), kEperm);
      EXPECT_EQ(Action(__NR_openat, {3, 0x7fff0000, O_WRONLY | O_TMPFILE, mode}), kEperm);
    }
  }
  // Any other mode, and a mode that is no mode (open without O_CREAT).
  EXPECT_EQ(Action(__NR_chmod, {0x7fff0000, 01777}), kAllow);
  EXPECT_EQ(Action(__NR_fchmodat, {static_cast<uint64_t>(AT_FDCWD), 0x7fff0000, 0755}), kAllow);
  EXPECT_EQ(Action(__NR_openat, {3, 0x7fff0000, O_WRONLY | O_CREAT, 0644}), kAllow);
  EXPECT_EQ(Action(__NR_openat, {3, 0x7fff0000, O_RDONLY, S_ISUID | 0755}), kAllow);
  EXPECT_EQ(Action(__NR_open, {0x7fff0000, O_RDONLY, S_ISGID}), kAllow);
  // openat2's mode is in memory: as from a kernel without it.
  EXPECT_EQ(Action(__NR_openat2, {3, 0x7fff0000, 0x7fff1000, 24}), kEnosys);
}

TEST(SeccompChoicesTest, SystemVIpcIsRefusedOnlyInTheMachinesIpcNamespace) {
  Result<SeccompProgram> own = BuildSeccompProgram({true});
  Result<SeccompProgram> shared = BuildSeccompProgram({false});
  ASSERT_TRUE(own.ok() && shared.ok());
  for (int nr :
       {__NR_shmget, __NR_shmat, __NR_shmctl, __NR_semget, __NR_semop, __NR_semtimedop, __NR_semctl,
        __NR_msgget, __NR_msgsnd, __NR_msgrcv, __NR_msgctl, __NR_mq_open, __NR_mq_unlink}) {
    struct seccomp_data call = {};
    call.nr = nr;
    call.arch = AUDIT_ARCH_X86_64;
    EXPECT_EQ(*testing::EvaluateSeccompProgram(own->instructions, call), SECCOMP_RET_ALLOW) << nr;
    EXPECT_EQ(*testing::EvaluateSeccompProgram(shared->instructions, call),
              SECCOMP_RET_ERRNO | EPERM)
        << nr;
  }
}

// Under bubblewrap the server is its PID namespace's first process, and its
// death signal is what ends the namespace when bwrap ends.
TEST(SeccompChoicesTest, TheDeathSignalIsKeptWhereTheServerIsTheFirstProcess) {
  Result<SeccompProgram> init_holds_it = BuildSeccompProgram({true, false});
  Result<SeccompProgram> server_holds_it = BuildSeccompProgram({true, true});
  ASSERT_TRUE(init_holds_it.ok() && server_holds_it.ok());
  struct seccomp_data call = {};
  call.nr = __NR_prctl;
  call.arch = AUDIT_ARCH_X86_64;
  call.args[0] = PR_SET_PDEATHSIG;
  EXPECT_EQ(*testing::EvaluateSeccompProgram(init_holds_it->instructions, call), SECCOMP_RET_ALLOW);
  EXPECT_EQ(*testing::EvaluateSeccompProgram(server_holds_it->instructions, call),
            SECCOMP_RET_ERRNO | EPERM);
  // A high bit does not hide it: the kernel reads an int.
  call.args[0] = 0x100000000ULL | PR_SET_PDEATHSIG;
  EXPECT_EQ(*testing::EvaluateSeccompProgram(server_holds_it->instructions, call),
            SECCOMP_RET_ERRNO | EPERM);
  // Every other prctl stays allowed.
  call.args[0] = PR_SET_NAME;
  EXPECT_EQ(*testing::EvaluateSeccompProgram(server_holds_it->instructions, call),
            SECCOMP_RET_ALLOW);
}

TEST_F(SeccompFilterTest, KillsCallsOfOtherArchitectures) {
  EXPECT_EQ(Action(kI386Getpid, {}, AUDIT_ARCH_I386), kKillProcess);
  EXPECT_EQ(Action(__NR_read, {}, AUDIT_ARCH_I386), kKillProcess);
  EXPECT_EQ(Action(__NR_read, {}, AUDIT_ARCH_AARCH64), kKillProcess);
}

TEST_F(SeccompFilterTest, KillsX32Calls) {
  // x32 calls carry x86_64's audit value and __X32_SYSCALL_BIT in the number.
  EXPECT_EQ(Action(kX32SyscallBit | __NR_read), kKillProcess);
  EXPECT_EQ(Action(kX32SyscallBit | __NR_getpid), kKillProcess);
  EXPECT_EQ(Action(kX32SyscallBit | __NR_ptrace), kKillProcess);
  EXPECT_EQ(Action(kX32SyscallBit | 545), kKillProcess);  // x32's own execve
  EXPECT_EQ(Action(static_cast<int>(0x7fffffff)), kKillProcess);
  // -1 is how a tracer skips a call; libseccomp lets it through to the
  // kernel, which answers ENOSYS.
  EXPECT_EQ(Action(-1), kAllow);
}

// Reported by the child through its exit status.
enum KernelOutcome {
  kAllRefused = 0,
  kNoNewPrivsFailed = 10,
  kSeccompUnavailable,
  kInstallFailed,
  kUnshareNotRefused,
  kPtraceNotRefused,
  kClone3NotRefused,
  kPacketSocketNotRefused,
  kGetpidFailed,
};

std::string Describe(int outcome) {
  switch (outcome) {
    case kNoNewPrivsFailed:
      return "prctl(PR_SET_NO_NEW_PRIVS) failed";
    case kInstallFailed:
      return "prctl(PR_SET_SECCOMP) failed";
    case kUnshareNotRefused:
      return "unshare(CLONE_NEWUSER) did not fail with EPERM";
    case kPtraceNotRefused:
      return "ptrace(PTRACE_TRACEME) did not fail with EPERM";
    case kClone3NotRefused:
      return "clone3 did not fail with ENOSYS";
    case kPacketSocketNotRefused:
      return "socket(AF_PACKET) did not fail with EAFNOSUPPORT";
    case kGetpidFailed:
      return "getpid failed";
    default:
      return "unexpected exit status " + std::to_string(outcome);
  }
}

// Needs the kernel: installs the filter in a forked child and makes the calls.
TEST(SeccompFilterKernelTest, InstalledFilterRefusesInTheKernel) {
  Result<SeccompProgram> program = BuildSeccompProgram();
  ASSERT_TRUE(program.ok()) << program.error().message();
  struct sock_fprog fprog = {static_cast<unsigned short>(program->instructions.size()),
                             program->instructions.data()};

  pid_t child = fork();
  ASSERT_GE(child, 0) << "fork: " << strerror(errno);
  if (child == 0) {
    // Only system calls on data prepared before the fork.
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(kNoNewPrivsFailed);
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0) {
      _exit(errno == EINVAL ? kSeccompUnavailable : kInstallFailed);
    }
    if (unshare(CLONE_NEWUSER) != -1 || errno != EPERM) _exit(kUnshareNotRefused);
    if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != -1 || errno != EPERM) {
      _exit(kPtraceNotRefused);
    }
    if (syscall(SYS_clone3, nullptr, 0) != -1 || errno != ENOSYS) _exit(kClone3NotRefused);
    if (socket(AF_PACKET, SOCK_RAW, 0) != -1 || errno != EAFNOSUPPORT) {
      _exit(kPacketSocketNotRefused);
    }
    if (syscall(SYS_getpid) <= 0) _exit(kGetpidFailed);
    _exit(kAllRefused);
  }

  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child) << "waitpid: " << strerror(errno);
  ASSERT_FALSE(WIFSIGNALED(status)) << "the child was killed by signal " << WTERMSIG(status);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == kSeccompUnavailable) {
    GTEST_SKIP() << "this kernel does not take seccomp filters (PR_SET_SECCOMP: EINVAL)";
  }
  EXPECT_EQ(WEXITSTATUS(status), kAllRefused) << Describe(WEXITSTATUS(status));
}

}  // namespace
}  // namespace bravebot
