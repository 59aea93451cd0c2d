#include "supervisor/servers/backend_choice.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;

const BubblewrapProgram kUsable{true, "bubblewrap 0.8.0", ""};
const BubblewrapProgram kMissing{false, "", "/usr/bin/bwrap is not there"};

// A probe of bwrap that counts how often it was asked.
struct Probe {
  const BubblewrapProgram& program;
  int asked = 0;
  std::function<const BubblewrapProgram&()> Function() {
    return [this]() -> const BubblewrapProgram& {
      ++asked;
      return program;
    };
  }
};

TEST(BackendChoiceTest, UnsetTakesLandlockWhereTheKernelHasItWithoutAskingBwrap) {
  Probe probe{kUsable};
  EXPECT_EQ(ChooseBackend(nullptr, 7, probe.Function()).backend, Backend::kLandlock);
  EXPECT_EQ(ChooseBackend("", 1, probe.Function()).backend, Backend::kLandlock);
  EXPECT_EQ(probe.asked, 0);
}

TEST(BackendChoiceTest, UnsetFallsBackToBubblewrapWithoutLandlock) {
  Probe probe{kUsable};
  EXPECT_EQ(ChooseBackend(nullptr, 0, probe.Function()).backend, Backend::kBubblewrap);
}

TEST(BackendChoiceTest, WithNeitherNothingIsStartedAndBothReasonsAreSaid) {
  Probe probe{kMissing};
  BackendChoice choice = ChooseBackend(nullptr, 0, probe.Function());
  EXPECT_EQ(choice.backend, Backend::kNone);
  EXPECT_THAT(choice.why_none, HasSubstr("no Landlock"));
  EXPECT_THAT(choice.why_none, HasSubstr("/usr/bin/bwrap is not there"));
}

TEST(BackendChoiceTest, AskingForOneGetsItOrNothing) {
  Probe usable{kUsable};
  Probe missing{kMissing};
  EXPECT_EQ(ChooseBackend("bubblewrap", 7, usable.Function()).backend, Backend::kBubblewrap);
  EXPECT_EQ(ChooseBackend("landlock", 7, usable.Function()).backend, Backend::kLandlock);
  BackendChoice no_bwrap = ChooseBackend("bubblewrap", 7, missing.Function());
  EXPECT_EQ(no_bwrap.backend, Backend::kNone);
  EXPECT_THAT(no_bwrap.why_none, HasSubstr("BRAVEBOT_BACKEND=bubblewrap"));
  BackendChoice no_landlock = ChooseBackend("landlock", 0, usable.Function());
  EXPECT_EQ(no_landlock.backend, Backend::kNone);
  EXPECT_THAT(no_landlock.why_none, HasSubstr("this kernel has none"));
}

TEST(BackendChoiceTest, AnyOtherValueIsRefusedNamingTheValues) {
  Probe probe{kUsable};
  BackendChoice choice = ChooseBackend("Bubblewrap", 7, probe.Function());
  EXPECT_EQ(choice.backend, Backend::kNone);
  EXPECT_THAT(choice.why_none, HasSubstr("BRAVEBOT_BACKEND is \"Bubblewrap\""));
  EXPECT_THAT(choice.why_none, HasSubstr("landlock or bubblewrap"));
}

}  // namespace
}  // namespace bravebot
