#include "cli/closest_word.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

const std::vector<std::string> kCommands = {"add",    "approve", "disable", "doctor", "enable",
                                            "forget", "get",     "list",    "reach",  "remove"};

TEST(ClosestWordTest, AMistypedCommandIsTheOneItIsClosestTo) {
  EXPECT_EQ(ClosestWord("lst", kCommands), "list");
  EXPECT_EQ(ClosestWord("lsit", kCommands), "list");  // two neighbours swapped is one edit
  EXPECT_EQ(ClosestWord("enabel", kCommands), "enable");
  EXPECT_EQ(ClosestWord("remvoe", kCommands), "remove");
  EXPECT_EQ(ClosestWord("doctr", kCommands), "doctor");
  EXPECT_EQ(ClosestWord("approv", kCommands), "approve");
}

TEST(ClosestWordTest, AWordLikeNoneIsNotGuessedAt) {
  EXPECT_EQ(ClosestWord("install", kCommands), std::nullopt);
  EXPECT_EQ(ClosestWord("sk-live-0123456789", kCommands), std::nullopt);
  // Two letters are two edits from any three-letter command: no guess.
  EXPECT_EQ(ClosestWord("xy", kCommands), std::nullopt);
  EXPECT_EQ(ClosestWord("", kCommands), std::nullopt);
}

}  // namespace
}  // namespace bravebot
