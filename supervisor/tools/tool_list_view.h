// How a server's tool list is drawn for a person to approve, as the spec's
// "offer these tools to the model?" list draws it, without the box:
//
//     weather offers 2 tools
//
//       weather:check_service_status
//     ┃ Check whether the upstream weather APIs (NOAA, Open-Meteo) are reachable.
//
//       weather:get_alerts
//         active_only (boolean), detail (string, summary | standard | full)
//     ┃ Get active weather alerts, watches, warnings, and advisories for a location.
//
// The margin marks the server's words. None of them is cut; control
// characters in them are shown escaped, so a description cannot move the
// cursor or redraw what was drawn above it.
#ifndef BRAVEBOT_SUPERVISOR_TOOLS_TOOL_LIST_VIEW_H_
#define BRAVEBOT_SUPERVISOR_TOOLS_TOOL_LIST_VIEW_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace bravebot {

// The margin in front of each row of a server's words: U+2503 and a space.
inline constexpr char kServerWordsMargin[] = "\xe2\x94\x83 ";

// "ALIAS offers N tools", a blank row, then each tool: "  ALIAS:NAME"; its
// arguments on one row indented four spaces, `name (type)` or
// `name (string, a | b | c)` for an enum, comma-separated, in the order the
// schema lists them (no row for a tool without arguments); then each row of
// its description behind the margin (none without one). A blank row between
// tools. Every row ends with '\n'.
//
// Arguments keep the server's order only in ordered_json, in which
// McpStartup keeps the tool list; nlohmann::json keeps object keys sorted, so
// the second overload shows them in name order.
std::string DisplayToolList(const std::string& alias,
                            const std::vector<nlohmann::ordered_json>& tools);
std::string DisplayToolList(const std::string& alias, const std::vector<nlohmann::json>& tools);

// A tool's description as the list shows it, without the margin: each row
// with its control and invisible characters escaped, "\r\n" ending a row as
// '\n' does, the rows joined by '\n'. What the model is handed.
std::string ShownDescription(std::string_view description);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_TOOLS_TOOL_LIST_VIEW_H_
