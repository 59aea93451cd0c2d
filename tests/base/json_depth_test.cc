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

// An object of `members` members "k0":0, "k1":0, ...
std::string Wide(std::size_t members) {
  std::string text = "{";
  for (std::size_t i = 0; i < members; ++i) {
    text += (i == 0 ? "\"k" : ",\"k") + std::to_string(i) + "\":0";
  }
  return text + "}";
}

TEST(JsonWidthTest, CountsTheMembersOfEachObject) {
  EXPECT_FALSE(HasObjectWiderThan(Wide(kMaxJsonObjectMembers)));
  EXPECT_TRUE(HasObjectWiderThan(Wide(kMaxJsonObjectMembers + 1)));
  EXPECT_FALSE(HasObjectWiderThan("{}", 0));
  EXPECT_TRUE(HasObjectWiderThan(R"({"a":1})", 0));
  EXPECT_FALSE(HasObjectWiderThan(R"({"a":1,"b":2})", 2));
  EXPECT_TRUE(HasObjectWiderThan(R"({"a":1,"b":2,"c":3})", 2));
  // Each object counts alone, nested or side by side.
  EXPECT_FALSE(HasObjectWiderThan(R"([{"a":1,"b":2},{"a":1,"b":2}])", 2));
  EXPECT_FALSE(HasObjectWiderThan(R"({"a":{"x":1,"y":2},"b":2})", 2));
  EXPECT_TRUE(HasObjectWiderThan(R"({"a":{"x":1,"y":2,"z":3},"b":2})", 2));
}

TEST(JsonWidthTest, ArraysAndStringsDoNotCount) {
  EXPECT_FALSE(HasObjectWiderThan("[" + std::string(10'000, '1') + "]", 2));
  std::string commas(10'000, ',');
  EXPECT_FALSE(HasObjectWiderThan(R"({"a":")" + commas + R"("})", 2));
  EXPECT_FALSE(HasObjectWiderThan(R"({"a":[1,2,3,4],"b":2})", 2));
  // An escaped quote keeps the commas after it in the string.
  EXPECT_FALSE(HasObjectWiderThan(R"({"a":"\",,,,"})", 2));
}

TEST(JsonWidthTest, AnArrayAtTheTopIsCountedByItsElements) {
  EXPECT_FALSE(IsArrayWiderThan("[1,2,3]", 3));
  EXPECT_TRUE(IsArrayWiderThan("  [1,2,3,4]", 3));
  EXPECT_FALSE(IsArrayWiderThan("[]", 3));
  // Only the outermost array's elements count, and commas in strings none.
  EXPECT_FALSE(IsArrayWiderThan(R"([[1,2,3,4,5],{"a":1,"b":2,"c":3},"a,b,c,d"])", 3));
  EXPECT_FALSE(IsArrayWiderThan(R"({"a":[1,2,3,4,5]})", 3));
  EXPECT_FALSE(IsArrayWiderThan(R"([1,2]],3,4,5)", 3));
}

}  // namespace
}  // namespace bravebot
