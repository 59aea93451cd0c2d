#include "supervisor/tools/tool_offer.h"

#include "supervisor/tools/tool_list_view.h"

namespace bravebot {

std::string ToolsStateWord(ToolsState state) {
  switch (state) {
    case ToolsState::kApproved:
      return "approved";
    case ToolsState::kChanged:
      return "changed";
    case ToolsState::kAsk:
      break;
  }
  return "ask";
}

ToolsState StateOfToolList(const ApprovalFile& approvals, std::string_view server_digest,
                           std::string_view tools_digest) {
  const std::string approved = approvals.ApprovedToolList(server_digest);
  if (approved.empty()) return ToolsState::kAsk;
  return approved == tools_digest ? ToolsState::kApproved : ToolsState::kChanged;
}

std::string ToolOffer(const std::string& alias, const std::vector<nlohmann::ordered_json>& tools,
                      ToolsState state) {
  const std::string drawn = DisplayToolList(alias, tools);
  const std::size_t heading_end = drawn.find('\n') + 1;
  std::string offer = drawn.substr(0, heading_end) + "\n";
  if (state == ToolsState::kChanged) {
    offer += "This is not the list you said yes to: " + alias +
             " sends another list than the one you offered the model before.\n\n";
  }
  offer +=
      "The model will read each tool's name, its arguments and what the server says about it, "
      "as shown here. Every call is still put to you. Say no if a description gives "
      "instructions.\n";
  if (heading_end < drawn.size()) offer += drawn.substr(heading_end);
  return offer;
}

}  // namespace bravebot
