#include "cli/mcp_run_arguments.h"

#include <algorithm>

namespace bravebot {
namespace {

Error Usage(const std::string& message) {
  return Error(ErrorCode::kUsage, message + "; mcp-run --help says what it takes");
}

Result<int> ReadTimeout(const std::string& word) {
  if (word.empty() || word.size() > 5 ||
      !std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Usage("--timeout takes a whole number of seconds");
  }
  int seconds = std::stoi(word);
  if (seconds < 1) return Usage("--timeout takes at least 1 second");
  return seconds;
}

bool IsFlag(const std::string& word) { return word.size() > 1 && word.front() == '-'; }

}  // namespace

Result<McpRunArguments> ParseMcpRunArguments(const std::vector<std::string>& words) {
  McpRunArguments result;
  std::vector<std::string> rest;  // what is left for the alias or add's grammar
  bool timeout_given = false;
  size_t i = 0;
  for (; i < words.size() && words[i] != "--"; ++i) {
    const std::string& word = words[i];
    if (word == "-h" || word == "--help") {
      result.help = true;
      return result;
    }
    if (word == "--stdio") {
      result.bridge = true;
    } else if (word == "--call") {
      if (result.call_tool) return Usage("--call is given twice, and mcp-run calls one tool a run");
      if (i + 2 >= words.size()) return Usage("--call takes a tool's name and its arguments");
      result.call_tool = words[i + 1];
      result.call_arguments = words[i + 2];
      i += 2;
    } else if (word == "--timeout") {
      if (timeout_given) return Usage("--timeout is given twice");
      if (i + 1 >= words.size()) return Usage("--timeout takes a number of seconds");
      BRAVEBOT_ASSIGN_OR_RETURN(int seconds, ReadTimeout(words[++i]));
      result.timeout_seconds = seconds;
      timeout_given = true;
    } else if (IsFlag(word) && !IsAddFlag(word.substr(0, word.find('=')))) {
      // An option of add's glued to its value (--client-secret-file=FILE) is
      // add's too: only what is neither is refused.
      return Usage("mcp-run does not know " +
                   UnknownFlagWords(word, "word " + std::to_string(i + 1) + " after mcp-run") +
                   " (a flag meant for the server goes after --)");
    } else {
      rest.push_back(word);
    }
  }
  if (result.bridge && result.call_tool) return Usage("give --stdio or --call, not both");
  if (result.bridge && timeout_given) {
    return Usage(
        "--timeout does nothing with --stdio, where the client, not mcp-run, waits for the "
        "server's answers: leave it out");
  }

  const bool given_here =
      i < words.size() || std::any_of(rest.begin(), rest.end(), [](const std::string& word) {
        return word == "--http" || word.starts_with("--http=");
      });
  if (given_here) {
    rest.insert(rest.end(), words.begin() + static_cast<long>(i), words.end());
    BRAVEBOT_ASSIGN_OR_RETURN(AddArguments declaration, ParseAddArguments(rest));
    result.ad_hoc = std::move(declaration);
    return result;
  }
  if (rest.size() != 1) {
    return Usage("mcp-run takes one declared alias, or the words add takes and -- PROGRAM");
  }
  if (!IsValidAlias(rest[0])) return Usage("that is not an alias");
  result.alias = rest[0];
  return result;
}

}  // namespace bravebot
