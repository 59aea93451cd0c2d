#include "profiles/bubblewrap_version.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(BubblewrapVersionTest, TheOldestItRunsAndNewerOnesAreEnough) {
  EXPECT_THAT(BubblewrapVersionProblem("bubblewrap 0.8.0\n"), IsEmpty());
  EXPECT_THAT(BubblewrapVersionProblem("bubblewrap 0.11.0\n"), IsEmpty());
  EXPECT_THAT(BubblewrapVersionProblem("bubblewrap 1.0"), IsEmpty());
  EXPECT_THAT(BubblewrapVersionProblem("bubblewrap 0.8.1-rc1\n"), IsEmpty());
}

TEST(BubblewrapVersionTest, AnOlderOneIsRefusedSayingWhatIsNeeded) {
  EXPECT_EQ(BubblewrapVersionProblem("bubblewrap 0.7.0\n"),
            "it is 0.7.0, and 0.8.0 or later is needed");
  EXPECT_THAT(BubblewrapVersionProblem("bubblewrap 0.4.1\n"), HasSubstr("0.8.0 or later"));
}

TEST(BubblewrapVersionTest, WhatNamesNoVersionIsRefused) {
  EXPECT_THAT(BubblewrapVersionProblem(""), HasSubstr("names no bubblewrap version"));
  EXPECT_THAT(BubblewrapVersionProblem("bwrap 0.8.0"), HasSubstr("names no bubblewrap version"));
  EXPECT_THAT(BubblewrapVersionProblem("bubblewrap x.y"), HasSubstr("names no bubblewrap version"));
  // What it said is shown without a byte that could steer a terminal.
  EXPECT_THAT(BubblewrapVersionProblem("\x1b[2Jbubblewrap"), HasSubstr("?[2Jbubblewrap"));
}

}  // namespace
}  // namespace bravebot
