// Copies itself into its home, sets the setuid bit and runs the copy: the run
// must gain nothing (same effective uid, no capability), whether the bit stuck
// or not. The copy is this program run as "after EUID".
#include <sys/stat.h>

#include <climits>

#include "integration/probes/probe.h"

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "after") == 0) {
    unsigned before = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
    unsigned now = ::geteuid();
    unsigned long long effective = probe::StatusField("CapEff");
    unsigned long long permitted = probe::StatusField("CapPrm");
    const char* what =
        probe::Words("euid %u to %u, CapEff %llx, CapPrm %llx", before, now, effective, permitted);
    if (now != before || effective != 0 || permitted != 0) return probe::Allowed(what);
    return probe::Denied(what, EPERM);
  }
  char copy[PATH_MAX];
  std::snprintf(copy, sizeof(copy), "%s/setuid-copy", probe::Need("HOME"));
  int in = ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  int out = ::open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
  if (in < 0 || out < 0) probe::SetupFailed("copy /proc/self/exe into the home");
  char buffer[65536];
  for (ssize_t got; (got = ::read(in, buffer, sizeof(buffer))) > 0;) {
    if (::write(out, buffer, static_cast<size_t>(got)) != got) probe::SetupFailed("write copy");
  }
  ::close(in);
  ::close(out);
  struct stat status;
  bool stuck =
      ::chmod(copy, 04755) == 0 && ::stat(copy, &status) == 0 && (status.st_mode & S_ISUID) != 0;
  std::printf("the setuid bit %s; ", stuck ? "stuck" : "did not stick");
  std::fflush(stdout);
  char euid[32];
  std::snprintf(euid, sizeof(euid), "%u", static_cast<unsigned>(::geteuid()));
  char* const arguments[] = {copy, const_cast<char*>("after"), euid, nullptr};
  ::execv(copy, arguments);
  probe::SetupFailed("execute the copy");
}
