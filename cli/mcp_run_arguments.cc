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

}  // namespace

Result<McpRunArguments> ParseMcpRunArguments(const std::vector<std::string>& words) {
  McpRunArguments result;
  std::vector<std::string> rest;  // what is left for the alias or add's grammar
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
      if (i + 2 >= words.size()) return Usage("--call takes a tool's name and its arguments");
      result.call_tool = words[i + 1];
      result.call_arguments = words[i + 2];
      i += 2;
    } else if (word == "--timeout") {
      if (i + 1 >= words.size()) return Usage("--timeout takes a number of seconds");
      Result<int> seconds = ReadTimeout(words[++i]);
      if (!seconds) return seconds.error();
      result.timeout_seconds = *seconds;
    } else {
      rest.push_back(word);
    }
  }
  if (result.bridge && result.call_tool) return Usage("give --stdio or --call, not both");

  const bool given_here =
      i < words.size() || std::find(rest.begin(), rest.end(), "--http") != rest.end();
  if (given_here) {
    rest.insert(rest.end(), words.begin() + static_cast<long>(i), words.end());
    Result<AddArguments> declaration = ParseAddArguments(rest);
    if (!declaration) return declaration.error();
    result.ad_hoc = std::move(*declaration);
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
