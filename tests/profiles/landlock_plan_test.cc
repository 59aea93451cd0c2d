#include "profiles/landlock_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "profiles/landlock_abi.h"
#include "tests/profiles/testing/golden_file.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
namespace ll = landlock;

Reach SampleReach() {
  Reach reach;
  reach.paths = {
      {"/home/u/.bravebot/mcp-home/abc", PathAccess::kReadWriteExecute, false, "its private home"},
      {"/usr", PathAccess::kReadExecute, false, "system programs and libraries"},
      {"/etc/passwd", PathAccess::kRead, true, "system configuration"},
      {"/etc/ssl", PathAccess::kRead, false, "system configuration"},
      {"/dev/null", PathAccess::kReadWrite, true, "a device every program may use"},
      {"/home/u/.nvm/versions/node/v20/bin/node", PathAccess::kReadExecute, true, "program"},
  };
  return reach;
}

const LandlockRule& RuleFor(const LandlockPlan& plan, const std::string& path) {
  for (const LandlockRule& rule : plan.rules) {
    if (rule.path == path) return rule;
  }
  static const LandlockRule kNone{"", 0, false};
  ADD_FAILURE() << "no rule for " << path;
  return kNone;
}

TEST(LandlockPlanTest, EveryAbiHandlesEveryRightItKnows) {
  const uint64_t abi1 = ll::kExecute | ll::kWriteFile | ll::kReadFile | ll::kReadDir |
                        ll::kRemoveDir | ll::kRemoveFile | ll::kMakeChar | ll::kMakeDir |
                        ll::kMakeReg | ll::kMakeSock | ll::kMakeFifo | ll::kMakeBlock |
                        ll::kMakeSym;
  const uint64_t expected[10] = {
      0,
      abi1,
      abi1 | ll::kRefer,
      abi1 | ll::kRefer | ll::kTruncate,
      abi1 | ll::kRefer | ll::kTruncate,
      abi1 | ll::kRefer | ll::kTruncate | ll::kIoctlDev,
      abi1 | ll::kRefer | ll::kTruncate | ll::kIoctlDev,
      abi1 | ll::kRefer | ll::kTruncate | ll::kIoctlDev,
      abi1 | ll::kRefer | ll::kTruncate | ll::kIoctlDev,
      abi1 | ll::kRefer | ll::kTruncate | ll::kIoctlDev | ll::kResolveUnix};
  for (int abi = 0; abi <= 9; ++abi) {
    LandlockPlan plan = PlanLandlock(SampleReach(), abi);
    EXPECT_EQ(plan.abi, abi);
    EXPECT_EQ(plan.handled_access_fs, expected[abi]) << "ABI " << abi;
    EXPECT_EQ(plan.scoped, abi >= 6 ? ll::kScopeAbstractUnixSocket | ll::kScopeSignal : 0u)
        << "ABI " << abi;
    for (const LandlockRule& rule : plan.rules) {
      EXPECT_EQ(rule.allowed_access & ~plan.handled_access_fs, 0u) << rule.path << " ABI " << abi;
    }
  }
  EXPECT_EQ(ll::kResolveUnix, 1ULL << 16);
}

TEST(LandlockPlanTest, BindingATcpPortIsHandledFromAbi4AndConnectingNever) {
  EXPECT_EQ(ll::kNetBindTcp, 1ULL << 0);
  EXPECT_EQ(ll::kNetConnectTcp, 1ULL << 1);
  for (int abi = 0; abi <= 9; ++abi) {
    LandlockPlan plan = PlanLandlock(SampleReach(), abi);
    EXPECT_EQ(plan.handled_access_net, abi >= 4 ? ll::kNetBindTcp : 0u) << "ABI " << abi;
    EXPECT_EQ(plan.handled_access_net & ll::kNetConnectTcp, 0u) << "ABI " << abi;
  }
}

TEST(LandlockPlanTest, ANewerKernelIsUsedAsTheNewestKnownAbiAndSaidAsItIs) {
  LandlockPlan plan = PlanLandlock(SampleReach(), 12);
  EXPECT_EQ(plan.abi, 9);
  EXPECT_EQ(plan.kernel_abi, 12);
  EXPECT_EQ(plan.handled_access_fs, ll::FilesystemRightsOf(9));
  EXPECT_THAT(plan.unkept_promises, IsEmpty());
  EXPECT_EQ(LandlockAbiWords(plan),
            "Landlock ABI 9 (this kernel has ABI 12, whose newer rights bravebot-mcp leaves "
            "unhandled)");
  LandlockPlan known = PlanLandlock(SampleReach(), 7);
  EXPECT_EQ(known.kernel_abi, 7);
  EXPECT_EQ(LandlockAbiWords(known), "Landlock ABI 7");
  EXPECT_EQ(PlanLandlock(SampleReach(), 0).kernel_abi, 0);
}

