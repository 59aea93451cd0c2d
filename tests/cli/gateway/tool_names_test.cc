#include "cli/gateway/tool_names.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace bravebot {
namespace {

const std::regex kEveryClientTakes("[A-Za-z0-9_-]{1,49}");

TEST(GatewayToolNamesTest, APlainNameIsTheAliasAndTheToolAsTheyStand) {
  auto names = GatewayToolNames({{"weather", "get_alerts"}, {"docs", "search-all"}}, {});
  EXPECT_EQ(names[(ServerTool{"weather", "get_alerts"})].name, "weather__get_alerts");
  EXPECT_FALSE(names[(ServerTool{"weather", "get_alerts"})].shortened);
  EXPECT_EQ(names[(ServerTool{"docs", "search-all"})].name, "docs__search-all");
}

TEST(GatewayToolNamesTest, ACharacterNoClientTakesBecomesAnUnderscoreAndIsSaid) {
  auto names = GatewayToolNames({{"fs", "read.file"}, {"fs", "ünïcode tool"}}, {});
  EXPECT_EQ(names[(ServerTool{"fs", "read.file"})].name, "fs__read_file");
  EXPECT_TRUE(names[(ServerTool{"fs", "read.file"})].shortened);
  EXPECT_TRUE(std::regex_match(names[(ServerTool{"fs", "ünïcode tool"})].name, kEveryClientTakes));
}

TEST(GatewayToolNamesTest, ALongNameIsCutAndKeepsAHashOfItsWholeName) {
  const ServerTool longest{"a-server-with-a-long-alias", std::string(60, 't')};
  auto names = GatewayToolNames({longest}, {});
  const std::string name = names[longest].name;
  EXPECT_EQ(name.size(), kLongestGatewayToolName);
  EXPECT_TRUE(std::regex_match(name, kEveryClientTakes)) << name;
  EXPECT_TRUE(names[longest].shortened);
  // The same in every session.
  EXPECT_EQ(GatewayToolNames({longest}, {})[longest].name, name);
  // Two tools agreeing on the part kept differ by their hashes.
  const ServerTool other{"a-server-with-a-long-alias", std::string(59, 't') + "u"};
  auto both = GatewayToolNames({longest, other}, {});
  EXPECT_NE(both[longest].name, both[other].name);
}

TEST(GatewayToolNamesTest, TwoToolsThatWouldShareANameEachGetTheirOwn) {
  auto names = GatewayToolNames({{"fs", "read.file"}, {"fs", "read_file"}}, {});
  std::set<std::string> given = {names[(ServerTool{"fs", "read.file"})].name,
                                 names[(ServerTool{"fs", "read_file"})].name};
  EXPECT_EQ(given.size(), 2u);
  for (const std::string& name : given) EXPECT_TRUE(std::regex_match(name, kEveryClientTakes));
  EXPECT_TRUE(names[(ServerTool{"fs", "read_file"})].shortened);
}

TEST(GatewayToolNamesTest, ANameGivenEarlierNeverComesToMeanAnotherTool) {
  // fs's _x was offered as fs___x; once it is gone, fs_'s x, whose name
  // would be the same, is given another.
  const ServerTool earlier{"fs", "_x"};
  const ServerTool later{"fs_", "x"};
  ASSERT_EQ(GatewayToolNames({earlier}, {})[earlier].name, "fs___x");
  auto names = GatewayToolNames({later}, {}, {{"fs___x", earlier}});
  EXPECT_NE(names[later].name, "fs___x");
  EXPECT_TRUE(names[later].shortened);
  // The tool the name was given to keeps it.
  EXPECT_EQ(GatewayToolNames({earlier}, {}, {{"fs___x", earlier}})[earlier].name, "fs___x");
}

TEST(GatewayToolNamesTest, TheGatewaysOwnToolIsNeverGivenAway) {
  auto names = GatewayToolNames({{"bravebot", "status"}}, {"bravebot__status"});
  EXPECT_NE(names[(ServerTool{"bravebot", "status"})].name, "bravebot__status");
}

}  // namespace
}  // namespace bravebot
