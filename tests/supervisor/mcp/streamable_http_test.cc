#include "supervisor/mcp/streamable_http.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::Contains;
using ::testing::Not;
using ::testing::Pair;

HttpResponseHead HeadOf(const std::vector<std::string>& lines) {
  HttpHeadReader reader;
  for (const std::string& line : lines) reader.TakeLine(line);
  return reader.head();
}

TEST(StreamableHttpTest, TheHeadIsReadWhateverTheCaseOfItsNames) {
  HttpResponseHead head = HeadOf({"HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n",
                                  "content-TYPE: Text/Event-Stream; charset=utf-8\r\n",
                                  "Mcp-Session-Id:  abc-123 \r\n", "\r\n"});
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.content_type, "text/event-stream");
  EXPECT_EQ(head.session_id, "abc-123");
  EXPECT_EQ(HeadOf({"HTTP/2 308\r\n", "location: /mcp/\r\n"}).location, "/mcp/");
  // A session id that is not visible ASCII would go out in every later head.
  EXPECT_EQ(HeadOf({"HTTP/1.1 200 OK", "Mcp-Session-Id: ab\rX-Evil: 1"}).session_id, "");
  EXPECT_EQ(HeadOf({"HTTP/1.1 200 OK",
                    "Mcp-Session-Id: s\xc2\x9b"
                    "1"})
                .session_id,
            "");
  EXPECT_EQ(HeadOf({"HTTP/2 308\r\n"}).status, 308);
}

TEST(StreamableHttpTest, AChallengeIsKeptAsSentAndSeveralAreJoined) {
  EXPECT_EQ(HeadOf({"HTTP/1.1 401 Unauthorized\r\n",
                    "WWW-Authenticate: Bearer resource_metadata=\"https://a/m\"\r\n"})
                .www_authenticate,
            "Bearer resource_metadata=\"https://a/m\"");
  EXPECT_EQ(HeadOf({"HTTP/1.1 401 Unauthorized", "www-authenticate: Basic realm=\"x\"",
                    "WWW-Authenticate: Bearer scope=\"read\""})
                .www_authenticate,
            "Basic realm=\"x\", Bearer scope=\"read\"");
  // A second head (after a 100 Continue) starts again.
  EXPECT_EQ(HeadOf({"HTTP/1.1 100 Continue", "WWW-Authenticate: Bearer", "", "HTTP/1.1 200 OK"})
                .www_authenticate,
            "");
}

// A service may send a head of endless challenge lines: what is kept of
// them is bounded here, not only by whichever libcurl the machine has (its
// total bound came in 8.3.0), and a head past its bound says so.
TEST(StreamableHttpTest, AHeadKeepsABoundedChallengeHoweverManyLinesCome) {
  HttpHeadReader reader;
  reader.TakeLine("HTTP/1.1 401 Unauthorized\r\n");
  reader.TakeLine("WWW-Authenticate: Bearer resource_metadata=\"https://a.example/m\"\r\n");
  const std::string line = "WWW-Authenticate: Bearer realm=\"" + std::string(1000, 'x') + "\"\r\n";
  for (int i = 0; i < 20000; ++i) reader.TakeLine(line);
  EXPECT_LE(reader.head().www_authenticate.size(), kMostChallengeBytes);
  EXPECT_TRUE(reader.head().www_authenticate.starts_with(
      "Bearer resource_metadata=\"https://a.example/m\", Bearer realm="));
  EXPECT_EQ(reader.head().status, 401);
  EXPECT_TRUE(reader.overflowed());
}

TEST(StreamableHttpTest, AHeadWithinItsBoundIsNotOverflowed) {
  HttpHeadReader reader;
  reader.TakeLine("HTTP/1.1 200 OK\r\n");
  for (int i = 0; i < 100; ++i) reader.TakeLine("X-Filler: " + std::string(1000, 'y') + "\r\n");
  EXPECT_FALSE(reader.overflowed());
}

