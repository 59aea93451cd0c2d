#include "profiles/seccomp_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/ioprio.h>
#include <linux/netlink.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>

#include "base/unique_fd.h"

namespace bravebot {
namespace {

// A system call the filter names, with the name a person reads in an error.
struct Call {
  const char* name;
  int number;
};

// Refused with EPERM whatever their arguments.
constexpr Call kRefusedCalls[] = {
    // Reading or steering another process: it holds what it was allowed to
    // read, so this would carry the server past its own Landlock rules.
    {"ptrace", SCMP_SYS(ptrace)},
    {"process_vm_readv", SCMP_SYS(process_vm_readv)},
    {"process_vm_writev", SCMP_SYS(process_vm_writev)},
    // Reaching into another process by its pidfd or comparing its files.
    {"pidfd_getfd", SCMP_SYS(pidfd_getfd)},
    {"process_madvise", SCMP_SYS(process_madvise)},
    {"kcmp", SCMP_SYS(kcmp)},
    // Changing what the file tree looks like under the Landlock rules.
    {"mount", SCMP_SYS(mount)},
    // The new mount API reaches what mount does, one step at a time.
    {"fsopen", SCMP_SYS(fsopen)},
    {"fsconfig", SCMP_SYS(fsconfig)},
    {"fsmount", SCMP_SYS(fsmount)},
    {"fspick", SCMP_SYS(fspick)},
    {"move_mount", SCMP_SYS(move_mount)},
    {"open_tree", SCMP_SYS(open_tree)},
    {"mount_setattr", SCMP_SYS(mount_setattr)},
    {"umount2", SCMP_SYS(umount2)},
    {"pivot_root", SCMP_SYS(pivot_root)},
    {"chroot", SCMP_SYS(chroot)},
    // Joining or making namespaces: a new user namespace gives back, inside it,
    // every capability we dropped, and opens kernel code written for root.
    // unshare is refused whole; clone's namespace flags are checked below.
    {"setns", SCMP_SYS(setns)},
    {"unshare", SCMP_SYS(unshare)},
    // Kernel surface no server needs and attackers favour: eBPF programs,
    // performance counters, userfaultfd (which holds a kernel race open at
    // will) and the keyrings (shared with other processes of the user).
    {"bpf", SCMP_SYS(bpf)},
    {"perf_event_open", SCMP_SYS(perf_event_open)},
    {"userfaultfd", SCMP_SYS(userfaultfd)},
    {"keyctl", SCMP_SYS(keyctl)},
    {"add_key", SCMP_SYS(add_key)},
    {"request_key", SCMP_SYS(request_key)},
    // Replacing the kernel or loading code into it.
    {"kexec_load", SCMP_SYS(kexec_load)},
    {"kexec_file_load", SCMP_SYS(kexec_file_load)},
    {"init_module", SCMP_SYS(init_module)},
    {"finit_module", SCMP_SYS(finit_module)},
    {"delete_module", SCMP_SYS(delete_module)},
    // io_uring: its operations run inside the kernel and bypass the seccomp
    // filter, so an open ring would undo every rule here.
    {"io_uring_setup", SCMP_SYS(io_uring_setup)},
    {"io_uring_enter", SCMP_SYS(io_uring_enter)},
    {"io_uring_register", SCMP_SYS(io_uring_register)},
    // Opening a file by its handle skips the path walk, and with it the
    // checks made on paths.
    {"open_by_handle_at", SCMP_SYS(open_by_handle_at)},
    {"name_to_handle_at", SCMP_SYS(name_to_handle_at)},
    // Running the machine: accounting, quotas, swap, reboot.
    {"acct", SCMP_SYS(acct)},
    {"quotactl", SCMP_SYS(quotactl)},
    {"swapon", SCMP_SYS(swapon)},
    {"swapoff", SCMP_SYS(swapoff)},
    {"reboot", SCMP_SYS(reboot)},
    // Setting the clock, which logs, certificates and timeouts all trust.
    {"settimeofday", SCMP_SYS(settimeofday)},
    {"clock_settime", SCMP_SYS(clock_settime)},
    {"clock_adjtime", SCMP_SYS(clock_adjtime)},
    {"adjtimex", SCMP_SYS(adjtimex)},
    // Watching files: a watch needs only a look at its path, which Landlock
    // does not check, and reports the name of each file opened, written or
    // made there, so a watch on ~/.ssh or the profile directory would tell
    // the server what the person does there. Since Linux 5.13 a user may
    // watch with fanotify too. inotify is refused inside the reach as well,
    // which no server we measured minds: none of them watches (docs/reach.md).
    {"fanotify_init", SCMP_SYS(fanotify_init)},
    {"inotify_add_watch", SCMP_SYS(inotify_add_watch)},
};

constexpr Call kClone = {"clone", SCMP_SYS(clone)};
constexpr Call kClone3 = {"clone3", SCMP_SYS(clone3)};
constexpr Call kIoctl = {"ioctl", SCMP_SYS(ioctl)};
constexpr Call kSocket = {"socket", SCMP_SYS(socket)};
constexpr Call kSocketpair = {"socketpair", SCMP_SYS(socketpair)};
constexpr Call kKill = {"kill", SCMP_SYS(kill)};
constexpr Call kSetpriority = {"setpriority", SCMP_SYS(setpriority)};
constexpr Call kIoprioSet = {"ioprio_set", SCMP_SYS(ioprio_set)};
constexpr Call kPrlimit = {"prlimit64", SCMP_SYS(prlimit64)};
constexpr Call kPrctl = {"prctl", SCMP_SYS(prctl)};

// Calls that change how the kernel schedules the process their first argument
// names (0: the caller).
constexpr Call kSchedulingCalls[] = {
    {"sched_setscheduler", SCMP_SYS(sched_setscheduler)},
    {"sched_setparam", SCMP_SYS(sched_setparam)},
    {"sched_setattr", SCMP_SYS(sched_setattr)},
    {"sched_setaffinity", SCMP_SYS(sched_setaffinity)},
};

// kill's pid -1 (every process), as the kernel reads it: an int.
constexpr uint32_t kEveryProcess = 0xffffffffu;

// A bit, or a request, with its name for errors.
struct Named {
  const char* name;
  uint32_t value;
};

// clone() makes a namespace with any of these, as unshare does. (CLONE_NEWTIME
// is not among them: in clone's flags its bit is part of the exit signal; only
// unshare and clone3 take it, and both are refused whole.)
constexpr Named kNamespaceFlags[] = {
    {"CLONE_NEWNS", CLONE_NEWNS},         {"CLONE_NEWUTS", CLONE_NEWUTS},
    {"CLONE_NEWIPC", CLONE_NEWIPC},       {"CLONE_NEWUSER", CLONE_NEWUSER},
    {"CLONE_NEWPID", CLONE_NEWPID},       {"CLONE_NEWNET", CLONE_NEWNET},
    {"CLONE_NEWCGROUP", CLONE_NEWCGROUP},
};

// TIOCSTI pushes characters into a terminal's input, and TIOCLINUX can paste
// the console's selection into it: on a terminal the server shares with the
// person, either types commands into their shell.
constexpr Named kRefusedIoctls[] = {
    {"TIOCSTI", TIOCSTI},
    {"TIOCLINUX", TIOCLINUX},
};

// Local sockets, IPv4, IPv6, and netlink for its routing protocol only (which
// lists interfaces and addresses, as getaddrinfo and libuv do). Others bring
// raw frames (AF_PACKET), the kernel's crypto (AF_ALG), virtual machine
// sockets (AF_VSOCK) and dozens of rarely used protocol stacks. Sorted.
constexpr int kSocketFamilies[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};
constexpr int kSocketpairFamilies[] = {AF_UNIX};

// The kernel reads flags, requests and families as 32-bit ints and ignores the
// high half of the register, so a refusing rule compares the low half only: a
// 64-bit comparison would let a caller hide a refused value behind a high bit.
// MASKED_EQ with a mask whose high half is zero is such a comparison.
scmp_arg_cmp Low32Equals(unsigned int argument, uint32_t value) {
  return {.arg = argument, .op = SCMP_CMP_MASKED_EQ, .datum_a = 0xffffffffu, .datum_b = value};
}

scmp_arg_cmp Low32HasBit(unsigned int argument, uint32_t bit) {
  return {.arg = argument, .op = SCMP_CMP_MASKED_EQ, .datum_a = bit, .datum_b = bit};
}

// libseccomp has no masked "not equal", so a refusing rule for "anything but
// `value`" compares all 64 bits: a high bit over an allowed value is refused
// too. It refuses more, never less, and no libc sets them.
scmp_arg_cmp Differs(unsigned int argument, uint64_t value) {
  return {.arg = argument, .op = SCMP_CMP_NE, .datum_a = value, .datum_b = 0};
}

struct ContextRelease {
  void operator()(void* context) const { seccomp_release(context); }
};
using Context = std::unique_ptr<void, ContextRelease>;

// libseccomp reports failure as a negative errno.
Status Check(int result, const std::string& what) {
  if (result < 0) return Error::FromErrno("seccomp: " + what, -result);
  return {};
}

// `which` names the rule in an error: "ptrace", "clone with CLONE_NEWUSER".
Status AddRule(scmp_filter_ctx context, uint32_t action, const Call& call,
               std::initializer_list<scmp_arg_cmp> comparisons, const std::string& which) {
  // The exact form: the rule as written or an error, never a rewrite of it.
  return Check(seccomp_rule_add_exact_array(context, action, call.number,
                                            static_cast<unsigned int>(comparisons.size()),
                                            comparisons.begin()),
               "could not add the rule for " + which);
}

// Refuses `call` with EAFNOSUPPORT for every family (its first argument) but
// `allowed`: each value below the largest allowed family that is not allowed,
// compared on the low 32 bits, then everything above it. libseccomp compares
// ranges on whole 64-bit arguments only, so that last rule also refuses an
// allowed family with high bits set: it refuses more, never less, and no libc
// sets them.
Status RefuseSocketFamiliesBut(scmp_filter_ctx context, const Call& call,
                               std::span<const int> allowed) {
  const uint32_t largest = static_cast<uint32_t>(allowed.back());
  for (uint32_t family = 0; family < largest; ++family) {
    if (std::find(allowed.begin(), allowed.end(), static_cast<int>(family)) != allowed.end()) {
      continue;
    }
    Status added = AddRule(context, SCMP_ACT_ERRNO(EAFNOSUPPORT), call, {Low32Equals(0, family)},
                           std::string(call.name) + " with family " + std::to_string(family));
    if (!added) return added;
  }
  return AddRule(context, SCMP_ACT_ERRNO(EAFNOSUPPORT), call,
                 {{.arg = 0, .op = SCMP_CMP_GT, .datum_a = largest, .datum_b = 0}},
                 std::string(call.name) + " with a family above " + std::to_string(largest));
}

// The architecture's guard. Only x86_64 is in the filter (seccomp_init adds
// the native architecture alone), so libseccomp sends a call of any other
// architecture to the bad-architecture action, which we make "kill the
// process": i386 by its audit value, and x32 too. x32 calls carry x86_64's
// audit value with __X32_SYSCALL_BIT (0x40000000) in the number, and
// libseccomp 2.5 (Debian 12) checks that bit for an x86_64 filter without x32
// in it: any number at or above it, except -1 (a tracer skipping the call),
// goes to the bad-architecture action. No rule could say this instead (rules
// name single numbers), so we check that x32 and i386 were not added.
Status GuardArchitecture(scmp_filter_ctx context) {
  Status killed = Check(seccomp_attr_set(context, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS),
                        "could not make calls of other architectures kill the process (kernels "
                        "before 4.14 cannot)");
  if (!killed) return killed;
  // seccomp_arch_exist answers -EEXIST for an architecture not in the filter.
  if (seccomp_arch_exist(context, SCMP_ARCH_X32) != -EEXIST ||
      seccomp_arch_exist(context, SCMP_ARCH_X86) != -EEXIST) {
    return Error(ErrorCode::kSystem,
                 "seccomp: libseccomp put x32 or i386 calls in the filter; they must be killed");
  }
  return {};
}

// Calls aimed at another process, a process group or every process of a user.
// A program aims them at itself (0), and that stays allowed. Aimed elsewhere
// they reach processes Landlock does not guard (it guards ptrace and, from
// ABI 6, signals), and without a PID namespace of its own the server can name
// any process of its user: as root any root process, since a root without
// capabilities still matches uid 0. Calls that only read (getpriority,
// sched_getattr, prlimit64 without a new limit) stay allowed.
Status RefuseAimingAtOthers(scmp_filter_ctx context) {
  // Another process's nice value, or every process of a group or a user
  // (`which` other than PRIO_PROCESS, `who` other than 0).
  Status added = AddRule(context, SCMP_ACT_ERRNO(EPERM), kSetpriority, {Differs(0, PRIO_PROCESS)},
                         "setpriority of a process group or a user");
  if (!added) return added;
  added = AddRule(context, SCMP_ACT_ERRNO(EPERM), kSetpriority, {Differs(1, 0)},
                  "setpriority of another process");
  if (!added) return added;
  // The same for the I/O scheduler.
  added = AddRule(context, SCMP_ACT_ERRNO(EPERM), kIoprioSet, {Differs(0, IOPRIO_WHO_PROCESS)},
                  "ioprio_set of a process group or a user");
  if (!added) return added;
  added = AddRule(context, SCMP_ACT_ERRNO(EPERM), kIoprioSet, {Differs(1, 0)},
                  "ioprio_set of another process");
  if (!added) return added;
  // A new limit on another process: a CPU time limit kills it with SIGXCPU.
  // Reading its limits (no new limit given) stays allowed.
  added = AddRule(context, SCMP_ACT_ERRNO(EPERM), kPrlimit, {Differs(0, 0), Differs(2, 0)},
                  "prlimit64 setting a limit of another process");
  if (!added) return added;
  // Another process's scheduling policy, priority or CPUs.
  for (const Call& call : kSchedulingCalls) {
    added = AddRule(context, SCMP_ACT_ERRNO(EPERM), call, {Differs(0, 0)},
                    std::string(call.name) + " of another process");
    if (!added) return added;
  }
  // kill(-1) signals every process the user may signal. (A process group,
  // pid below -1, stays allowed: a program stops the group it started that
  // way, and each process of it is checked as if named alone.)
  return AddRule(context, SCMP_ACT_ERRNO(EPERM), kKill, {Low32Equals(0, kEveryProcess)},
                 "kill of every process");
}

// A call and the argument that holds a file's mode.
struct ModeCall {
  Call call;
  unsigned int mode_argument;
};

// Setting the mode of a file.
constexpr ModeCall kChmodCalls[] = {
    {{"chmod", SCMP_SYS(chmod)}, 1},
    {{"fchmod", SCMP_SYS(fchmod)}, 1},
    {{"fchmodat", SCMP_SYS(fchmodat)}, 2},
    // fchmodat2 (Linux 6.6) is newer than libseccomp 2.5's table: by number.
    {{"fchmodat2", 452}, 2},
    {{"mknod", SCMP_SYS(mknod)}, 1},
    {{"mknodat", SCMP_SYS(mknodat)}, 2},
    {{"creat", SCMP_SYS(creat)}, 1},
};
// Creating a file whose mode is given when the flags (the argument before)
// ask for one to be made.
constexpr ModeCall kOpenCalls[] = {
    {{"open", SCMP_SYS(open)}, 2},
    {{"openat", SCMP_SYS(openat)}, 3},
};
constexpr Call kOpenat2 = {"openat2", SCMP_SYS(openat2)};
// The flags of open that make a file: O_CREAT, and O_TMPFILE's own bit.
constexpr Named kCreatingFlags[] = {{"O_CREAT", O_CREAT}, {"O_TMPFILE", __O_TMPFILE}};
constexpr Named kPrivilegeBits[] = {{"S_ISUID", S_ISUID}, {"S_ISGID", S_ISGID}};

// A setuid or setgid file it leaves in a directory it may write runs, for any
// other user who reaches that directory, as the person who started it (as
// root, where bravebot runs as root): no new privileges binds only the
// server. So no mode it sets or gives a new file holds either bit, as
// systemd's RestrictSUIDSGID has it. openat2 carries its mode in memory,
// which seccomp cannot read: ENOSYS, as from an older kernel, and callers
// fall back to openat.
Status RefusePrivilegeBits(scmp_filter_ctx context) {
  for (const Named& bit : kPrivilegeBits) {
    for (const ModeCall& mode_call : kChmodCalls) {
      Status added = AddRule(context, SCMP_ACT_ERRNO(EPERM), mode_call.call,
                             {Low32HasBit(mode_call.mode_argument, bit.value)},
                             std::string(mode_call.call.name) + " with " + bit.name);
      if (!added) return added;
    }
    for (const ModeCall& open_call : kOpenCalls) {
      for (const Named& flag : kCreatingFlags) {
        Status added =
            AddRule(context, SCMP_ACT_ERRNO(EPERM), open_call.call,
                    {Low32HasBit(open_call.mode_argument - 1, flag.value),
                     Low32HasBit(open_call.mode_argument, bit.value)},
                    std::string(open_call.call.name) + " with " + flag.name + " and " + bit.name);
        if (!added) return added;
      }
    }
  }
  return AddRule(context, SCMP_ACT_ERRNO(ENOSYS), kOpenat2, {}, kOpenat2.name);
}

// System V shared memory, message queues and semaphores, and POSIX message
// queues: no files, so no Landlock rule guards them. Refused where the server
// shares the machine's IPC namespace; in one of its own they are its own.
constexpr Call kSystemVCalls[] = {
    {"shmget", SCMP_SYS(shmget)},       {"shmat", SCMP_SYS(shmat)},
    {"shmctl", SCMP_SYS(shmctl)},       {"semget", SCMP_SYS(semget)},
    {"semop", SCMP_SYS(semop)},         {"semtimedop", SCMP_SYS(semtimedop)},
    {"semctl", SCMP_SYS(semctl)},       {"msgget", SCMP_SYS(msgget)},
    {"msgsnd", SCMP_SYS(msgsnd)},       {"msgrcv", SCMP_SYS(msgrcv)},
    {"msgctl", SCMP_SYS(msgctl)},       {"mq_open", SCMP_SYS(mq_open)},
    {"mq_unlink", SCMP_SYS(mq_unlink)},
};

Status AddRules(scmp_filter_ctx context, const SeccompChoices& choices) {
  if (Status added = RefusePrivilegeBits(context); !added) return added;
  if (choices.keeps_death_signal) {
    Status added = AddRule(context, SCMP_ACT_ERRNO(EPERM), kPrctl,
                           {Low32Equals(0, PR_SET_PDEATHSIG)}, "prctl PR_SET_PDEATHSIG");
    if (!added) return added;
  }
  if (!choices.own_ipc_namespace) {
    for (const Call& call : kSystemVCalls) {
      Status added = AddRule(context, SCMP_ACT_ERRNO(EPERM), call, {}, call.name);
      if (!added) return added;
    }
  }
  for (const Call& call : kRefusedCalls) {
    Status added = AddRule(context, SCMP_ACT_ERRNO(EPERM), call, {}, call.name);
    if (!added) return added;
  }
  // clone's flags are its first argument on x86_64 (the kernel reads their
  // low 32 bits). One rule per flag: a rule compares an argument once.
  for (const Named& flag : kNamespaceFlags) {
    Status added = AddRule(context, SCMP_ACT_ERRNO(EPERM), kClone, {Low32HasBit(0, flag.value)},
                           std::string("clone with ") + flag.name);
    if (!added) return added;
  }
  // clone3's flags live in memory, which seccomp cannot read. ENOSYS, as from
  // a kernel without it, makes glibc (2.34 and later) fall back to clone.
  Status clone3 = AddRule(context, SCMP_ACT_ERRNO(ENOSYS), kClone3, {}, kClone3.name);
  if (!clone3) return clone3;
  Status others = RefuseAimingAtOthers(context);
  if (!others) return others;
  for (const Named& request : kRefusedIoctls) {
    Status added = AddRule(context, SCMP_ACT_ERRNO(EPERM), kIoctl, {Low32Equals(1, request.value)},
                           std::string("ioctl ") + request.name);
    if (!added) return added;
  }
  Status families = RefuseSocketFamiliesBut(context, kSocket, kSocketFamilies);
  if (!families) return families;
  // The protocol is the third argument. Refused when it is not NETLINK_ROUTE
  // in all 64 bits: again more, never less.
  Status netlink = AddRule(context, SCMP_ACT_ERRNO(EAFNOSUPPORT), kSocket,
                           {Low32Equals(0, AF_NETLINK),
                            {.arg = 2, .op = SCMP_CMP_NE, .datum_a = NETLINK_ROUTE, .datum_b = 0}},
                           "socket with AF_NETLINK and a protocol other than NETLINK_ROUTE");
  if (!netlink) return netlink;
  return RefuseSocketFamiliesBut(context, kSocketpair, kSocketpairFamilies);
}

Result<SeccompProgram> ExportProgram(scmp_filter_ctx context) {
  // libseccomp 2.5 (Debian 12) exports only to a descriptor
  // (seccomp_export_bpf_mem came with 2.6); a memory file keeps it off disk.
  UniqueFd memory(memfd_create("bravebot-seccomp", MFD_CLOEXEC));
  if (!memory.valid()) {
    return Error::FromErrno("seccomp: could not make a memory file to export the filter into");
  }
  BRAVEBOT_RETURN_IF_ERROR(
      Check(seccomp_export_bpf(context, memory.get()), "could not export the filter as BPF"));
  struct stat file_status;
  if (fstat(memory.get(), &file_status) != 0) {
    return Error::FromErrno("seccomp: could not measure the exported filter");
  }
  const size_t size = static_cast<size_t>(file_status.st_size);
  if (size == 0 || size % sizeof(struct sock_filter) != 0) {
    return Error(ErrorCode::kSystem, "seccomp: libseccomp exported " + std::to_string(size) +
                                         " bytes, which is not a whole number of BPF instructions");
  }
  SeccompProgram program;
  program.instructions.resize(size / sizeof(struct sock_filter));
  if (program.instructions.size() > BPF_MAXINSNS) {
    return Error(ErrorCode::kSystem, "seccomp: the filter has " +
                                         std::to_string(program.instructions.size()) +
                                         " instructions, more than the " +
                                         std::to_string(BPF_MAXINSNS) + " the kernel accepts");
  }
  char* bytes = reinterpret_cast<char*>(program.instructions.data());
  size_t done = 0;
  while (done < size) {
    ssize_t read = pread(memory.get(), bytes + done, size - done, static_cast<off_t>(done));
    if (read < 0 && errno == EINTR) continue;
    if (read < 0) return Error::FromErrno("seccomp: could not read back the exported filter");
    if (read == 0) return Error(ErrorCode::kSystem, "seccomp: the exported filter ended early");
    done += static_cast<size_t>(read);
  }
  return program;
}

}  // namespace

Result<SeccompProgram> BuildSeccompProgram(const SeccompChoices& choices) {
  if (seccomp_arch_native() != SCMP_ARCH_X86_64) {
    return Error(ErrorCode::kRefused,
                 "seccomp: the filter is written for x86_64 (where clone's flags come first and "
                 "x32 calls must be caught), and this machine is another architecture");
  }
  Context context(seccomp_init(SCMP_ACT_ALLOW));
  if (!context) {
    return Error(ErrorCode::kSystem, "seccomp: libseccomp could not start a filter");
  }
  // Failures report the kernel's errno, not libseccomp's own -ECANCELED.
  BRAVEBOT_RETURN_IF_ERROR(Check(seccomp_attr_set(context.get(), SCMP_FLTATR_API_SYSRAWRC, 1),
                                 "could not ask libseccomp for the system's error codes"));
  // A binary tree of the calls rather than a list: a call is found in a few
  // comparisons, not one for each call a rule names, on every system call a
  // server makes. Compiled as the project is built, it costs no start.
  BRAVEBOT_RETURN_IF_ERROR(Check(seccomp_attr_set(context.get(), SCMP_FLTATR_CTL_OPTIMIZE, 2),
                                 "could not ask libseccomp for a binary tree"));
  BRAVEBOT_RETURN_IF_ERROR(GuardArchitecture(context.get()));
  BRAVEBOT_RETURN_IF_ERROR(AddRules(context.get(), choices));
  return ExportProgram(context.get());
}

}  // namespace bravebot
