#include "tests/profiles/testing/bpf_evaluator.h"

#include <gtest/gtest.h>
#include <linux/audit.h>

#include <cstddef>
#include <vector>

namespace bravebot::testing {
namespace {

using Program = std::vector<struct sock_filter>;

struct sock_filter Statement(uint16_t code, uint32_t k) {
  return BPF_STMT(code, k);
}
struct sock_filter Jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) {
  return BPF_JUMP(code, k, jt, jf);
}

struct seccomp_data Call(int nr, uint64_t first_argument = 0) {
  struct seccomp_data call = {};
  call.nr = nr;
  call.arch = AUDIT_ARCH_X86_64;
  call.args[0] = first_argument;
  return call;
}

// The action, or a failure of the test with the evaluator's reason.
uint32_t Evaluate(const Program& program, const struct seccomp_data& call) {
  Result<uint32_t> action = EvaluateSeccompProgram(program, call);
  if (!action) {
    ADD_FAILURE() << action.error().message();
    return 0xdeadbeef;
  }
  return *action;
}

TEST(SeccompBpfEvaluatorTest, ReturnsTheConstantOrTheAccumulator) {
  EXPECT_EQ(Evaluate({Statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)}, Call(0)), SECCOMP_RET_ALLOW);
  EXPECT_EQ(Evaluate({Statement(BPF_LD | BPF_IMM, 7), Statement(BPF_RET | BPF_A, 0)}, Call(0)), 7u);
}

TEST(SeccompBpfEvaluatorTest, LoadsTheWordsOfSeccompData) {
  auto returns_word_at = [](uint32_t offset) {
    return Program{Statement(BPF_LD | BPF_W | BPF_ABS, offset), Statement(BPF_RET | BPF_A, 0)};
  };
  struct seccomp_data call = Call(42, 0x1122334455667788);
  call.instruction_pointer = 0xaabbccdd00000000;
  call.args[5] = 0x99;
  EXPECT_EQ(Evaluate(returns_word_at(offsetof(struct seccomp_data, nr)), call), 42u);
  EXPECT_EQ(Evaluate(returns_word_at(offsetof(struct seccomp_data, arch)), call),
            AUDIT_ARCH_X86_64);
  EXPECT_EQ(Evaluate(returns_word_at(offsetof(struct seccomp_data, instruction_pointer) + 4), call),
            0xaabbccddu);
  // x86_64 is little-endian: the low half of an argument comes first.
  EXPECT_EQ(Evaluate(returns_word_at(offsetof(struct seccomp_data, args)), call), 0x55667788u);
  EXPECT_EQ(Evaluate(returns_word_at(offsetof(struct seccomp_data, args) + 4), call), 0x11223344u);
  EXPECT_EQ(Evaluate(returns_word_at(offsetof(struct seccomp_data, args) + 40), call), 0x99u);
  EXPECT_EQ(Evaluate({Statement(BPF_LD | BPF_W | BPF_LEN, 0), Statement(BPF_RET | BPF_A, 0)}, call),
            sizeof(struct seccomp_data));
}

TEST(SeccompBpfEvaluatorTest, AndsAndOrs) {
  EXPECT_EQ(Evaluate({Statement(BPF_LD | BPF_IMM, 0xf0), Statement(BPF_ALU | BPF_AND | BPF_K, 0x3c),
                      Statement(BPF_ALU | BPF_OR | BPF_K, 0x1), Statement(BPF_RET | BPF_A, 0)},
                     Call(0)),
            0x31u);
  EXPECT_EQ(Evaluate({Statement(BPF_LDX | BPF_IMM, 0x0f), Statement(BPF_LD | BPF_IMM, 0xff),
                      Statement(BPF_ALU | BPF_AND | BPF_X, 0), Statement(BPF_LDX | BPF_IMM, 0x100),
                      Statement(BPF_ALU | BPF_OR | BPF_X, 0), Statement(BPF_RET | BPF_A, 0)},
                     Call(0)),
            0x10fu);
}

