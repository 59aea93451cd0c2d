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

}  // namespace
}  // namespace bravebot
