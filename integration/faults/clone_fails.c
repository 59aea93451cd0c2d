// Loaded with LD_PRELOAD by namespace_probe_test.cc: the first N clones into
// a new user namespace (the launch's, through glibc's clone(), and the
// namespace probe's, through syscall()) fail with EAGAIN, as they do when
// the user's processes are at their limit, or with EPERM, as on a machine
// that allows no user namespace, where BRAVEBOT_TEST_CLONE_ERROR is "EPERM".
// N is BRAVEBOT_TEST_CLONE_FAILURES; every one when it is "all". Nothing
// else is changed.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

static int failed;

static int FailureErrno(void) {
  const char* error = getenv("BRAVEBOT_TEST_CLONE_ERROR");
  return error != NULL && strcmp(error, "EPERM") == 0 ? EPERM : EAGAIN;
}

static int ShouldFail(void) {
  const char* count = getenv("BRAVEBOT_TEST_CLONE_FAILURES");
  if (count == NULL) return 0;
  if (strcmp(count, "all") == 0) return 1;
  return __atomic_fetch_add(&failed, 1, __ATOMIC_SEQ_CST) < atoi(count);
}

long syscall(long number, ...) {
  va_list list;
  va_start(list, number);
  long arguments[6];
  for (int i = 0; i < 6; ++i) arguments[i] = va_arg(list, long);
  va_end(list);
  if (number == SYS_clone && (arguments[0] & CLONE_NEWUSER) != 0 && ShouldFail()) {
    errno = FailureErrno();
    return -1;
  }
  static long (*real)(long, ...);
  if (real == NULL) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(number, arguments[0], arguments[1], arguments[2], arguments[3], arguments[4],
              arguments[5]);
}

int clone(int (*function)(void*), void* stack, int flags, void* argument, ...) {
  va_list list;
  va_start(list, argument);
  void* parent_tid = va_arg(list, void*);
  void* tls = va_arg(list, void*);
  void* child_tid = va_arg(list, void*);
  va_end(list);
  if ((flags & CLONE_NEWUSER) != 0 && ShouldFail()) {
    errno = FailureErrno();
    return -1;
  }
  static int (*real)(int (*)(void*), void*, int, void*, ...);
  if (real == NULL)
    real = (int (*)(int (*)(void*), void*, int, void*, ...))dlsym(RTLD_NEXT, "clone");
  return real(function, stack, flags, argument, parent_tid, tls, child_tid);
}
