#include "cli/bridged_ids.h"

#include <gtest/gtest.h>

namespace bravebot {
namespace {

using Json = nlohmann::ordered_json;

TEST(BridgedIdsTest, EachRequestGetsAnIdOfOursAndItsAnswerTheClientsBack) {
  BridgedIds ids;
  Json first = {{"jsonrpc", "2.0"}, {"id", "a"}, {"method", "tools/list"}};
  Json second = {{"jsonrpc", "2.0"}, {"id", "a"}, {"method", "ping"}};  // the same id again
  const std::int64_t one = ids.Outgoing(first);
  const std::int64_t two = ids.Outgoing(second);
  EXPECT_NE(one, two);
  EXPECT_EQ(first["id"], one);
  EXPECT_EQ(ids.under_way(), 2u);

  Json answer = {{"jsonrpc", "2.0"}, {"id", two}, {"result", Json::object()}};
  ASSERT_TRUE(ids.Incoming(answer));
  EXPECT_EQ(answer["id"], "a");
  EXPECT_EQ(ids.under_way(), 1u);
  // Answered once: the same id again is a stray, left as it came.
  Json again = {{"jsonrpc", "2.0"}, {"id", two}, {"result", Json::object()}};
  EXPECT_FALSE(ids.Incoming(again));
  EXPECT_EQ(again["id"], two);
  Json stray = {{"jsonrpc", "2.0"}, {"id", "z"}, {"result", Json::object()}};
  EXPECT_FALSE(ids.Incoming(stray));

  EXPECT_EQ(ids.Finish(one), Json("a"));
  EXPECT_FALSE(ids.Finish(one));
  EXPECT_EQ(ids.under_way(), 0u);
}

TEST(BridgedIdsTest, ACancellationNamesOurIdOfTheRequestUnderWay) {
  BridgedIds ids;
  Json request = {{"jsonrpc", "2.0"}, {"id", 41}, {"method", "tools/call"}};
  const std::int64_t ours = ids.Outgoing(request);
  Json cancelled = {{"jsonrpc", "2.0"},
                    {"method", "notifications/cancelled"},
                    {"params", {{"requestId", 41}, {"reason", "enough"}}}};
  EXPECT_EQ(ids.Cancelled(cancelled), ours);
  EXPECT_EQ(cancelled["params"]["requestId"], ours);
  Json unknown = {
      {"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 7}}}};
  EXPECT_FALSE(ids.Cancelled(unknown));
  EXPECT_EQ(unknown["params"]["requestId"], 7);
  Json without = {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}};
  EXPECT_FALSE(ids.Cancelled(without));
}

}  // namespace
}  // namespace bravebot