TEST(SeccompBpfEvaluatorTest, TakesEachKindOfJump) {
  // Loads nr, compares it with 10, and returns 1 when true, 2 when false.
  auto compares = [](uint16_t jump) {
    return Program{Statement(BPF_LD | BPF_W | BPF_ABS, 0), Jump(BPF_JMP | jump | BPF_K, 10, 0, 1),
                   Statement(BPF_RET | BPF_K, 1), Statement(BPF_RET | BPF_K, 2)};
  };
  EXPECT_EQ(Evaluate(compares(BPF_JEQ), Call(10)), 1u);
  EXPECT_EQ(Evaluate(compares(BPF_JEQ), Call(11)), 2u);
  EXPECT_EQ(Evaluate(compares(BPF_JGT), Call(11)), 1u);
  EXPECT_EQ(Evaluate(compares(BPF_JGT), Call(10)), 2u);
  EXPECT_EQ(Evaluate(compares(BPF_JGE), Call(10)), 1u);
  EXPECT_EQ(Evaluate(compares(BPF_JGE), Call(9)), 2u);
  EXPECT_EQ(Evaluate(compares(BPF_JSET), Call(2)), 1u);  // 2 & 10
  EXPECT_EQ(Evaluate(compares(BPF_JSET), Call(5)), 2u);
  // The same against X.
  Program against_x = {Statement(BPF_LDX | BPF_IMM, 10), Statement(BPF_LD | BPF_W | BPF_ABS, 0),
                       Jump(BPF_JMP | BPF_JGE | BPF_X, 0, 0, 1), Statement(BPF_RET | BPF_K, 1),
                       Statement(BPF_RET | BPF_K, 2)};
  EXPECT_EQ(Evaluate(against_x, Call(12)), 1u);
  EXPECT_EQ(Evaluate(against_x, Call(3)), 2u);
  EXPECT_EQ(Evaluate({Statement(BPF_JMP | BPF_JA, 1), Statement(BPF_RET | BPF_K, 1),
                      Statement(BPF_RET | BPF_K, 2)},
                     Call(0)),
            2u);
}

TEST(SeccompBpfEvaluatorTest, KeepsScratchMemoryAndMovesBetweenRegisters) {
  EXPECT_EQ(Evaluate({Statement(BPF_LD | BPF_IMM, 5), Statement(BPF_ST, 3),
                      Statement(BPF_LD | BPF_IMM, 0), Statement(BPF_LDX | BPF_MEM, 3),
                      Statement(BPF_MISC | BPF_TXA, 0), Statement(BPF_RET | BPF_A, 0)},
                     Call(0)),
            5u);
  EXPECT_EQ(Evaluate({Statement(BPF_LD | BPF_IMM, 6), Statement(BPF_MISC | BPF_TAX, 0),
                      Statement(BPF_STX, 15), Statement(BPF_LD | BPF_MEM, 15),
                      Statement(BPF_RET | BPF_A, 0)},
                     Call(0)),
            6u);
}

TEST(SeccompBpfEvaluatorTest, FailsOnAnOpcodeItDoesNotKnow) {
  Result<uint32_t> action = EvaluateSeccompProgram(
      Program{Statement(BPF_ALU | BPF_ADD | BPF_K, 1), Statement(BPF_RET | BPF_A, 0)}, Call(0));
  ASSERT_FALSE(action.ok());
  EXPECT_NE(action.error().message().find("does not know"), std::string::npos)
      << action.error().message();
}

TEST(SeccompBpfEvaluatorTest, FailsOnWhatTheKernelWouldReject) {
  auto fails = [](const Program& program) {
    return !EvaluateSeccompProgram(program, Call(0)).ok();
  };
  EXPECT_TRUE(fails({}));
  EXPECT_TRUE(fails({Statement(BPF_LD | BPF_W | BPF_ABS, 64), Statement(BPF_RET | BPF_A, 0)}));
  EXPECT_TRUE(fails({Statement(BPF_LD | BPF_W | BPF_ABS, 2), Statement(BPF_RET | BPF_A, 0)}));
  EXPECT_TRUE(fails({Statement(BPF_LD | BPF_MEM, BPF_MEMWORDS), Statement(BPF_RET | BPF_A, 0)}));
  EXPECT_TRUE(fails({Statement(BPF_JMP | BPF_JA, 1), Statement(BPF_RET | BPF_K, 0)}));
  EXPECT_TRUE(fails({Jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 5, 0), Statement(BPF_RET | BPF_K, 0)}));
  EXPECT_TRUE(fails({Statement(BPF_LD | BPF_IMM, 1)}));
}

}  // namespace
}  // namespace bravebot::testing
