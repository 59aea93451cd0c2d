// bravebot-mcp doctor: list's rows, and what would mislead: a settings file
// that tries to declare a server (which only mcp.json may), named by its key
// and never by what is inside it, since that may be a command line and a
// token; and what the administrator file pins.
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "base/files.h"
#include "cli/command.h"
#include "cli/declaration_view.h"
#include "cli/profile_access.h"
#include "cli/simple_options.h"
#include "confine/paths.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/file_bounds.h"
#include "supervisor/store/json_text.h"
#include "supervisor/store/settings_file.h"

namespace bravebot {
namespace {

// Every key of a settings file that tries to declare a server.
std::vector<std::string> DeclaringKeys(const nlohmann::json& document) {
  std::vector<std::string> keys;
  if (!document.is_object()) return keys;
  if (document.contains("mcpServers")) keys.push_back("mcpServers");
  if (document.contains("mcp") && document["mcp"].is_object()) {
    for (const auto& [key, value] : document["mcp"].items()) {
      // Shown as add shows a word: a key may hold a terminal's escape or a
      // line break, and an empty one is ''.
      if (key != "request" && key != "deny") keys.push_back("mcp." + DisplayWord(key));
    }
  }
  return keys;
}

std::vector<std::string> IgnoredLines(const CommandContext& context,
                                      const std::string& declarations_path) {
  std::optional<std::string> profile = context.ProfileLocation();
  std::vector<std::string> lines;
  for (Scope scope : {Scope::kLocal, Scope::kProject, Scope::kUser}) {
    const std::string path = SettingsFilePath(scope, context.cwd, profile.value_or(""));
    if (path.empty() || (scope == Scope::kUser && !profile)) continue;
    // Read without blocking on a fifo, and through the one JSON reader: a
    // file that cannot be read is one list's rows say is wrong already.
    Result<std::optional<std::string>> text = ReadWholeFile(path, kSettingsFileBound);
    if (!text || !*text) continue;
    Result<nlohmann::json> parsed = ParseJsonText(**text);
    if (!parsed) continue;
    const nlohmann::json& document = *parsed;
    for (const std::string& key : DeclaringKeys(document)) {
      lines.push_back("ignored   " + key + " in " + path + " declares an MCP server, which only " +
                      declarations_path + " may: nothing in it is started");
    }
  }
  return lines;
}

SimpleCommandSpec DoctorOptions() {
  return {
      "doctor",
      "Prints list's rows, names every key of a settings file that tries to declare an MCP server "
      "(which only mcp.json may), and what the administrator file pins; fails where list fails, "
      "a key is ignored, or a server may write a settings file here.",
      /*takes_alias=*/false,
      /*takes_json=*/true,
      {}};
}

int RunDoctor(const SimpleOptions& options, CommandContext& context) {
  const std::string declarations_path =
      context.ProfileLocation() ? JoinPath(*context.ProfileLocation(), kDeclarationFileName)
                                : "the profile directory's mcp.json";
  const std::vector<std::string> ignored = IgnoredLines(context, declarations_path);
  const std::string managed_path = ManagedFilePath(context.getenv);
  Result<ManagedPolicy> managed = ReadManagedPolicy(managed_path);
  std::vector<std::string> pinned;
  if (managed) {
    for (const std::string& key : PinnedKeys(*managed)) {
      pinned.push_back("pinned    " + key + " in " + managed_path);
    }
  }

  std::ostringstream rows;
  CommandContext list_context{
      context.in, rows, context.err, context.getenv, context.cwd, context.at_terminal, context.fs};
  SimpleOptions list_options;
  list_options.json = options.json;
  size_t server_writable_settings = 0;
  int status = RunListReportingAs("doctor", list_options, list_context, &server_writable_settings);

  if (options.json) {
    nlohmann::json json = nlohmann::json::parse(rows.str(), nullptr, false);
    if (!json.is_object()) json = nlohmann::json::object();
    json["ignored"] = ignored;
    json["pinned"] = pinned;
    if (!managed) json["administrator_file_error"] = managed.error().message();
    context.out << JsonText(json) << "\n";
  } else {
    context.out << rows.str();
    for (const std::string& line : ignored) context.out << line << "\n";
    for (const std::string& line : pinned) context.out << line << "\n";
  }
  if (!managed) Report(context, "doctor", managed.error());
  // A settings file a server may write is read in part: fail, so that it is seen.
  return status != kExitOk || !ignored.empty() || !managed || server_writable_settings > 0
             ? kExitFailed
             : kExitOk;
}

}  // namespace

const CommandSpec kDoctorCommand = {
    "doctor", "list's rows, and every settings key that tries to declare a server", "",
    DoctorOptions, RunDoctor};

}  // namespace bravebot
