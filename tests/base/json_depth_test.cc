#include "base/json_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace bravebot {
namespace {

std::string Nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonDepthTest, CountsArraysAndObjectsInsideOneAnother) {
  EXPECT_FALSE(NestsDeeperThan("{}", 1));
  EXPECT_TRUE(NestsDeeperThan("[{}]", 1));
  EXPECT_FALSE(NestsDeeperThan(R"({"a": [1, 2], "b": {"c": 3}})", 2));
  EXPECT_TRUE(NestsDeeperThan(R"({"a": [1, 2], "b": {"c": [3]}})", 2));
  EXPECT_FALSE(NestsDeeperThan("[] [] [] []", 1));  // side by side, not inside
}

TEST(JsonDepthTest, AllowsExactly128Levels) {
  EXPECT_FALSE(NestsDeeperThan(Nested(kMaxJsonDepth)));
  EXPECT_TRUE(NestsDeeperThan(Nested(kMaxJsonDepth + 1)));
  EXPECT_TRUE(NestsDeeperThan(Nested(100'000, '{', '}')));
}

TEST(JsonDepthTest, IgnoresBracketsInStrings) {
  const std::string brackets(1000, '[');
  EXPECT_FALSE(NestsDeeperThan("[\"" + brackets + "\"]", 1));
  // An escaped quote does not end the string; an escaped backslash does not
  // escape the quote after it.
  EXPECT_FALSE(NestsDeeperThan("[\"\\\"" + brackets + "\"]", 1));
  EXPECT_TRUE(NestsDeeperThan("[\"\\\\\"" + brackets + "\"]", 1));
}

TEST(JsonDepthTest, CountsWhatIsOpenEvenWhenItNeverCloses) {
  EXPECT_TRUE(NestsDeeperThan(std::string(200, '['), kMaxJsonDepth));
  EXPECT_FALSE(NestsDeeperThan("]]]]]]" + Nested(3), 3));  // stray closers do not go below zero
}

}  // namespace
}  // namespace bravebot
