// The words of a command the table reads: here, an alias that may name one
// tool of its server (approve's ALIAS:TOOL).
#include "cli/simple_options.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

SimpleCommandSpec Spec(bool may_name_tool) {
  SimpleCommandSpec spec{"approve", "", /*takes_alias=*/true, /*takes_json=*/false, {}};
  spec.alias_may_name_tool = may_name_tool;
  return spec;
}

TEST(SimpleOptionsTest, AnAliasWithAColonNamesOneToolWhereTheCommandTakesOne) {
  Result<SimpleOptions> options = ParseSimpleOptions(Spec(true), {"weather:get_alerts"});
  ASSERT_TRUE(options) << options.error().message();
  EXPECT_EQ(options->alias, "weather");
  EXPECT_EQ(options->tool, "get_alerts");
  // The first colon ends the alias; the server's name for its tool is its own.
  options = ParseSimpleOptions(Spec(true), {"weather:ns:get"});
  ASSERT_TRUE(options);
  EXPECT_EQ(options->alias, "weather");
  EXPECT_EQ(options->tool, "ns:get");
  options = ParseSimpleOptions(Spec(true), {"weather"});
  ASSERT_TRUE(options);
  EXPECT_EQ(options->tool, "");
}

TEST(SimpleOptionsTest, AToolNameIsNeitherEmptyNorBrokenAndTheAliasIsStillChecked) {
  for (const char* words :
       {"weather:", "weather:get\talerts", "weather:get\nalerts", ":get", "we ather:get"}) {
    Result<SimpleOptions> options = ParseSimpleOptions(Spec(true), {words});
    ASSERT_FALSE(options) << words;
    EXPECT_EQ(options.error().code(), ErrorCode::kUsage) << words;
  }
}

TEST(SimpleOptionsTest, ElsewhereAColonIsNoAlias) {
  Result<SimpleOptions> options = ParseSimpleOptions(Spec(false), {"weather:get_alerts"});
  ASSERT_FALSE(options);
  EXPECT_EQ(options.error().message(),
            "that is not an alias: an alias is letters, digits, - and _, starting with a letter or "
            "a digit, at most 64 characters");
}

}  // namespace
}  // namespace bravebot
