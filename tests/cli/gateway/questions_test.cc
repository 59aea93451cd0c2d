#include "cli/gateway/questions.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

Answer Accepted(const std::string& value) {
  Answer answer;
  answer.message = {{"result", {{"action", "accept"}, {"content", {{"answer", value}}}}}};
  return answer;
}

Answer Acted(const std::string& action) {
  Answer answer;
  answer.message = {{"result", {{"action", action}}}};
  return answer;
}

const char kServerQuestion[] =
    "  weather   stdio   npx -y weather-mcp\n            digest: 25edc5e8\n\n"
    "  Use this MCP server?\n  1. Yes\n  2. Yes, and use all future MCP servers in this "
    "project\n  3. No, continue without this server\n  [1/2/3]";

TEST(GatewayQuestionsTest, TheMessageIsTheSpecsTextWithoutWhatATerminalTypes) {
  Question question = ServerQuestion(kServerQuestion);
  EXPECT_EQ(question.message,
            "  weather   stdio   npx -y weather-mcp\n            digest: 25edc5e8\n\n"
            "  Use this MCP server?");
  ASSERT_EQ(question.answers.size(), 3u);
  EXPECT_EQ(question.answers[1].second, "Yes, and use all future MCP servers in this project");
  EXPECT_EQ(RedirectQuestion("  docs moved\n  Follow it? [y/N]").message,
            "  docs moved\n  Follow it?");
}

TEST(GatewayQuestionsTest, TheAnswersAreOneChoiceTitledAsTheNewestProtocolNamesThem) {
  Json params = ElicitationParams(ServerQuestion(kServerQuestion), "2025-11-25");
  EXPECT_EQ(params["mode"], "form");
  const Json& answer = params["requestedSchema"]["properties"]["answer"];
  ASSERT_EQ(answer["oneOf"].size(), 3u);
  EXPECT_EQ(answer["oneOf"][2],
            (Json{{"const", "3"}, {"title", "No, continue without this server"}}));
  EXPECT_EQ(params["requestedSchema"]["required"], Json::array({"answer"}));

  Json older = ElicitationParams(ServerQuestion(kServerQuestion), "2025-06-18");
  EXPECT_FALSE(older.contains("mode"));
  EXPECT_EQ(older["requestedSchema"]["properties"]["answer"]["enum"], Json::array({"1", "2", "3"}));
  EXPECT_EQ(older["requestedSchema"]["properties"]["answer"]["enumNames"].size(), 3u);
}

TEST(GatewayQuestionsTest, ADeclineACancelOrAnAnswerNotOfferedIsTheQuestionsNo) {
  Question server = ServerQuestion(kServerQuestion);
  EXPECT_EQ(AnswerOf(server, Accepted("2")), "2");
  EXPECT_EQ(AnswerOf(server, Acted("decline")), "3");
  EXPECT_EQ(AnswerOf(server, Acted("cancel")), "3");
  EXPECT_EQ(AnswerOf(server, Accepted("yes")), "3");
  EXPECT_EQ(AnswerOf(server, Answer::Ended()), "3");
  EXPECT_EQ(AnswerOf(ListQuestion("weather offers 6 tools"), Acted("decline")), "2");
  EXPECT_EQ(AnswerOf(RedirectQuestion("moved [y/N]"), Acted("cancel")), "n");
}

TEST(GatewayQuestionsTest, ACallQuestionOffersTwoOnlyWhereItCanBeRecorded) {
  EXPECT_EQ(CallQuestion("  Proceed?", "weather:get_alerts", true).answers.size(), 3u);
  Question unrecorded = CallQuestion("  Proceed?", "weather:get_alerts", false);
  ASSERT_EQ(unrecorded.answers.size(), 2u);
  EXPECT_EQ(AnswerOf(unrecorded, Accepted("2")), "3");
}

TEST(GatewayQuestionsTest, FormElicitationIsAnEmptyDeclarationOrOneNamingForm) {
  EXPECT_TRUE(TakesFormElicitation({{"elicitation", Json::object()}}));
  EXPECT_TRUE(TakesFormElicitation({{"elicitation", {{"form", Json::object()}}}}));
  EXPECT_FALSE(TakesFormElicitation({{"elicitation", {{"url", Json::object()}}}}));
  EXPECT_FALSE(TakesFormElicitation(Json::object()));
}

}  // namespace
}  // namespace bravebot
