#include "supervisor/session/passed_on_request.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace bravebot {
namespace {

TEST(PassedOnRequestTest, APlainCallIsReadWithItsParamsAsWritten) {
  const std::string line =
      R"({"jsonrpc":"2.0","id":12,"method":"server/request","params":{"alias":"weather",)"
      R"("method":"tools/call","params":{"name":"get\u0007alerts","arguments":{"city":"Lyon"}}}})";
  auto request = ReadPassedOnRequest(line);
  ASSERT_TRUE(request);
  EXPECT_EQ(request->id, 12);
  EXPECT_EQ(request->alias, "weather");
  EXPECT_EQ(request->method, "tools/call");
  EXPECT_EQ(request->params_text, R"({"name":"get\u0007alerts","arguments":{"city":"Lyon"}})");
  EXPECT_EQ(request->what, "tools/call for get\\x07alerts");  // escaped, as every message says it
}

TEST(PassedOnRequestTest, NoParamsOrNullParamsAreNone) {
  for (std::string params : {"", R"(,"params":null)"}) {
    auto request = ReadPassedOnRequest(
        R"({"jsonrpc":"2.0","id":"a","method":"server/request","params":{"alias":"w","method":"ping")" +
        params + "}}");
    ASSERT_TRUE(request) << params;
    EXPECT_EQ(request->id, "a");
    EXPECT_EQ(request->params_text, "");
    EXPECT_EQ(request->what, "ping");
  }
}

// Each is left to the whole reading, which answers it with its error or
// handles it as any other request.
TEST(PassedOnRequestTest, AnythingElseIsLeftToTheWholeReading) {
  const std::string params = R"("params":{"alias":"w","method":"ping"})";
  const std::vector<std::string> lines = {
      R"({"jsonrpc":"2.0","id":1,"method":"server/notify",)" + params + "}",
      R"({"jsonrpc":"1.0","id":1,"method":"server/request",)" + params + "}",
      R"({"jsonrpc":"2.0","method":"server/request",)" + params + "}",
      R"({"jsonrpc":"2.0","id":1.5,"method":"server/request",)" + params + "}",
      R"({"jsonrpc":"2.0","id":null,"method":"server/request",)" + params + "}",
      R"({"jsonrpc":"2.0","id":1,"method":"server/request",)" + params + R"(,"extra":1})",
      R"({"jsonrpc":"2.0","id":1,"method":"server/request","params":[]})",
      R"({"jsonrpc":"2.0","id":1,"method":"server/request","params":{"alias":"w"}})",
      R"({"jsonrpc":"2.0","id":1,"method":"server/request","params":{"alias":1,"method":"x"}})",
      R"({"jsonrpc":"2.0","id":1,"method":"server/request","params":{"alias":"w",)"
      R"("method":"initialize"}})",
      R"({"jsonrpc":"2.0","id":1,"method":"server/request","params":{"alias":"w",)"
      R"("method":"x","params":[1]}})",
      R"({"jsonrpc":"2.0","id":1,"method":"server/request","params":{"alias":"w",)"
      R"("method":"x","other":1}})",
      R"({"jsonrpc":"2.0","id":1,"id":2,"method":"server/request",)" + params + "}",
      R"([{"jsonrpc":"2.0","id":1,"method":"server/request",)" + params + "}]",
  };
  for (const std::string& line : lines) {
    EXPECT_FALSE(ReadPassedOnRequest(line)) << line;
  }
}

TEST(PassedOnToolCallTest, APlainToolCallIsReadWithItsArgumentsAsWritten) {
  const std::string line =
      R"({"jsonrpc":"2.0","id":7,"method":"tool/call","params":{"alias":"weather",)"
      R"("tool":"get_alerts","arguments":{"city": "Lyon","n":[1,2]},"meta":{"k":1},)"
      R"("answer":"2"}})";
  auto request = ReadPassedOnToolCall(line);
  ASSERT_TRUE(request);
  EXPECT_EQ(request->id, 7);
  EXPECT_EQ(request->call.alias, "weather");
  EXPECT_EQ(request->call.tool, "get_alerts");
  EXPECT_EQ(request->call.arguments_text, R"({"city": "Lyon","n":[1,2]})");
  EXPECT_EQ(request->call.meta_text, R"({"k":1})");
  EXPECT_EQ(request->call.answer, "2");
  EXPECT_EQ(ToolsCallParams(request->call),
            R"({"name":"get_alerts","arguments":{"city": "Lyon","n":[1,2]},"_meta":{"k":1}})");
}

TEST(PassedOnToolCallTest, NoArgumentsAreAnEmptyObjectAndNoMetaIsLeftOut) {
  for (std::string arguments : {"", R"(,"arguments":null)"}) {
    auto request = ReadPassedOnToolCall(
        R"({"jsonrpc":"2.0","id":"x","method":"tool/call","params":{"alias":"w","tool":"t\"q")" +
        arguments + "}}");
    ASSERT_TRUE(request) << arguments;
    EXPECT_EQ(request->call.arguments_text, "");
    EXPECT_FALSE(request->call.answer);
    EXPECT_EQ(ToolsCallParams(request->call), R"({"name":"t\"q","arguments":{}})");
  }
}

