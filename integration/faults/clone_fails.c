// Loaded with LD_PRELOAD by confinement_probe_test.cc: the first N raw
// clones into a new user namespace made through syscall() (the namespace
// probe's) fail with EAGAIN, as they do when the user's processes are at
// their limit. N is BRAVEBOT_TEST_CLONE_FAILURES; every one when it is
// "all". Nothing else is changed.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

static int failed;

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
    errno = EAGAIN;
    return -1;
  }
  static long (*real)(long, ...);
  if (real == NULL) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(number, arguments[0], arguments[1], arguments[2], arguments[3], arguments[4],
              arguments[5]);
}
