#include "launcher/clone_sharing_memory.h"

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

namespace bravebot {
namespace {

// The child's stack: it may not use the stack of the thread that waits. Its
// lowest page is a guard: an overflow faults instead of writing below it.
class ChildStack {
 public:
  static constexpr size_t kSize = 256 * 1024;
  ChildStack()
      : base_(::mmap(nullptr, kSize, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0)) {
    if (valid() && ::mprotect(base_, static_cast<size_t>(::getpagesize()), PROT_NONE) != 0) {
      ::munmap(base_, kSize);
      base_ = MAP_FAILED;
    }
  }
  ~ChildStack() {
    if (valid()) ::munmap(base_, kSize);
  }
  ChildStack(const ChildStack&) = delete;
  ChildStack& operator=(const ChildStack&) = delete;
  bool valid() const { return base_ != MAP_FAILED; }
  void* top() const { return static_cast<char*>(base_) + kSize; }

 private:
  void* base_;
};

class DumpableWhileLaunching {
 public:
  DumpableWhileLaunching() {
    std::lock_guard lock(mutex_);
    if (launching_++ == 0) {
      restore_ = ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0;
      if (restore_) ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    }
  }
  ~DumpableWhileLaunching() {
    std::lock_guard lock(mutex_);
    if (--launching_ == 0 && restore_) ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  }
  DumpableWhileLaunching(const DumpableWhileLaunching&) = delete;
  DumpableWhileLaunching& operator=(const DumpableWhileLaunching&) = delete;

 private:
  static inline std::mutex mutex_;
  static inline int launching_ = 0;
  static inline bool restore_ = false;
};

// Every signal blocked in the waiting thread, so the child starts with all
// blocked: until it resets them, a signal would run one of the parent's
// handlers in the child, on the parent's memory. The system call itself,
// since glibc's wrappers leave out the two signals it keeps for its threads.
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t all;
    std::memset(&all, 0xff, sizeof(all));
    ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &previous_, kKernelSignalSetSize);
  }
  ~SignalsBlocked() {
    ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &previous_, nullptr, kKernelSignalSetSize);
  }
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;

 private:
  // The kernel's signal set: a bit for each signal, 1 to _NSIG - 1.
  static constexpr size_t kKernelSignalSetSize = (_NSIG - 1) / 8;
  sigset_t previous_ = {};
};

}  // namespace

pid_t CloneSharingMemory(int flags, int (*child)(void*), void* argument) {
  ChildStack stack;
  if (!stack.valid()) return -errno;
  DumpableWhileLaunching dumpable;
  SignalsBlocked blocked;
  pid_t pid = ::clone(child, stack.top(), flags | CLONE_VM | CLONE_VFORK | SIGCHLD, argument);
  // errno is read at once: the child, which shares this thread's, may have
  // set it, and the destructors may.
  return pid < 0 ? -errno : pid;
}

}  // namespace bravebot