// A key written twice is passed on as written where nobody is shown the
// call; where the person was asked, the server gets what the question
// showed, read whole: the last value, once.
TEST(PassedOnToolCallTest, WhereThePersonWasAskedTheArgumentsAreSentAsShown) {
  auto request = ReadPassedOnToolCall(
      R"({"jsonrpc":"2.0","id":1,"method":"tool/call","params":{"alias":"w","tool":"t",)"
      R"("arguments":{"a":1,"b":{"c":"x","c":"y"},"a":2},"answer":"1"}})");
  ASSERT_TRUE(request);
  EXPECT_EQ(request->call.arguments_text, R"({"a":1,"b":{"c":"x","c":"y"},"a":2})");
  EXPECT_EQ(ToolsCallParams(AsShown(request->call)),
            R"({"name":"t","arguments":{"a":2,"b":{"c":"y"}}})");
}

TEST(PassedOnToolCallTest, AToolsNameIsWrittenAsAJsonStringWhateverItHolds) {
  for (const std::string tool :
       {"noop", "t\"q", "back\\slash", "new\nline", "del\x7f", "caf\u00e9", "tab\there"}) {
    ToolCallRequest call;
    call.tool = tool;
    EXPECT_EQ(ToolsCallParams(call), R"({"name":)" + Json(tool).dump() + R"(,"arguments":{}})")
        << tool;
  }
}

TEST(SessionRequestTest, ARequestIsReadOnceWhateverItsMethod) {
  auto read = ReadSessionRequest(
      R"({"jsonrpc":"2.0","id":4,"method":"tool/call","params":{"alias":"w","tool":"t"}})");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->id, 4);
  EXPECT_EQ(read->method, "tool/call");
  ASSERT_EQ(read->params.size(), 2u);
  EXPECT_EQ(FindJsonMember(read->params, "alias"), "\"w\"");
  // Read for one method, it is nothing of another's.
  EXPECT_FALSE(ReadPassedOnRequest(*read));
  EXPECT_TRUE(ReadPassedOnToolCall(*read));
  // No params, or params that are no object, are left to the whole reading.
  EXPECT_FALSE(ReadSessionRequest(R"({"jsonrpc":"2.0","id":4,"method":"session/status"})"));
  EXPECT_FALSE(ReadSessionRequest(R"({"jsonrpc":"2.0","id":4,"method":"x","params":[]})"));
  EXPECT_FALSE(ReadSessionRequest(R"({"jsonrpc":"2.0","id":4,"method":7,"params":{}})"));
}

// Each is left to the whole reading, which answers it with its error.
TEST(PassedOnToolCallTest, AnythingElseIsLeftToTheWholeReading) {
  const std::vector<std::string> params = {
      R"({"alias":"w","tool":"t","arguments":[1]})",  // arguments that are no object
      R"({"alias":"w","tool":"t","meta":"m"})",       // nor is meta
      R"({"alias":"w","tool":7})",                    // a tool that is no string
      R"({"alias":"w"})",                             // no tool
      R"({"alias":"w","tool":"t","answer":2})",       // an answer that is no string
      R"({"alias":"w","tool":"t","extra":true})",     // a member it does not know
  };
  for (const std::string& one : params) {
    EXPECT_FALSE(ReadPassedOnToolCall(R"({"jsonrpc":"2.0","id":1,"method":"tool/call","params":)" +
                                      one + "}"))
        << one;
  }
  EXPECT_FALSE(ReadPassedOnToolCall(
      R"({"jsonrpc":"2.0","id":1,"method":"server/request","params":{"alias":"w","tool":"t"}})"));
  EXPECT_FALSE(ReadPassedOnToolCall(R"({"jsonrpc":"2.0","method":"tool/call","params":{}})"));
}

}  // namespace
}  // namespace bravebot
