// The question a session puts about a started server's tool list, before the
// model is offered any of it: whether the list is the one you said yes to,
// and the text drawn inside the offer box.
//
//   ToolsState state = StateOfToolList(approvals, server_digest, ToolListDigest(tools));
//   std::string text = ToolOffer("weather", tools, state);
#ifndef BRAVEBOT_SUPERVISOR_TOOLS_TOOL_OFFER_H_
#define BRAVEBOT_SUPERVISOR_TOOLS_TOOL_OFFER_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "supervisor/store/approval_file.h"

namespace bravebot {

enum class ToolsState {
  kApproved,  // a tools line beside this server's digest holds this list
  kAsk,       // no list was said yes to for this server
  kChanged,   // a tools line holds another list
};
// "approved", "ask", "changed".
std::string ToolsStateWord(ToolsState state);

ToolsState StateOfToolList(const ApprovalFile& approvals, std::string_view server_digest,
                           std::string_view tools_digest);

// The question's line in --plain, after the offer.
inline constexpr char kOfferQuestionPlain[] = "offer these tools to the model? [y/N]";

// What the offer box holds: "weather offers 6 tools", a blank row, for
// kChanged the sentence saying this is not the list you said yes to and a
// blank row, the sentence on what the model will read, a blank row, then
// every tool as DisplayToolList draws it (alias:tool, its arguments, each
// row of its description behind the margin, none of it cut). A session that
// draws its own check's verdict draws it under the first row's blank row.
// Every row ends with '\n'.
std::string ToolOffer(const std::string& alias, const std::vector<nlohmann::ordered_json>& tools,
                      ToolsState state);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_TOOLS_TOOL_OFFER_H_
