#include "supervisor/tools/mcp_rules.h"

#include <algorithm>
#include <utility>

#include "confine/declaration.h"

namespace bravebot {
namespace {

constexpr std::string_view kFamily = "Mcp(";

// How many rules of one list that cannot be read are named one by one; the
// rest are counted in one note. Each note is a line the session prints as
// it opens, and a file of a few MiB could hold a million such rules.
constexpr std::size_t kMostNotedRules = 5;

bool AnyCovers(const std::vector<McpRule>& rules, std::string_view server, std::string_view tool) {
  return std::any_of(rules.begin(), rules.end(),
                     [&](const McpRule& rule) { return rule.Covers(server, tool); });
}

}  // namespace

bool McpRule::Covers(std::string_view server_alias, std::string_view tool_name) const {
  return server == server_alias && (tool.empty() || tool == tool_name);
}

Result<std::optional<McpRule>> ParseMcpRule(std::string_view text) {
  if (text.substr(0, kFamily.size()) != kFamily) return std::optional<McpRule>();
  if (text.size() <= kFamily.size() || text.back() != ')') {
    return Error(ErrorCode::kUsage, "an Mcp rule ends with its closing parenthesis");
  }
  std::string_view inside = text.substr(kFamily.size(), text.size() - kFamily.size() - 1);
  McpRule rule;
  const std::size_t colon = inside.find(':');
  rule.server = std::string(inside.substr(0, colon));
  if (colon != std::string_view::npos) {
    rule.tool = std::string(inside.substr(colon + 1));
    if (rule.tool.empty()) {
      return Error(ErrorCode::kUsage, "an Mcp rule names a tool after its colon, or * for all");
    }
    if (rule.tool == "*") rule.tool.clear();
  }
  if (!IsValidAlias(rule.server)) {
    return Error(ErrorCode::kUsage, "an Mcp rule starts with a server's alias");
  }
  return std::optional<McpRule>(std::move(rule));
}

void McpRules::AddRulesOf(const nlohmann::json& document, const std::string& shown_path,
                          RulesRead read) {
  auto permissions = document.find("permissions");
  if (permissions == document.end()) return;
  if (!permissions->is_object()) {
    notes_.push_back("the permissions of " + shown_path +
                     " is not an object, so none of its rules decides a call: each is put "
                     "to you");
    return;
  }
  const std::pair<const char*, std::vector<McpRule>*> lists[] = {
      {"deny", &deny_}, {"ask", &ask_}, {"allow", &allow_}};
  for (const auto& [name, rules] : lists) {
    if (rules == &allow_ && read == RulesRead::kNarrowingOnly) continue;
    auto list = permissions->find(name);
    if (list == permissions->end()) continue;
    if (!list->is_array()) {
      notes_.push_back("permissions." + std::string(name) + " of " + shown_path +
                       " is not a list, so none of its rules decides a call");
      continue;
    }
    std::size_t unread = 0;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const nlohmann::json& entry = (*list)[i];
      Result<std::optional<McpRule>> rule =
          entry.is_string()
              ? ParseMcpRule(entry.get_ref<const std::string&>())
              : Result<std::optional<McpRule>>(Error(ErrorCode::kUsage, "a rule is a string"));
      if (!rule) {
        if (++unread <= kMostNotedRules) {
          notes_.push_back("rule " + std::to_string(i + 1) + " of permissions." + name + " in " +
                           shown_path + " decides nothing: " + rule.error().message());
        }
      } else if (rule->has_value()) {
        rules->push_back(std::move(**rule));
      }
    }
    if (unread > kMostNotedRules) {
      const std::size_t more = unread - kMostNotedRules;
      notes_.push_back("and " + std::to_string(more) + " more rule" + (more == 1 ? "" : "s") +
                       " of permissions." + name + " in " + shown_path + " decide" +
                       (more == 1 ? "s" : "") + " nothing");
    }
  }
}

RuleVerdict McpRules::Decide(std::string_view server, std::string_view tool) const {
  if (AnyCovers(deny_, server, tool)) return RuleVerdict::kDeny;
  if (AnyCovers(ask_, server, tool)) return RuleVerdict::kAsk;
  if (AnyCovers(allow_, server, tool)) return RuleVerdict::kAllow;
  return RuleVerdict::kNone;
}

}  // namespace bravebot
