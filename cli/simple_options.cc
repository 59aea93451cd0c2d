#include "cli/simple_options.h"

#include <CLI/CLI.hpp>

#include "confine/declaration.h"

namespace bravebot {
namespace {

// ALIAS:TOOL into its two words. The alias holds no colon, so the first one
// ends it; the tool's name is the server's and may hold more.
Status SplitToolName(SimpleOptions& options) {
  const std::size_t colon = options.alias.find(':');
  if (colon == std::string::npos) return {};
  options.tool = options.alias.substr(colon + 1);
  options.alias.resize(colon);
  if (options.tool.empty()) {
    return Error(ErrorCode::kUsage,
                 "ALIAS:TOOL names a tool after the colon, as a call question names it");
  }
  if (options.tool.find_first_of("\t\r\n") != std::string::npos) {
    return Error(ErrorCode::kUsage, "a tool's name holds no tab or line break");
  }
  return {};
}

}  // namespace

Result<SimpleOptions> ParseSimpleOptions(const SimpleCommandSpec& spec,
                                         const std::vector<std::string>& words) {
  SimpleOptions options;
  CLI::App app(spec.description, "bravebot-mcp " + spec.name);
  if (spec.takes_json) app.add_flag("--json", options.json, "print JSON, for scripts");
  std::vector<bool> given(spec.flags.size());
  for (size_t i = 0; i < spec.flags.size(); ++i) {
    app.add_flag_callback(
        spec.flags[i].first, [&given, i] { given[i] = true; }, spec.flags[i].second);
  }
  std::vector<std::string> values(spec.valued.size());
  std::vector<CLI::Option*> valued(spec.valued.size());
  for (size_t i = 0; i < spec.valued.size(); ++i) {
    valued[i] = app.add_option(spec.valued[i].first, values[i], spec.valued[i].second);
  }
  std::string scope;
  if (spec.takes_scope) {
    app.add_option("-s,--scope", scope, "which settings file: local, project or user");
  }
  if (spec.takes_optional_path) app.add_option("path", options.path, spec.path_meaning);
  if (spec.takes_paths) app.add_option("paths", options.paths, spec.path_meaning);
  if (spec.takes_alias) {
    app.add_option("alias", options.alias,
                   spec.alias_may_name_tool
                       ? "the server's alias, or ALIAS:TOOL for one of its tools"
                       : "the server's alias")
        ->required();
  }
  // CLI11 parses a reversed vector: it pops words from the back.
  std::vector<std::string> reversed(words.rbegin(), words.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    options.help = true;
    options.help_text = app.help();
    return options;
  } catch (const CLI::ParseError&) {
    // CLI11's own message repeats the word it did not expect, which may be a
    // key pasted in the wrong place; say what the command takes instead.
    std::string takes = spec.takes_alias           ? "one alias"
                        : spec.takes_optional_path ? "one path, or none"
                        : spec.takes_paths         ? "paths, or none"
                                                   : "no word";
    if (spec.takes_scope) takes += " and -s local, project or user";
    if (spec.takes_json) takes += " and --json";
    return Error(ErrorCode::kUsage, spec.name + " takes " + takes + "; bravebot-mcp " + spec.name +
                                        " --help says more");
  }
  for (size_t i = 0; i < spec.flags.size(); ++i) {
    if (given[i]) options.flags.insert(spec.flags[i].first);
  }
  for (size_t i = 0; i < spec.valued.size(); ++i) {
    if (valued[i]->count() > 0) options.values[spec.valued[i].first] = values[i];
  }
  if (!scope.empty()) {
    options.scope = ParseScope(scope);
    if (!options.scope) {
      return Error(ErrorCode::kUsage, "-s takes local, project or user; bravebot-mcp " + spec.name +
                                          " --help says more");
    }
  }
  if (spec.alias_may_name_tool) {
    BRAVEBOT_RETURN_IF_ERROR(SplitToolName(options));
  }
  if (spec.takes_alias && !IsValidAlias(options.alias)) {
    return Error(ErrorCode::kUsage,
                 "that is not an alias: an alias is letters, digits, - and _, starting with a "
                 "letter or a digit, at most 64 characters");
  }
  return options;
}

}  // namespace bravebot
