#include "profiles/compiled_seccomp.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

bool Same(const SeccompProgram& one, const SeccompProgram& other) {
  if (one.instructions.size() != other.instructions.size()) return false;
  for (size_t at = 0; at < one.instructions.size(); ++at) {
    const struct sock_filter& a = one.instructions[at];
    const struct sock_filter& b = other.instructions[at];
    if (a.code != b.code || a.jt != b.jt || a.jf != b.jf || a.k != b.k) return false;
  }
  return true;
}

// What the build compiled is what libseccomp compiles now, for every choice.
TEST(CompiledSeccompTest, EveryFilterIsTheOneLibseccompMakes) {
  for (bool own_ipc : {true, false}) {
    for (bool death_signal : {false, true}) {
      const SeccompChoices choices{own_ipc, death_signal};
      Result<SeccompProgram> built = BuildSeccompProgram(choices);
      const Result<SeccompProgram>& compiled = CompiledSeccompProgram(choices);
      ASSERT_TRUE(built) << built.error().message();
      ASSERT_TRUE(compiled) << compiled.error().message();
      EXPECT_GT(compiled->instructions.size(), 20u);
      EXPECT_TRUE(Same(*compiled, *built))
          << "own IPC namespace " << own_ipc << ", keeps its death signal " << death_signal;
    }
  }
}

TEST(CompiledSeccompTest, TheChoicesGiveFiltersOfTheirOwn) {
  EXPECT_FALSE(
      Same(*CompiledSeccompProgram({true, false}), *CompiledSeccompProgram({false, false})));
  EXPECT_FALSE(Same(*CompiledSeccompProgram({true, false}), *CompiledSeccompProgram({true, true})));
  // Each is made once: the same program every time.
  EXPECT_EQ(&CompiledSeccompProgram({true, false}), &CompiledSeccompProgram({true, false}));
}

}  // namespace
}  // namespace bravebot
