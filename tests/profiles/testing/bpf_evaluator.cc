#include "tests/profiles/testing/bpf_evaluator.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <string>

namespace bravebot::testing {
namespace {

std::string Hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%x", value);
  return text;
}

Error Broken(size_t pc, const struct sock_filter& instruction, const std::string& what) {
  return Error(ErrorCode::kCorrupt, "BPF instruction " + std::to_string(pc) + " (code " +
                                        Hex(instruction.code) + ", k " + Hex(instruction.k) +
                                        "): " + what);
}

}  // namespace

Result<uint32_t> EvaluateSeccompProgram(std::span<const struct sock_filter> program,
                                        const struct seccomp_data& call) {
  if (program.empty() || program.size() > BPF_MAXINSNS) {
    return Error(ErrorCode::kCorrupt, "a BPF program has 1 to " + std::to_string(BPF_MAXINSNS) +
                                          " instructions, not " + std::to_string(program.size()));
  }
  unsigned char data[sizeof(struct seccomp_data)];
  std::memcpy(data, &call, sizeof(data));
  uint32_t a = 0;
  uint32_t x = 0;
  std::array<uint32_t, BPF_MEMWORDS> memory{};

  // Every jump goes forward, so the walk ends.
  size_t pc = 0;
  while (true) {
    const struct sock_filter& instruction = program[pc];
    const uint32_t k = instruction.k;
    uint64_t skip = 0;
    switch (instruction.code) {
      case BPF_LD | BPF_W | BPF_ABS:
        // The kernel's seccomp checker allows aligned words inside seccomp_data only.
        if (k % 4 != 0 || k > sizeof(data) - 4) return Broken(pc, instruction, "load outside");
        std::memcpy(&a, data + k, sizeof(a));
        break;
      case BPF_LD | BPF_W | BPF_LEN:
        a = sizeof(data);
        break;
      case BPF_LDX | BPF_W | BPF_LEN:
        x = sizeof(data);
        break;
      case BPF_LD | BPF_IMM:
        a = k;
        break;
      case BPF_LDX | BPF_IMM:
        x = k;
        break;
      case BPF_LD | BPF_MEM:
        if (k >= BPF_MEMWORDS) return Broken(pc, instruction, "no such scratch word");
        a = memory[k];
        break;
      case BPF_LDX | BPF_MEM:
        if (k >= BPF_MEMWORDS) return Broken(pc, instruction, "no such scratch word");
        x = memory[k];
        break;
      case BPF_ST:
        if (k >= BPF_MEMWORDS) return Broken(pc, instruction, "no such scratch word");
        memory[k] = a;
        break;
      case BPF_STX:
        if (k >= BPF_MEMWORDS) return Broken(pc, instruction, "no such scratch word");
        memory[k] = x;
        break;
      case BPF_ALU | BPF_AND | BPF_K:
        a &= k;
        break;
      case BPF_ALU | BPF_AND | BPF_X:
        a &= x;
        break;
      case BPF_ALU | BPF_OR | BPF_K:
        a |= k;
        break;
      case BPF_ALU | BPF_OR | BPF_X:
        a |= x;
        break;
      case BPF_JMP | BPF_JA:
        skip = k;
        break;
      case BPF_JMP | BPF_JEQ | BPF_K:
        skip = a == k ? instruction.jt : instruction.jf;
        break;
      case BPF_JMP | BPF_JEQ | BPF_X:
        skip = a == x ? instruction.jt : instruction.jf;
        break;
      case BPF_JMP | BPF_JGT | BPF_K:
        skip = a > k ? instruction.jt : instruction.jf;
        break;
      case BPF_JMP | BPF_JGT | BPF_X:
        skip = a > x ? instruction.jt : instruction.jf;
        break;
      case BPF_JMP | BPF_JGE | BPF_K:
        skip = a >= k ? instruction.jt : instruction.jf;
        break;
      case BPF_JMP | BPF_JGE | BPF_X:
        skip = a >= x ? instruction.jt : instruction.jf;
        break;
      case BPF_JMP | BPF_JSET | BPF_K:
        skip = (a & k) != 0 ? instruction.jt : instruction.jf;
        break;
      case BPF_JMP | BPF_JSET | BPF_X:
        skip = (a & x) != 0 ? instruction.jt : instruction.jf;
        break;
      case BPF_MISC | BPF_TAX:
        x = a;
        break;
      case BPF_MISC | BPF_TXA:
        a = x;
        break;
      case BPF_RET | BPF_K:
        return k;
      case BPF_RET | BPF_A:
        return a;
      default:
        return Broken(pc, instruction, "an opcode this evaluator does not know");
    }
    const uint64_t next = pc + 1 + skip;
    if (next >= program.size()) {
      return Broken(pc, instruction, "leaves the program without returning");
    }
    pc = static_cast<size_t>(next);
  }
}

}  // namespace bravebot::testing
