// How much memory a process holds, from /proc/PID/status, for the tests that
// a supervisor stays small whatever a file or a server offers it.
#ifndef BRAVEBOT_INTEGRATION_RESIDENT_MEMORY_H_
#define BRAVEBOT_INTEGRATION_RESIDENT_MEMORY_H_

#include <sys/types.h>

#include <string>

#include "integration/process_scan.h"

namespace bravebot::testing {

// The value of `field` (such as "VmRSS:") in process `pid`'s status, in KiB;
// -1 when it cannot be read.
inline long StatusKib(pid_t pid, const std::string& field) {
  const std::string status = ReadProcFile("/proc/" + std::to_string(pid) + "/status");
  const auto at = status.find(field);
  return at == std::string::npos ? -1L : std::stol(status.substr(at + field.size()));
}

// What it holds now, and the most it has held since it started.
inline long ResidentKib(pid_t pid) { return StatusKib(pid, "VmRSS:"); }
inline long PeakResidentKib(pid_t pid) { return StatusKib(pid, "VmHWM:"); }

}  // namespace bravebot::testing

// Under AddressSanitizer (the clang build of CI) freed memory is held in a
// quarantine of up to 256 MiB, so a resident size says nothing of what the
// supervisor holds: the memory checks are made by the other builds.
#if defined(__SANITIZE_ADDRESS__)
#define BRAVEBOT_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BRAVEBOT_ADDRESS_SANITIZER 1
#endif
#endif
#ifdef BRAVEBOT_ADDRESS_SANITIZER
#define SKIP_WHERE_RESIDENT_SIZE_SAYS_NOTHING()                                       \
  GTEST_SKIP() << "built with AddressSanitizer, whose quarantine keeps freed memory " \
                  "resident: the memory bound is checked by the build without it"
#else
#define SKIP_WHERE_RESIDENT_SIZE_SAYS_NOTHING() (void)0
#endif

#endif  // BRAVEBOT_INTEGRATION_RESIDENT_MEMORY_H_
