// A classic-BPF interpreter for seccomp programs, so tests can ask what a
// filter answers for a call without installing it. It runs the program as the
// kernel would over one `struct seccomp_data` and returns the 32-bit action
// (SECCOMP_RET_ERRNO | EPERM, SECCOMP_RET_ALLOW, ...). An instruction it does
// not know, a load outside seccomp_data, a jump past the end, or a program
// that ends without returning is an Error, never skipped.
//
//   seccomp_data call = {.nr = __NR_ptrace, .arch = AUDIT_ARCH_X86_64};
//   Result<uint32_t> action = EvaluateSeccompProgram(program->instructions, call);
//   EXPECT_EQ(*action, SECCOMP_RET_ERRNO | EPERM);
#ifndef BRAVEBOT_TESTS_PROFILES_TESTING_BPF_EVALUATOR_H_
#define BRAVEBOT_TESTS_PROFILES_TESTING_BPF_EVALUATOR_H_

#include <linux/filter.h>
#include <linux/seccomp.h>

#include <cstdint>
#include <span>

#include "base/result.h"

namespace bravebot::testing {

// Knows the loads (absolute words of seccomp_data, its length, immediates, the
// scratch memory), the stores, ALU AND and OR, the jumps (JA; JEQ, JGT, JGE
// and JSET against K or X), TAX and TXA, and RET of K or A.
Result<uint32_t> EvaluateSeccompProgram(std::span<const struct sock_filter> program,
                                        const struct seccomp_data& call);

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_PROFILES_TESTING_BPF_EVALUATOR_H_
