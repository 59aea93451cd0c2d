#include "confine/paths.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

TEST(PathsTest, AbsolutePathNormalizes) {
  EXPECT_EQ(AbsolutePath("a/b", "/home/u"), "/home/u/a/b");
  EXPECT_EQ(AbsolutePath("/a//b/./c/", "/x"), "/a/b/c");
  EXPECT_EQ(AbsolutePath("../c", "/a/b"), "/a/c");
  EXPECT_EQ(AbsolutePath("../../../..", "/a"), "/");
  EXPECT_EQ(AbsolutePath(".", "/"), "/");
}

TEST(PathsTest, SameOrBeneathComparesWholeComponents) {
  EXPECT_TRUE(IsSameOrBeneath("/home/u", "/home/u"));
  EXPECT_TRUE(IsSameOrBeneath("/home/u/x", "/home/u"));
  EXPECT_FALSE(IsSameOrBeneath("/home/user", "/home/u"));
  EXPECT_TRUE(IsSameOrBeneath("/anything", "/"));
}

TEST(PathsTest, ParentAndJoin) {
  EXPECT_EQ(ParentPath("/a/b"), "/a");
  EXPECT_EQ(ParentPath("/a"), "/");
  EXPECT_EQ(ParentPath("/"), "/");
  EXPECT_EQ(JoinPath("/a", "b"), "/a/b");
  EXPECT_EQ(JoinPath("/", "b"), "/b");
  EXPECT_EQ(JoinPath("/a/", "/b"), "/a/b");
}

TEST(PathsTest, ComponentsLeaveOutEmptyOnesAndDotButKeepDotDot) {
  EXPECT_EQ(PathComponents("/a//./b/../c/"), (std::vector<std::string>{"a", "b", "..", "c"}));
  EXPECT_TRUE(PathComponents("/").empty());
  EXPECT_EQ(PathComponents("rel"), std::vector<std::string>{"rel"});
}

}  // namespace
}  // namespace bravebot
