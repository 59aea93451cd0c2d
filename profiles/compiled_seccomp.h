// The seccomp filters of profiles/seccomp_filter.h, compiled by libseccomp
// when bravebot-mcp is built (profiles/seccomp_compile_main.cc), not when a
// server starts: compiling one took a first start about 0.3 ms, on a thread
// of its own that the start waited for, and loading libseccomp more.
//
//   const Result<SeccompProgram>& filter = CompiledSeccompProgram({true});
//   if (!filter) return filter.error();
#ifndef BRAVEBOT_PROFILES_COMPILED_SECCOMP_H_
#define BRAVEBOT_PROFILES_COMPILED_SECCOMP_H_

#include "base/result.h"
#include "profiles/seccomp_filter.h"

namespace bravebot {

// The filter for `choices`, as BuildSeccompProgram(choices) made it at build
// time, or the reason it could not be made (the same for every start).
const Result<SeccompProgram>& CompiledSeccompProgram(const SeccompChoices& choices);

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_COMPILED_SECCOMP_H_