TEST(LandlockPlanTest, OnlyWritableDirectoriesMayConnectToSocketsAtAbi9) {
  LandlockPlan plan = PlanLandlock(SampleReach(), 9);
  EXPECT_EQ(RuleFor(plan, "/home/u/.bravebot/mcp-home/abc").allowed_access,
            ll::FilesystemRightsOf(9));
  EXPECT_NE(RuleFor(plan, "/home/u/.bravebot/mcp-home/abc").allowed_access & ll::kResolveUnix, 0u);
  for (const char* path : {"/usr", "/etc/passwd", "/etc/ssl", "/dev/null"}) {
    EXPECT_EQ(RuleFor(plan, path).allowed_access & ll::kResolveUnix, 0u) << path;
  }
}

TEST(LandlockPlanTest, RightsFollowTheAccessOfEachPath) {
  LandlockPlan plan = PlanLandlock(SampleReach(), 7);
  EXPECT_EQ(RuleFor(plan, "/usr").allowed_access, ll::kReadFile | ll::kReadDir | ll::kExecute);
  EXPECT_EQ(RuleFor(plan, "/etc/ssl").allowed_access, ll::kReadFile | ll::kReadDir);
  EXPECT_EQ(RuleFor(plan, "/etc/passwd").allowed_access, ll::kReadFile);
  EXPECT_EQ(RuleFor(plan, "/dev/null").allowed_access,
            ll::kReadFile | ll::kWriteFile | ll::kTruncate | ll::kIoctlDev);
  EXPECT_EQ(RuleFor(plan, "/home/u/.nvm/versions/node/v20/bin/node").allowed_access,
            ll::kReadFile | ll::kExecute);
}

TEST(LandlockPlanTest, FileRulesCarryFileRightsOnly) {
  for (int abi = 1; abi <= 9; ++abi) {
    for (const LandlockRule& rule : PlanLandlock(SampleReach(), abi).rules) {
      if (rule.is_file) {
        EXPECT_EQ(rule.allowed_access & ~ll::kFileRights, 0u) << rule.path << " ABI " << abi;
      }
    }
  }
}

TEST(LandlockPlanTest, UnkeptPromisesAreSaidInWords) {
  EXPECT_THAT(PlanLandlock(SampleReach(), 7).unkept_promises,
              ElementsAre("every local socket is reachable: this kernel has Landlock ABI 7, and "
                          "ABI 9 is needed"));
  EXPECT_THAT(PlanLandlock(SampleReach(), 4).unkept_promises,
              ElementsAre(HasSubstr("abstract sockets and signals"), HasSubstr("ABI 9 is needed")));
  EXPECT_THAT(PlanLandlock(SampleReach(), 3).unkept_promises,
              ElementsAre("it can listen on a TCP port: this kernel has Landlock ABI 3, and ABI 4 "
                          "is needed",
                          HasSubstr("abstract sockets and signals"), HasSubstr("ABI 9 is needed")));
  std::vector<std::string> abi2 = PlanLandlock(SampleReach(), 2).unkept_promises;
  ASSERT_EQ(abi2.size(), 4u);
  EXPECT_THAT(abi2[0], HasSubstr("truncate"));
  EXPECT_THAT(abi2[1], HasSubstr("listen on a TCP port"));
  EXPECT_THAT(abi2[2], HasSubstr("abstract sockets and signals"));
  EXPECT_THAT(abi2[3], HasSubstr("ABI 9 is needed"));
  LandlockPlan none = PlanLandlock(SampleReach(), 0);
  EXPECT_THAT(none.rules, IsEmpty());
  EXPECT_THAT(none.unkept_promises, ElementsAre(HasSubstr("no Landlock")));
}

// A plan as text: every number it holds, each rule, each promise unkept.
std::string PlanText(const LandlockPlan& plan) {
  char line[160];
  std::snprintf(line, sizeof(line), "ABI %d: fs %#llx, net %#llx, scoped %#llx\n", plan.abi,
                static_cast<unsigned long long>(plan.handled_access_fs),
                static_cast<unsigned long long>(plan.handled_access_net),
                static_cast<unsigned long long>(plan.scoped));
  std::string text = line;
  for (const LandlockRule& rule : plan.rules) {
    std::snprintf(line, sizeof(line), "  %#llx %s ",
                  static_cast<unsigned long long>(rule.allowed_access),
                  rule.is_file ? "file" : "dir ");
    text += line + rule.path + "\n";
  }
  for (const std::string& promise : plan.unkept_promises) text += "  unkept: " + promise + "\n";
  return text;
}

// The whole ruleset, for every ABI from none to the newest: pinned, so that
// no right moves without the golden file showing it.
TEST(LandlockPlanTest, TheRulesetOfEveryAbiIsPinned) {
  std::string plans;
  for (int abi = 0; abi <= 9; ++abi) plans += PlanText(PlanLandlock(SampleReach(), abi));
  testing::ExpectGolden("landlock_plans.txt", plans);
}

}  // namespace
}  // namespace bravebot
