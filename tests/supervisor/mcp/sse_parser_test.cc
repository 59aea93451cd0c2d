#include "supervisor/mcp/sse_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace bravebot {
namespace {

// Every event `stream` dispatches, fed in pieces of `piece` bytes.
std::vector<SseEvent> EventsOf(std::string_view stream, std::size_t piece = 1 << 20) {
  SseParser parser;
  std::vector<SseEvent> events;
  for (std::size_t at = 0; at < stream.size(); at += piece) {
    parser.Feed(stream.substr(at, piece));
    while (std::optional<SseEvent> event = parser.Next()) events.push_back(std::move(*event));
  }
  return events;
}

std::vector<std::string> DataOf(const std::vector<SseEvent>& events) {
  std::vector<std::string> data;
  data.reserve(events.size());
  for (const SseEvent& event : events) data.push_back(event.data);
  return data;
}

TEST(SseParserTest, DataLinesAreJoinedAndAnEventEndsAtItsBlankLine) {
  std::vector<SseEvent> events =
      EventsOf("data: {\"a\":\ndata:1}\n\nevent: note\ndata: second\nid: 7\n\n");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].data, "{\"a\":\n1}");
  EXPECT_EQ(events[0].type, "message");
  EXPECT_EQ(events[0].id, "");
  EXPECT_EQ(events[1].data, "second");
  EXPECT_EQ(events[1].type, "note");
  EXPECT_EQ(events[1].id, "7");
}

TEST(SseParserTest, EveryLineEndIsOneAndAPieceMaySplitAnything) {
  const std::string stream =
      "\xef\xbb\xbf"
      "data: one\r\n\r\ndata: two\r\rdata: three\n\n: a comment\r\ndata:four\r\n\r\n";
  const std::vector<std::string> expected = {"one", "two", "three", "four"};
  for (std::size_t piece = 1; piece <= stream.size(); ++piece) {
    EXPECT_EQ(DataOf(EventsOf(stream, piece)), expected) << "pieces of " << piece;
  }
}

TEST(SseParserTest, OnlyOneSpaceAfterTheColonIsTakenOff) {
  EXPECT_EQ(DataOf(EventsOf("data:  two spaces\n\ndata\n\n")),
            (std::vector<std::string>{" two spaces", ""}));
}

TEST(SseParserTest, AnEventWithNoDataIsNotDispatchedButItsIdCounts) {
  SseParser parser;
  // The priming event streamable HTTP sends first: an id and empty data.
  parser.Feed("id: prime-1\ndata:\n\nid: 2\nevent: ping\n\n: keep-alive\n\n");
  std::optional<SseEvent> primed = parser.Next();
  ASSERT_TRUE(primed);
  EXPECT_EQ(primed->data, "");
  EXPECT_EQ(primed->id, "prime-1");
  EXPECT_FALSE(parser.Next());  // the ping had no data line
  EXPECT_EQ(parser.last_event_id(), "2");
  parser.Feed(std::string("id: bad\0id\n\n", 12));
  EXPECT_EQ(parser.last_event_id(), "2");  // an id holding NUL is ignored
}

TEST(SseParserTest, RetryIsKeptOnlyWhenItIsDigits) {
  SseParser parser;
  parser.Feed("retry: 3000\n\n");
  EXPECT_EQ(parser.retry_milliseconds(), 3000u);
  for (const char* wrong :
       {"retry: 3s\n", "retry: -1\n", "retry:\n", "retry: 99999999999999999999\n"}) {
    parser.Feed(wrong);
    EXPECT_EQ(parser.retry_milliseconds(), 3000u) << wrong;
  }
}

TEST(SseParserTest, AStreamCutInTheMiddleOfAnEventSaysSo) {
  SseParser parser;
  parser.Feed("data: whole\n\n");
  EXPECT_FALSE(parser.EndedMidEvent());
  parser.Feed("data: {\"jsonrpc\"");
  EXPECT_TRUE(parser.EndedMidEvent());
  SseParser fields_only;
  fields_only.Feed("data: x\n");
  EXPECT_TRUE(fields_only.EndedMidEvent());
  EXPECT_FALSE(fields_only.Next());  // nothing is dispatched before its blank line
}

TEST(SseParserTest, AnEventPastTheLimitOverflowsAndNothingMoreIsGiven) {
  SseParser parser(64);
  parser.Feed("data: " + std::string(40, 'a') + "\n");
  parser.Feed("data: " + std::string(40, 'b') + "\n\ndata: after\n\n");
  EXPECT_TRUE(parser.overflowed());
  EXPECT_FALSE(parser.Next());
}

// An attack by a service: an id as long as an event may be, then events of
// a few bytes each, every one of which carried a copy of it (gigabytes out
// of one read; here 64 KiB each, 256 MiB in all). An id past kMaxEventIdBytes
// is ignored, so each carries the id before it.
TEST(SseParserTest, AnIdPastItsBoundIsIgnoredSoNoEventCarriesACopyOfIt) {
  SseParser parser;
  std::string stream = "id: short\n\nid: " + std::string(64 << 10, 'i') + "\n";
  constexpr int kEvents = 4096;
  for (int i = 0; i < kEvents; ++i) stream += "data:\n\n";
  parser.Feed(stream);
  EXPECT_FALSE(parser.overflowed());
  EXPECT_EQ(parser.last_event_id(), "short");
  int events = 0;
  while (std::optional<SseEvent> event = parser.Next()) {
    EXPECT_EQ(event->id, "short");
    ++events;
  }
  EXPECT_EQ(events, kEvents);
  // An id at the bound is kept.
  parser.Feed("id: " + std::string(kMaxEventIdBytes, 'k') + "\ndata: x\n\n");
  EXPECT_EQ(parser.last_event_id(), std::string(kMaxEventIdBytes, 'k'));
  EXPECT_EQ(parser.Next()->id.size(), kMaxEventIdBytes);
}

}  // namespace
}  // namespace bravebot
