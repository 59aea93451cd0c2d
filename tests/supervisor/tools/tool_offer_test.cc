#include "supervisor/tools/tool_offer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ordered_json = nlohmann::ordered_json;

TEST(ToolOfferTest, AListIsApprovedOnlyBesideItsOwnServer) {
  ApprovalFile approvals;
  const std::string server(64, 'a');
  EXPECT_EQ(StateOfToolList(approvals, server, std::string(64, '1')), ToolsState::kAsk);
  approvals.ApproveToolList(server, std::string(64, '1'));
  EXPECT_EQ(StateOfToolList(approvals, server, std::string(64, '1')), ToolsState::kApproved);
  EXPECT_EQ(StateOfToolList(approvals, server, std::string(64, '2')), ToolsState::kChanged);
  // The same list beside another declaration was not said yes to.
  EXPECT_EQ(StateOfToolList(approvals, std::string(64, 'b'), std::string(64, '1')),
            ToolsState::kAsk);
  EXPECT_EQ(ToolsStateWord(ToolsState::kChanged), "changed");
}

TEST(ToolOfferTest, TheOfferHoldsTheHeadingTheSentenceAndEveryTool) {
  std::vector<ordered_json> tools = {
      {{"name", "get_alerts"}, {"description", "Get alerts.\nSecond row."}}};
  EXPECT_EQ(ToolOffer("weather", tools, ToolsState::kAsk),
            "weather offers 1 tool\n"
            "\n"
            "The model will read each tool's name, its arguments and what the server says "
            "about it, as shown here. Every call is still put to you. Say no if a description "
            "gives instructions.\n"
            "\n"
            "  weather:get_alerts\n"
            "\xe2\x94\x83 Get alerts.\n"
            "\xe2\x94\x83 Second row.\n");
  const std::string changed = ToolOffer("weather", tools, ToolsState::kChanged);
  EXPECT_THAT(changed, HasSubstr("\n\nThis is not the list you said yes to: weather sends another "
                                 "list than the one you offered the model before.\n\n"));
  EXPECT_THAT(ToolOffer("weather", tools, ToolsState::kApproved), Not(HasSubstr("not the list")));
  EXPECT_EQ(ToolOffer("m", {}, ToolsState::kAsk).rfind("m offers 0 tools\n\nThe model", 0), 0u);
}

}  // namespace
}  // namespace bravebot
