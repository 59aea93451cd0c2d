#include "supervisor/tools/call_decision.h"

#include "base/shown_text.h"
#include "supervisor/tools/tool_list_view.h"

namespace bravebot {
namespace {

using Kind = CallDecision::Kind;

CallDecision Refuse(std::string refusal) { return {Kind::kRefuse, std::move(refusal)}; }

// A call that would be put to a person, where nobody can be asked.
CallDecision NobodyToAsk(Asking asking, const std::string& name, bool released) {
  std::string why = released ? ", since something private was let out of quarantine in this "
                               "session,"
                             : "";
  std::string who = asking == Asking::kOneShot ? "a one-shot run asks nobody"
                                               : "this session has nobody at a terminal";
  return Refuse("refused: " + name + " is put to the user before it runs" + why + " and " + who +
                ". Do not retry " + name + ": say in your reply what you needed from it.");
}

std::string ArgumentRows(const nlohmann::json& arguments) {
  if (!arguments.is_object()) {
    if (arguments.is_null()) return "";
    return "  " +
           EscapeControlCharacters(
               arguments.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) +
           "\n\n";
  }
  if (arguments.empty()) return "";
  std::string rows;
  for (auto argument = arguments.begin(); argument != arguments.end(); ++argument) {
    rows += "  " + EscapeControlCharacters(argument.key()) + ": " +
            EscapeControlCharacters(
                argument.value().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) +
            "\n";
  }
  return rows + "\n";
}

// The rows of a description behind the margin, at most `most` of them
// (0: every row); whether rows were left out.
std::string MarginRows(const std::string& description, std::size_t most, bool& cut) {
  cut = false;
  if (description.empty()) return "";
  const std::string shown = ShownDescription(description);
  std::string rows;
  std::size_t count = 0;
  std::size_t at = 0;
  while (at <= shown.size()) {
    std::size_t end = shown.find('\n', at);
    if (end == std::string::npos) end = shown.size();
    if (most != 0 && count == most) {
      cut = true;
      break;
    }
    std::string row = shown.substr(at, end - at);
    rows += row.empty() ? "\xe2\x94\x83\n" : kServerWordsMargin + row + "\n";
    ++count;
    at = end + 1;
  }
  return rows;
}

std::string Heading(const std::string& alias, const std::string& tool) {
  return "  " + alias + ":" + EscapeControlCharacters(tool) + "    (MCP)\n\n";
}

}  // namespace

CallDecision DecideCall(const CallFacts& facts, const std::string& alias, const std::string& tool) {
  const std::string name = alias + ":" + EscapeControlCharacters(tool);
  if (!facts.list_offered) {
    return Refuse("refused: " + name + " is not offered to the model in this session, since " +
                  alias + "'s list of tools was not offered. Do not retry it.");
  }
  if (!facts.tool_listed) {
    return Refuse("refused: " + alias + " offered no tool named " + EscapeControlCharacters(tool) +
                  " in this session. Do not retry it.");
  }
  if (facts.rule == RuleVerdict::kDeny) return Refuse(DenyRefusal(alias, tool));
  if (facts.asking == Asking::kSkipPermissions) return {Kind::kRun, ""};
  const bool nobody = facts.asking == Asking::kOneShot || facts.asking == Asking::kNobody;
  // After something private was let out, and under an ask rule, every call is
  // put to the person, whatever answer 2 or an allow rule says.
  if (facts.released || facts.rule == RuleVerdict::kAsk) {
    if (nobody) return NobodyToAsk(facts.asking, name, facts.released);
    return {Kind::kAsk, ""};
  }
  // No allow rule decides anything in a one-shot run.
  if (facts.rule == RuleVerdict::kAllow && facts.asking != Asking::kOneShot) {
    return {Kind::kRun, ""};
  }
  if (facts.answered_in_project) return {Kind::kRun, ""};
  if (nobody) return NobodyToAsk(facts.asking, name, false);
  return {Kind::kAsk, ""};
}

std::string DenyRefusal(const std::string& alias, const std::string& tool) {
  const std::string name = alias + ":" + EscapeControlCharacters(tool);
  return "refused: a deny rule in the settings file covers " + name + ". Do not retry " + name +
         " and do not look for another route to what it does: say in your reply what you "
         "needed from it.";
}

std::string DeclinedText(const std::string& alias, const std::string& tool) {
  return "declined: the user said no to this call of " + alias + ":" +
         EscapeControlCharacters(tool) + ", and it was not sent.";
}

std::string CallQuestion(const std::string& alias, const std::string& tool,
                         const nlohmann::json& arguments, const std::string& description,
                         bool can_record) {
  bool cut = false;
  std::string question =
      Heading(alias, tool) + ArgumentRows(arguments) + MarginRows(description, 2, cut);
  if (cut) question += "  (e to expand)\n";
  if (!description.empty()) question += "\n";
  question += "  Proceed?\n  1. Yes\n  2. Yes, and stop asking for " + alias + ":" +
              EscapeControlCharacters(tool) + " in this project";
  if (!can_record) question += " (not offered: this session writes nothing)";
  question += "\n  3. No\n";
  return question;
}

std::string PlainCallQuestion(const std::string& alias, const std::string& tool,
                              const nlohmann::json& arguments, const std::string& description) {
  bool cut = false;
  std::string question =
      Heading(alias, tool) + ArgumentRows(arguments) + MarginRows(description, 0, cut);
  if (!description.empty()) question += "\n";
  return question + "Proceed? [y/N]";
}

bool IsYesAnswer(std::string_view typed) {
  return typed == "1" || typed == "y" || typed == "Y" || typed == "yes";
}

CallAnswer ReadCallAnswer(const std::string& typed, bool can_record) {
  if (IsYesAnswer(typed)) return CallAnswer::kYes;
  if (typed == "2" && can_record) return CallAnswer::kYesAndRecord;
  return CallAnswer::kNo;
}

}  // namespace bravebot