TEST(StreamableHttpTest, EveryPostAcceptsBothAndTheSessionGoesOnceAgreed) {
  StreamableHttpClient client;
  HttpRequest first = client.Post(R"({"jsonrpc":"2.0","id":1,"method":"initialize"})");
  EXPECT_EQ(first.method, "POST");
  EXPECT_THAT(first.headers, Contains(Pair("Accept", "application/json, text/event-stream")));
  EXPECT_THAT(first.headers, Contains(Pair("Content-Type", "application/json")));
  EXPECT_THAT(first.headers, Not(Contains(Pair("MCP-Session-Id", ::testing::_))));
  EXPECT_THAT(first.headers, Not(Contains(Pair("MCP-Protocol-Version", ::testing::_))));
  EXPECT_FALSE(client.has_session());

  client.TakeHandshake(HeadOf({"HTTP/1.1 200 OK", "MCP-Session-Id: s-1"}), "2025-11-25");
  EXPECT_TRUE(client.has_session());
  HttpRequest later = client.Post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_THAT(later.headers, Contains(Pair("MCP-Session-Id", "s-1")));
  EXPECT_THAT(later.headers, Contains(Pair("MCP-Protocol-Version", "2025-11-25")));

  HttpRequest listen = client.Listen("ev-7");
  EXPECT_EQ(listen.method, "GET");
  EXPECT_THAT(listen.headers, Contains(Pair("Accept", "text/event-stream")));
  EXPECT_THAT(listen.headers, Contains(Pair("Last-Event-ID", "ev-7")));
  EXPECT_THAT(listen.headers, Contains(Pair("MCP-Session-Id", "s-1")));
  EXPECT_THAT(client.Listen("").headers, Not(Contains(Pair("Last-Event-ID", ::testing::_))));
  HttpRequest end = client.End();
  EXPECT_EQ(end.method, "DELETE");
  EXPECT_THAT(end.headers, Contains(Pair("MCP-Session-Id", "s-1")));
}

TEST(StreamableHttpTest, AnAnswerIsJsonAnEventStreamNothingOrARedirect) {
  StreamableHttpClient client;
  HttpRequest post = client.Post("{}");
  auto read = [&](const std::vector<std::string>& lines, bool expected) {
    return ReadAnswerHead("docs", post, HeadOf(lines), expected);
  };
  EXPECT_EQ(*read({"HTTP/1.1 200 OK", "Content-Type: application/json"}, true), AnswerBody::kJson);
  EXPECT_EQ(*read({"HTTP/1.1 200 OK", "Content-Type: text/event-stream"}, true),
            AnswerBody::kEventStream);
  EXPECT_EQ(*read({"HTTP/1.1 202 Accepted"}, false), AnswerBody::kNothing);
  EXPECT_EQ(*read({"HTTP/1.1 307 Temporary Redirect", "Location: /mcp/"}, true),
            AnswerBody::kRedirect);
}

TEST(StreamableHttpTest, AFailedAnswerIsSaidInOurWords) {
  StreamableHttpClient client;
  HttpRequest post = client.Post("{}");
  auto message = [&](const std::vector<std::string>& lines, bool expected) {
    Result<AnswerBody> body = ReadAnswerHead("docs", post, HeadOf(lines), expected);
    EXPECT_FALSE(body);
    return body ? std::string() : body.error().message();
  };
  EXPECT_EQ(message({"HTTP/1.1 500 SERVER WORDS", "Content-Type: text/plain"}, true),
            "docs answered POST with HTTP 500");
  EXPECT_EQ(message({"HTTP/1.1 404 Not Found"}, true), "docs answered POST with HTTP 404");
  // A service that asks for a sign-in says how to make one.
  EXPECT_EQ(message({"HTTP/1.1 401 Unauthorized", "WWW-Authenticate: Bearer"}, true),
            "docs answered POST with HTTP 401: it asks for a sign-in, which `bravebot-mcp login "
            "docs` makes");
  EXPECT_EQ(message({"HTTP/1.1 202 Accepted"}, true),
            "docs answered POST with HTTP 202 and no answer, where a request needs one");
  EXPECT_EQ(message({"HTTP/1.1 200 OK", "Content-Type: text/html"}, true),
            "docs answered POST with HTTP 200 and a body that is neither application/json nor "
            "text/event-stream");
  EXPECT_EQ(message({"HTTP/1.1 302 Found"}, true),
            "docs answered POST with HTTP 302 and no place to go");

  // Once in a session, a 404 says the server ended it.
  client.TakeHandshake(HeadOf({"HTTP/1.1 200 OK", "MCP-Session-Id: s-1"}), "2025-11-25");
  Result<AnswerBody> ended =
      ReadAnswerHead("docs", client.Post("{}"), HeadOf({"HTTP/1.1 404 Not Found"}), true);
  ASSERT_FALSE(ended);
  EXPECT_EQ(ended.error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(ended.error().message(),
            "docs answered POST with HTTP 404 for its MCP session: the service ended that "
            "session, and a new one begins only with a new handshake");
  // Without a session, a 404 is an HTTP error like any other.
  client.ForgetSession();
  Result<AnswerBody> missing =
      ReadAnswerHead("docs", client.Post("{}"), HeadOf({"HTTP/1.1 404 Not Found"}), true);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(missing.error().message(), "docs answered POST with HTTP 404");
}

}  // namespace
}  // namespace bravebot
