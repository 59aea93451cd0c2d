// The seccomp filter every confined server runs under (DESIGN §6): default
// allow, with the calls that reach past the other confinements refused. It is
// compiled once in the parent with libseccomp and exported as classic BPF;
// the child only installs the bytes, as its last step before exec. Pure: no
// filter is loaded here (launcher/ does that).
//
//   BRAVEBOT_ASSIGN_OR_RETURN(SeccompProgram program, BuildSeccompProgram());
//   struct sock_fprog fprog = {static_cast<unsigned short>(program.instructions.size()),
//                              program.instructions.data()};
//   // in the child: prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
//   //               prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog);
#ifndef BRAVEBOT_PROFILES_SECCOMP_FILTER_H_
#define BRAVEBOT_PROFILES_SECCOMP_FILTER_H_

#include <linux/filter.h>

#include <vector>

#include "base/result.h"

namespace bravebot {

// The seccomp filter every confined server runs under, compiled once in the
// parent with libseccomp and exported as classic BPF; the child only installs it.
struct SeccompProgram {
  std::vector<struct sock_filter> instructions;
};

// What differs between servers: where a server shares the machine's IPC
// namespace (the machine allows it no user namespace), System V IPC and POSIX
// message queues are refused with EPERM as well.
struct SeccompChoices {
  bool own_ipc_namespace = true;
  // Where the server is the first process of its PID namespace (under
  // bubblewrap), its death signal is what ends it, and everything in the
  // namespace, when bwrap ends: changing it (prctl PR_SET_PDEATHSIG) is
  // refused with EPERM. Under our launcher the init holds it instead.
  bool keeps_death_signal = false;
};

// Compiles the filter for x86_64, the only architecture it is written for:
//   - EPERM for calls that reach other processes, change the mounts or the
//     namespaces, load code into the kernel, watch files (inotify, fanotify),
//     or open rarely needed kernel surface (bpf, io_uring, keyrings, ...), for
//     clone with a namespace flag, and for ioctl(TIOCSTI) and ioctl(TIOCLINUX);
//   - EPERM for the calls that change another process's priority, limits or
//     scheduling, or every process of a group or a user (setpriority,
//     ioprio_set, prlimit64, sched_set*), and for kill(-1);
//   - EPERM for a mode with the setuid or setgid bit, set (chmod, fchmod,
//     fchmodat, fchmodat2, mknod*) or given to a file made (creat, open and
//     openat with O_CREAT or O_TMPFILE); ENOSYS for openat2, whose mode
//     seccomp cannot read;
//   - ENOSYS for clone3, so that libc falls back to clone;
//   - EAFNOSUPPORT for sockets other than AF_UNIX, AF_INET, AF_INET6 and
//     AF_NETLINK with NETLINK_ROUTE, and for socketpair other than AF_UNIX;
//   - the process killed for a call of any other architecture (i386, x32).
// Fails, saying which rule, when libseccomp refuses one, and on a machine
// that is not x86_64.
Result<SeccompProgram> BuildSeccompProgram(const SeccompChoices& choices = {});

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_SECCOMP_FILTER_H_
