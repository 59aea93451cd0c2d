// The options of every command but add, read with CLI11 by the command table
// (cli/bravebot_mcp.cc) before a command's body runs: at most an alias or a
// path, --json, -s and flags of its own.
#ifndef BRAVEBOT_CLI_SIMPLE_OPTIONS_H_
#define BRAVEBOT_CLI_SIMPLE_OPTIONS_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "supervisor/store/scope.h"

namespace bravebot {

struct SimpleCommandSpec {
  std::string name;         // "get"
  std::string description;  // one paragraph for --help
  bool takes_alias = false;
  bool takes_json = false;
  // Further on/off flags: {"--probe", "what it does"}.
  std::vector<std::pair<std::string, std::string>> flags;
  bool takes_scope = false;  // -s, --scope local|project|user
  // The alias may be ALIAS:TOOL, naming one tool of the server (approve).
  bool alias_may_name_tool = false;
  bool takes_optional_path = false;                    // one path, or none
  bool takes_paths = false;                            // any number of paths
  std::string path_meaning = "a project's directory";  // what --help says it is
  // Options that take a value: {"--startup-timeout", "what it does"}.
  std::vector<std::pair<std::string, std::string>> valued = {};
};

struct SimpleOptions {
  bool help = false;
  std::string help_text;  // set when help is
  bool json = false;
  std::string alias;
  std::string tool;                           // the TOOL of ALIAS:TOOL, where the spec takes one
  std::set<std::string> flags;                // those of spec.flags that were given
  std::map<std::string, std::string> values;  // those of spec.valued given, with their value
  std::optional<Scope> scope;
  std::string path;
  std::vector<std::string> paths;  // with takes_paths
};

// Reads `words` (what follows the command's name). A mistake is kUsage.
Result<SimpleOptions> ParseSimpleOptions(const SimpleCommandSpec& spec,
                                         const std::vector<std::string>& words);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SIMPLE_OPTIONS_H_
