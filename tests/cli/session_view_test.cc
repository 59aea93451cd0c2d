#include "cli/session_view.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using Json = nlohmann::ordered_json;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(SessionViewTest, ACallLineNamesAliasToolAndItsArguments) {
  Result<CallLine> call = ParseCallLine("  weather:get_alerts {\"city_name\": \"Toronto\"}\r");
  ASSERT_TRUE(call) << call.error().message();
  EXPECT_EQ(call->alias, "weather");
  EXPECT_EQ(call->tool, "get_alerts");
  EXPECT_EQ(call->arguments, (Json{{"city_name", "Toronto"}}));

  Result<CallLine> bare = ParseCallLine("everything:get-env");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->tool, "get-env");
  EXPECT_EQ(bare->arguments, Json::object());
  Result<CallLine> glued = ParseCallLine("everything:echo{\"message\":\"hi\"}");
  ASSERT_TRUE(glued);
  EXPECT_EQ(glued->tool, "echo");
  EXPECT_EQ(glued->arguments["message"], "hi");
}

TEST(SessionViewTest, ALineThatIsNoCallSaysWhatACallIs) {
  for (const char* line : {"weather", ":get_alerts", "weather:", "hello there"}) {
    Result<CallLine> call = ParseCallLine(line);
    ASSERT_FALSE(call) << line;
    EXPECT_EQ(call.error().code(), ErrorCode::kUsage);
    EXPECT_THAT(call.error().message(), HasSubstr("ALIAS:TOOL")) << line;
  }
  for (const char* line :
       {"weather:get_alerts [1]", "weather:get_alerts {\"a\":", "weather:get_alerts 3"}) {
    Result<CallLine> call = ParseCallLine(line);
    ASSERT_FALSE(call) << line;
    EXPECT_THAT(call.error().message(),
                HasSubstr("the arguments of weather:get_alerts are not a JSON object"));
  }
}

TEST(SessionViewTest, AResultIsShownBehindTheMarginWithNothingRawInIt) {
  Json result = {
      {"content",
       {{{"type", "text"},
         {"text",
          "Toronto: 4 \xc2\xb0"
          "C\nwind \x1b[2J\xe2\x80\x8bNW"}},
        {{"type", "image"}, {"mimeType", "image/png"}, {"data", "AAAAAAAA"}},
        {{"type", "resource"}, {"resource", {{"uri", "file:///notes"}, {"text", "a note"}}}}}},
      {"isError", false}};
  const std::string shown = CallResultText("weather", "get_alerts", result);
  EXPECT_EQ(shown,
            "weather:get_alerts returned:\n"
            "\xe2\x94\x83 Toronto: 4 \xc2\xb0"
            "C\n"
            "\xe2\x94\x83 wind \\x1b[2J\\u200bNW\n"
            "\xe2\x94\x83 [image, image/png, about 6 bytes]\n"
            "\xe2\x94\x83 [the resource file:///notes]\n"
            "\xe2\x94\x83 a note\n");
  EXPECT_THAT(shown, Not(HasSubstr("\x1b")));
}

TEST(SessionViewTest, AToolsOwnFailureIsAResultThatSaysSo) {
  Json failed = {{"content", {{{"type", "text"}, {"text", "no such city"}}}}, {"isError", true}};
  EXPECT_EQ(CallResultText("weather", "get_alerts", failed),
            "weather:get_alerts reported its own failure:\n\xe2\x94\x83 no such city\n");
  EXPECT_EQ(CallResultText("weather", "ping", Json{{"content", Json::array()}}),
            "weather:ping returned:\n\xe2\x94\x83 (nothing)\n");
  EXPECT_THAT(CallResultText("weather", "t", Json{{"structuredContent", {{"t", 4}}}}),
              HasSubstr("\xe2\x94\x83   \"t\": 4\n"));
}

TEST(SessionViewTest, ALintFindingIsALineAndNoFindingSaysSo) {
  EXPECT_EQ(LintText("weather", Json::array()),
            "a plain reading of weather's list found nothing to warn of\n");
  Json lint = {{{"tool", "get_alerts"},
                {"where", "description"},
                {"kind", "addressed-to-model"},
                {"text", "it addresses the model"}}};
  EXPECT_EQ(LintText("weather", lint),
            "a plain reading of weather's list found:\n"
            "  weather:get_alerts, its description: it addresses the model\n");
}

TEST(SessionViewTest, TheConfinementIsTwoRows) {
  EXPECT_EQ(ConfinementText({{"line", "kernel-enforced"}, {"detail", "it covers servers"}}),
            "  Confinement   kernel-enforced\n                  it covers servers\n");
}

}  // namespace
}  // namespace bravebot
